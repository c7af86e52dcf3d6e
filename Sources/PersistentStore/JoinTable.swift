import ObjectModel

/// The join table of a many-to-many relationship, or of a to-many relationship without an inverse.
///
/// Named after the relationship of the lower-numbered entity: `Z_<n><RELATIONSHIP>`. Each row is one edge;
/// `ownerColumn` holds the primary key of the owner's object, `destinationColumn` that of the destination.
public struct JoinTable: Sendable, Hashable {
    /// The table name, such as `Z_1TAGS`.
    public let name: String
    /// The entity whose relationship names the table.
    public let ownerEntity: String
    /// The owner entity and its subentities.
    private let ownerHierarchy: Set<String>
    /// The relationship of `ownerEntity` stored here.
    public let ownerRelationship: String
    /// The destination entity of `ownerRelationship`.
    public let inverseEntity: String
    /// The inverse relationship, when there is one.
    public let inverseRelationship: String?
    /// The column of the owner objects' primary keys.
    public let ownerColumn: String
    /// The column of the destination objects' primary keys.
    public let destinationColumn: String
    /// The order key of the owner relationship (position of the destination in the owner's list), if ordered.
    public let ownerOrderColumn: String?
    /// The order key of the inverse relationship, if it is ordered.
    public let inverseOrderColumn: String?

    /// The table named after `owner`'s relationship, whose rows' keys are in `ownerColumn`.
    ///
    /// The column names are fixed by the model (format note M3); which side names the table is not always
    /// (a reflexive pair, X1), so a reader may build the table from either side.
    init(
        owner: (entity: String, relationship: Relationship, column: String),
        other: (entity: String, relationship: Relationship?, column: String),
        version: ModelVersion,
        numbers: [String: Int]
    ) {
        self.ownerEntity = owner.entity
        self.ownerHierarchy = Set(version.hierarchy(of: owner.entity))
        self.ownerRelationship = owner.relationship.name
        self.inverseEntity = other.entity
        self.inverseRelationship = other.relationship?.name
        self.name = "Z_\(numbers[owner.entity] ?? 0)\(owner.relationship.name.uppercased())"
        self.ownerColumn = owner.column
        self.destinationColumn = other.column
        // An order key is named after the column whose rows it orders (M5).
        self.ownerOrderColumn = owner.relationship.isOrdered ? "Z_FOK_" + other.column.dropFirst(2) : nil
        self.inverseOrderColumn = other.relationship?.isOrdered == true ? "Z_FOK_" + owner.column.dropFirst(2) : nil
    }

    /// Every column in Core Data's order: the owner side's keys, the other side's, then the order key of the
    /// owner side's rows and that of the other side's rows (M4, M5).
    public var columns: [String] {
        [ownerColumn, destinationColumn] + [inverseOrderColumn, ownerOrderColumn].compactMap { $0 }
    }

    /// The same table as Core Data names it when the other side of the pair is the naming side.
    func namedFromOtherSide(version: ModelVersion, numbers: [String: Int]) -> JoinTable? {
        guard let otherName = inverseRelationship, let other = version.relationship(otherName, of: inverseEntity),
            let own = version.relationship(ownerRelationship, of: ownerEntity)
        else { return nil }
        return JoinTable(
            owner: (inverseEntity, other, destinationColumn), other: (ownerEntity, own, ownerColumn), version: version,
            numbers: numbers)
    }

    /// Whether `relationship` of `entity` is the side this table is named after (its owner side).
    ///
    /// Decided by entity as well as name: both sides of a many-to-many may carry the same name.
    public func isOwner(_ relationship: String, of entity: String) -> Bool {
        relationship == ownerRelationship && ownerHierarchy.contains(entity)
    }

    /// The order-key column of `relationship`'s list, if that relationship is ordered.
    public func orderColumn(forRelationship relationship: String, of entity: String) -> String? {
        isOwner(relationship, of: entity) ? ownerOrderColumn : inverseOrderColumn
    }

    /// The column holding the primary keys of the objects whose `relationship` this is (`entity`'s side).
    public func sourceColumn(forRelationship relationship: String, of entity: String) -> String {
        isOwner(relationship, of: entity) ? ownerColumn : destinationColumn
    }

    /// The column holding the primary keys of the destination objects of `relationship` of `entity`.
    public func targetColumn(forRelationship relationship: String, of entity: String) -> String {
        isOwner(relationship, of: entity) ? destinationColumn : ownerColumn
    }
}
