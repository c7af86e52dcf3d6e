import ObjectModel

/// The objects of one entity and its subentities: their primary keys are contiguous.
struct ObjectRange: Sendable {
    let firstPrimaryKey: Int64
    let count: Int

    func primaryKey(ofOrdinal ordinal: Int) -> Int64 { firstPrimaryKey + Int64(ordinal) }
}

/// The destination of one object's to-one relationship.
struct ToOneTarget {
    let primaryKey: Int64
    /// The object's position in the destination's ordered to-many inverse, 1-based.
    let orderKey: Int64
}

/// Decides, object by object in primary-key order, where a to-one relationship points.
protocol ToOneAssignment: AnyObject {
    /// `Entity.relationship`.
    var key: String { get }
    /// The number of edges handed out so far.
    var edges: Int { get }
    /// The target of the object with `ordinal` in the declaring entity's range, or nil for none.
    func target(forOrdinal ordinal: Int) -> ToOneTarget?
}
