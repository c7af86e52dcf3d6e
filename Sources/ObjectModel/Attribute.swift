/// A stored or transient value of an entity, like Core Data's `NSAttributeDescription`.
public struct Attribute: Sendable, Hashable {
    /// The property name, unique within the entity and its ancestors.
    public var name: String
    /// The value type.
    public var type: AttributeType
    /// Whether the value may be nil.
    public var isOptional: Bool
    /// Whether the value is kept only in memory and never stored.
    public var isTransient: Bool
    /// The value a new object gets when none is given.
    public var defaultValue: AttributeValue?
    /// Core Data's renaming identifier (Xcode's `elementID`): the name this property had in an earlier version.
    public var renamingIdentifier: String?
    /// A string mixed into the version hash to force a new hash without another change.
    public var versionHashModifier: String?
    /// Whether large binary values may live outside the store (a version hash input).
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether the value is kept in persistent history after deletion (a version hash input).
    public var preserveAfterDeletion: Bool
    /// Whether the column is indexed.
    public var isIndexed: Bool
    /// Free-form key/value pairs from the model.
    public var userInfo: [String: String]

    /// Creates an attribute; only `name` and `type` are required.
    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = false,
        isTransient: Bool = false,
        defaultValue: AttributeValue? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        preserveAfterDeletion: Bool = false,
        isIndexed: Bool = false,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preserveAfterDeletion = preserveAfterDeletion
        self.isIndexed = isIndexed
        self.userInfo = userInfo
    }

    /// The name this property is known by across versions: its renaming identifier, or else its name.
    public var renamingKey: String { renamingIdentifier ?? name }
}
