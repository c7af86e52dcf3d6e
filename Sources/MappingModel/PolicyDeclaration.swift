/// What a Swift policy makes, declared beside it so that the verifier, which never runs a policy, can check its
/// objects: whether it makes its mapping's own destination objects as the default policy does, and which objects
/// of other entities it makes beside them.
///
/// Registered with the policy (`PolicyRegistry.register(_:declaring:factory:)`) or written in a binding file
/// (`makes:`); the loaders put it on every entity mapping that names the policy (``EntityMapping/declaration``).
///
/// ```swift
/// // One Color per post whose source `hexColor` is set, holding it in `hex`, with a new UUID in `colorID`,
/// // linked by Post.color: what wibosco's Post2ToPost3MigrationPolicy makes.
/// PolicyDeclaration(makes: [.onePerObject("Color", through: "color", from: "hexColor", into: "hex", newIdentifier: "colorID")])
/// ```
public struct PolicyDeclaration: Sendable, Hashable {
    /// Whether the policy makes one destination object per migrated source object, with the values of its
    /// mapping's attribute and relationship mappings, as the default `createDestinationInstances` and
    /// `createRelationships` do (its own objects are then checked as a mapping without a policy's would be).
    public var makesMappedObjects: Bool
    /// The objects of other entities the policy makes beside the mapping's own.
    public var makes: [MadeObjects]

    /// A declaration of a policy that makes its mapping's own objects (unless `makesMappedObjects` is false) and
    /// the objects in `makes`.
    public init(makesMappedObjects: Bool = true, makes: [MadeObjects] = []) {
        self.makesMappedObjects = makesMappedObjects
        self.makes = makes
    }
}

/// Objects of another entity that a policy makes beside each object of its mapping, related to it: the rule the
/// verifier checks them against.
public struct MadeObjects: Sendable, Hashable {
    /// How many objects the policy makes.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// One new object per migrated object whose source attribute has a value; none for nil.
        case onePerObject
        /// One object per distinct value, shared by every migrated object with that value (find or create).
        case onePerValue
    }

    /// How many objects the policy makes.
    public var rule: Rule
    /// The entity of the objects made.
    public var entity: String
    /// The relationship of the mapping's destination entity that leads to them.
    public var relationship: String
    /// The source attribute whose value decides whether (and, for ``Rule/onePerValue``, which) object is made.
    public var sourceAttribute: String
    /// The attribute of the made object that holds the source value.
    public var attribute: String
    /// An attribute of the made object that gets a new UUID (``Rule/onePerObject`` only), or nil.
    public var identifierAttribute: String?

    /// Objects made by `rule`; see ``onePerObject(_:through:from:into:newIdentifier:)`` and
    /// ``onePerValue(_:through:from:key:)``.
    public init(
        rule: Rule, entity: String, relationship: String, sourceAttribute: String, attribute: String,
        identifierAttribute: String? = nil
    ) {
        self.rule = rule
        self.entity = entity
        self.relationship = relationship
        self.sourceAttribute = sourceAttribute
        self.attribute = attribute
        self.identifierAttribute = identifierAttribute
    }

    /// One new `entity` object per migrated object whose source `sourceAttribute` is not nil, holding that
    /// value in `attribute` (and a new UUID in `newIdentifier`), related through `relationship`.
    public static func onePerObject(
        _ entity: String, through relationship: String, from sourceAttribute: String, into attribute: String,
        newIdentifier: String? = nil
    ) -> MadeObjects {
        MadeObjects(
            rule: .onePerObject, entity: entity, relationship: relationship, sourceAttribute: sourceAttribute,
            attribute: attribute, identifierAttribute: newIdentifier)
    }

    /// One `entity` object per distinct non-nil value of source `sourceAttribute`, holding it in `key`, every
    /// migrated object with that value related to it through `relationship`.
    public static func onePerValue(
        _ entity: String, through relationship: String, from sourceAttribute: String, key: String
    ) -> MadeObjects {
        MadeObjects(
            rule: .onePerValue, entity: entity, relationship: relationship, sourceAttribute: sourceAttribute,
            attribute: key)
    }
}
