/// A named list of columns that together identify at most one object, or that are indexed together.
public struct Index: Sendable, Hashable {
    /// The index name (Xcode's `fetchIndex` name); for a legacy compound index, its properties joined by `_`.
    public var name: String
    /// The indexed property names, in order.
    public var properties: [String]

    /// Creates an index over `properties`.
    public init(name: String, properties: [String]) {
        self.name = name
        self.properties = properties
    }
}

/// A kind of object, like Core Data's `NSEntityDescription`.
///
/// Holds only the entity's own properties; ``ModelVersion`` resolves inheritance.
public struct Entity: Sendable, Hashable {
    /// The entity name, unique within the model version.
    public var name: String
    /// The name of the parent entity, for single-table inheritance.
    public var parent: String?
    /// Whether the entity has no objects of its own, only of its subentities.
    public var isAbstract: Bool
    /// The entity's own attributes, in declaration order.
    public var attributes: [Attribute]
    /// The entity's own relationships, in declaration order.
    public var relationships: [Relationship]
    /// Core Data's renaming identifier (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// A string mixed into the version hash.
    public var versionHashModifier: String?
    /// Uniqueness constraints: each a list of property names that together are unique.
    public var uniquenessConstraints: [[String]]
    /// Indexes declared on the entity.
    public var indexes: [Index]
    /// Free-form key/value pairs from the model.
    public var userInfo: [String: String]

    /// Creates an entity; only `name` is required.
    public init(
        name: String,
        parent: String? = nil,
        isAbstract: Bool = false,
        attributes: [Attribute] = [],
        relationships: [Relationship] = [],
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        uniquenessConstraints: [[String]] = [],
        indexes: [Index] = [],
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.userInfo = userInfo
    }

    /// The name this entity is known by across versions: its renaming identifier, or else its name.
    public var renamingKey: String { renamingIdentifier ?? name }
}
