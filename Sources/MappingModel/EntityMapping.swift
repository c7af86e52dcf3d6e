public import ObjectModel

/// How objects of one source entity become objects of one destination entity, like Core Data's
/// `NSEntityMapping`.
public struct EntityMapping: Sendable, Hashable {
    /// What an entity mapping does, Core Data's `NSEntityMappingType`.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Creates destination objects without source objects; has no source entity.
        case add
        /// Drops the source objects; has no destination entity and no property mappings.
        case remove
        /// Copies every object unchanged: each destination property without a mapping takes the source
        /// property of the same name.
        case copy
        /// Makes one destination object per source object through the property mappings.
        case transform
        /// Left to the policy, which is required.
        case custom
    }

    /// The mapping's name, unique within its mapping model, such as `BookToBook`.
    public var name: String
    /// What the mapping does.
    public var kind: Kind
    /// The source entity (nil for an add mapping).
    public var sourceEntity: String?
    /// The destination entity (nil for a remove mapping).
    public var destinationEntity: String?
    /// The source entity's version hash; when given, it must equal the source model's.
    public var sourceEntityVersionHash: VersionHash?
    /// The destination entity's version hash; when given, it must equal the destination model's.
    public var destinationEntityVersionHash: VersionHash?
    /// A boolean expression over `$source`: only the source objects for which it holds are migrated.
    public var sourceFilter: String?
    /// The destination attributes' mappings, in order.
    public var attributeMappings: [PropertyMapping]
    /// The destination relationships' mappings, in order.
    public var relationshipMappings: [PropertyMapping]
    /// The name of a registered entity migration policy.
    public var policy: String?
    /// The policy class the mapping model named, when a binding runs it as a registered policy of another name
    /// (`Post2ToPost3MigrationPolicy` bound to `SplitAttributeIntoEntity`); nil when ``policy`` is that name.
    public var policyClass: String?
    /// Free-form key/value pairs.
    public var userInfo: [String: String]
    /// What the policy makes, when it is a Swift policy that declares it (set from the policy's registration or
    /// binding); the verifier checks the policy's objects against it.
    public var declaration: PolicyDeclaration?

    /// Creates an entity mapping; only the name, kind and entities are required.
    public init(
        name: String,
        kind: Kind,
        sourceEntity: String?,
        destinationEntity: String?,
        sourceEntityVersionHash: VersionHash? = nil,
        destinationEntityVersionHash: VersionHash? = nil,
        sourceFilter: String? = nil,
        attributeMappings: [PropertyMapping] = [],
        relationshipMappings: [PropertyMapping] = [],
        policy: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.kind = kind
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
        self.sourceEntityVersionHash = sourceEntityVersionHash
        self.destinationEntityVersionHash = destinationEntityVersionHash
        self.sourceFilter = sourceFilter
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.policy = policy
        self.userInfo = userInfo
    }

    /// The policy as messages name it: `policy 'SplitAttributeIntoEntity'`, or for a bound class
    /// `policy 'Post2ToPost3MigrationPolicy' (bound to 'SplitAttributeIntoEntity')`; nil without a policy.
    public var policyDescription: String? {
        guard let policy else { return nil }
        guard let policyClass, policyClass != policy else { return "policy '\(policy)'" }
        return "policy '\(policyClass)' (bound to '\(policy)')"
    }

    /// What breaks the rules of the mapping's kind (an add mapping with a source, …), or nil.
    var kindProblem: String? {
        switch kind {
        case .add:
            if sourceEntity != nil { return "an add mapping has no source entity" }
            if destinationEntity == nil { return "an add mapping needs a destination entity" }
            if sourceFilter != nil { return "an add mapping has no source objects to filter" }
        case .remove:
            if destinationEntity != nil { return "a remove mapping has no destination entity" }
            if sourceEntity == nil { return "a remove mapping needs a source entity" }
            if !attributeMappings.isEmpty || !relationshipMappings.isEmpty {
                return "a remove mapping has no attribute or relationship mappings"
            }
        case .copy, .transform:
            if sourceEntity == nil || destinationEntity == nil {
                return "a \(kind.rawValue) mapping needs a source and a destination entity"
            }
        case .custom:
            if policy == nil { return "a custom mapping needs a policy" }
            if sourceEntity == nil && destinationEntity == nil {
                return "a custom mapping needs a source or a destination entity"
            }
        }
        return nil
    }
}
