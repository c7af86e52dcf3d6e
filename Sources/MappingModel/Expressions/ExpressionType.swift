public import ObjectModel

/// The static type of an expression, known before the first object is migrated.
public enum ExpressionType: Sendable, Hashable, CustomStringConvertible {
    /// A whole number.
    case integer
    /// A floating-point number.
    case double
    /// A decimal number.
    case decimal
    /// A text.
    case string
    /// A truth value.
    case boolean
    /// A moment.
    case date
    /// Bytes.
    case binary
    /// A UUID.
    case uuid
    /// A URI.
    case uri
    /// One object of the named entity in the store `side`.
    case object(String, StoreSide)
    /// Several objects of the named entity in the store `side`.
    case objects(String, StoreSide)
    /// Known only when evaluated (a policy call's result).
    case any
    /// The type of the literal `nil`, which fits every type.
    case null

    /// The type of values of an attribute of type `type`.
    public init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64: self = .integer
        case .double, .float: self = .double
        case .decimal: self = .decimal
        case .string: self = .string
        case .boolean: self = .boolean
        case .date: self = .date
        case .binary, .transformable: self = .binary
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .objectID, .undefined: self = .any
        }
    }

    /// Whether values are numbers (integer, double or decimal).
    public var isNumeric: Bool {
        switch self {
        case .integer, .double, .decimal: true
        default: false
        }
    }

    /// The name used in error messages: `integer`, `object(Post)`, `destination objects(Post)`.
    public var description: String {
        switch self {
        case .integer: "integer"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .boolean: "boolean"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "uuid"
        case .uri: "uri"
        case .object(let entity, let side): (side == .destination ? "destination " : "") + "object(\(entity))"
        case .objects(let entity, let side): (side == .destination ? "destination " : "") + "objects(\(entity))"
        case .any: "any"
        case .null: "nil"
        }
    }

    /// The type both `self` and `other` fit, for the branches of a conditional and `coalesce`; nil when none.
    func unified(with other: ExpressionType) -> ExpressionType? {
        if self == other { return self }
        switch (self, other) {
        case (.null, _): return other
        case (_, .null): return self
        case (.any, _), (_, .any): return .any
        case (.string, .uri), (.uri, .string): return .string
        default: break
        }
        if isNumeric && other.isNumeric {
            return self == .double || other == .double ? .double : .decimal
        }
        return nil
    }
}
