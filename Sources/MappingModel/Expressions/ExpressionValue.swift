public import Foundation

/// Which store an object lives in: the store being migrated, or the one being filled.
public enum StoreSide: UInt8, Sendable, Hashable, Codable {
    /// The store being migrated (`$source` and its relationships).
    case source
    /// The store being filled (`$destination`, and what `$manager` returns).
    case destination
}

/// A reference to one object in a store, small enough to copy freely.
///
/// `entity` is the entity number (`Z_ENT`) in the store named by `side`, not the entity name, so that
/// identifiers hash and compare as three integers; the engine maps numbers to names through its store layout.
public struct ObjectID: Sendable, Hashable {
    /// The store the object lives in.
    public let side: StoreSide
    /// The entity number (`Z_ENT`) of the object's entity in that store.
    public let entity: Int32
    /// The object's primary key (`Z_PK`).
    public let primaryKey: Int64

    /// Creates a reference to the object with `primaryKey` of entity number `entity` in the store `side`.
    public init(side: StoreSide, entity: Int32, primaryKey: Int64) {
        self.side = side
        self.entity = entity
        self.primaryKey = primaryKey
    }
}

/// A value computed by an expression, or read from a store.
///
/// Dates are seconds since 2001-01-01 00:00:00 UTC (Core Data's reference date); decimals keep their text.
public enum ExpressionValue: Sendable, Hashable {
    /// No value (`nil`).
    case null
    /// A whole number (Integer 16/32/64).
    case integer(Int64)
    /// A floating-point number (Double, Float).
    case double(Double)
    /// A decimal number kept as its text.
    case decimal(String)
    /// A text.
    case string(String)
    /// A truth value.
    case boolean(Bool)
    /// A moment, in seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// Bytes (Binary, Transformable).
    case binary([UInt8])
    /// A UUID.
    case uuid(UUID)
    /// A URI, as text.
    case uri(String)
    /// One object (a to-one relationship).
    case object(ObjectID)
    /// Several objects (a to-many relationship), in order.
    case objects([ObjectID])

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
