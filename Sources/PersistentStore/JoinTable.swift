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

    init(entity: String, relationship: Relationship, version: ModelVersion, numbers: [String: Int]) {
        let inverse = version.inverse(of: relationship)
        var owner = (entity: entity, relationship: relationship)
        var other = (entity: relationship.destination, relationship: inverse)
        if let inverse, let otherNumber = numbers[relationship.destination], let ownNumber = numbers[entity],
            (otherNumber, inverse.name) < (ownNumber, relationship.name)
        {
            owner = (relationship.destination, inverse)
            other = (entity, relationship)
        }
        let ownerNumber = numbers[owner.entity] ?? 0
        let otherNumber = numbers[other.entity] ?? 0
        self.ownerEntity = owner.entity
        self.ownerHierarchy = Set(version.hierarchy(of: owner.entity))
        self.ownerRelationship = owner.relationship.name
        self.inverseEntity = other.entity
        self.inverseRelationship = other.relationship?.name
        self.name = "Z_\(ownerNumber)\(owner.relationship.name.uppercased())"
        // A column is named after the relationship that points at the objects it holds.
        let ownerSide = other.relationship?.name.uppercased() ?? "INVERSE"
        var ownerColumn = "Z_\(ownerNumber)\(ownerSide)"
        let destinationColumn = "Z_\(otherNumber)\(owner.relationship.name.uppercased())"
        if ownerColumn == destinationColumn { ownerColumn += "1" }
        self.ownerColumn = ownerColumn
        self.destinationColumn = destinationColumn
        self.ownerOrderColumn = owner.relationship.isOrdered ? "Z_FOK_" + destinationColumn.dropFirst(2) : nil
        self.inverseOrderColumn = other.relationship?.isOrdered == true ? "Z_FOK_" + ownerColumn.dropFirst(2) : nil
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
