/// What happens to the destination objects when the source object is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable, Codable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

/// A link from one entity to another, like Core Data's `NSRelationshipDescription`.
public struct Relationship: Sendable, Hashable {
    /// The property name, unique within the entity and its ancestors.
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    /// The name of the inverse relationship on the destination entity, if any.
    public var inverse: String?
    /// Whether the relationship holds several objects.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool
    /// Whether the relationship may be empty.
    public var isOptional: Bool
    /// Whether the relationship is kept only in memory.
    public var isTransient: Bool
    /// The least number of destination objects (0 when unset).
    public var minCount: Int
    /// The largest number of destination objects; 0 means no limit on a to-many.
    public var maxCount: Int
    /// The delete rule.
    public var deleteRule: DeleteRule
    /// Core Data's renaming identifier (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// A string mixed into the version hash.
    public var versionHashModifier: String?
    /// Whether the foreign key is indexed.
    public var isIndexed: Bool
    /// Free-form key/value pairs from the model.
    public var userInfo: [String: String]

    /// Creates a relationship. A to-one gets `maxCount` 1 unless told otherwise.
    public init(
        name: String,
        destination: String,
        inverse: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = true,
        isTransient: Bool = false,
        minCount: Int = 0,
        maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        isIndexed: Bool = false,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.minCount = minCount
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.isIndexed = isIndexed
        self.userInfo = userInfo
    }

    /// The name this property is known by across versions: its renaming identifier, or else its name.
    public var renamingKey: String { renamingIdentifier ?? name }
}
