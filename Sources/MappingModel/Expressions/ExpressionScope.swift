package import ObjectModel

/// What an expression may refer to: the two model versions, its entity mapping and property, and the slots
/// of source attributes.
package struct ExpressionScope {
    /// What the value of the expression is for.
    package enum Purpose {
        /// The value of a destination attribute of this type.
        case attribute(AttributeType)
        /// The value of a destination relationship.
        case relationship(Relationship)
        /// A source filter: a boolean over `$source`.
        case filter
        /// Anything (for tools and tests).
        case value
    }

    package var source: ModelVersion
    package var destination: ModelVersion
    package var entityMapping: EntityMapping
    /// The entity mappings of the mapping model, for `destinationInstancesForEntityMappingNamed:`.
    package var entityMappings: [EntityMapping]
    /// The destination property, or `filter`.
    package var property: String?
    package var purpose: Purpose
    package var environment: any ExpressionEnvironment
    /// The selectors `FUNCTION($entityPolicy, …)` may call; nil accepts any (checked when it runs).
    package var policySelectors: Set<String>?

    /// A scope; the environment defaults to ``StoredAttributeSlots`` of `source`.
    package init(
        source: ModelVersion,
        destination: ModelVersion,
        entityMapping: EntityMapping,
        entityMappings: [EntityMapping],
        property: String?,
        purpose: Purpose,
        environment: (any ExpressionEnvironment)? = nil,
        policySelectors: Set<String>? = nil
    ) {
        self.source = source
        self.destination = destination
        self.entityMapping = entityMapping
        self.entityMappings = entityMappings
        self.property = property
        self.purpose = purpose
        self.environment = environment ?? StoredAttributeSlots(model: source)
        self.policySelectors = policySelectors
    }

    /// The model version of the objects on `side`.
    func model(_ side: StoreSide) -> ModelVersion { side == .source ? source : destination }
}
