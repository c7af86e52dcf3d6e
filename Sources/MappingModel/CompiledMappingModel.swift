public import ObjectModel

/// A mapping model checked against its two model versions, with every expression compiled: what the engine
/// runs and the verifier re-derives expectations from.
public struct CompiledMappingModel: Sendable {
    /// The mapping model as written.
    public let model: MappingModel
    /// The version migrated from.
    public let source: ModelVersion
    /// The version migrated to.
    public let destination: ModelVersion
    /// The entity mappings, in the order in which they run.
    public let entityMappings: [CompiledEntityMapping]

    /// The entity mapping named `name`.
    public func entityMapping(named name: String) -> CompiledEntityMapping? {
        entityMappings.first { $0.mapping.name == name }
    }
}

/// An entity mapping with its source filter and property mappings compiled.
public struct CompiledEntityMapping: Sendable {
    /// The entity mapping as written.
    public let mapping: EntityMapping
    /// The source filter, if any: ``CompiledExpression/isSatisfied(in:)`` says whether to migrate an object.
    public let sourceFilter: CompiledExpression?
    /// The destination attributes' mappings, in order. A copy mapping lists every stored destination attribute,
    /// those it did not name with `$source.<name>`.
    public let attributes: [CompiledPropertyMapping]
    /// The destination relationships' mappings, in order. A copy mapping lists every destination relationship,
    /// those it did not name through `destinationInstancesForSourceRelationshipNamed:sourceInstances:`.
    public let relationships: [CompiledPropertyMapping]

    /// The mapping's name.
    public var name: String { mapping.name }

    /// The mapping of the destination attribute `name`.
    public func attribute(named name: String) -> CompiledPropertyMapping? {
        attributes.first { $0.name == name }
    }

    /// The mapping of the destination relationship `name`.
    public func relationship(named name: String) -> CompiledPropertyMapping? {
        relationships.first { $0.name == name }
    }
}

/// A property mapping with its value expression compiled.
public struct CompiledPropertyMapping: Sendable {
    /// The property mapping as written (or as implied by a copy mapping).
    public let mapping: PropertyMapping
    /// The compiled value expression; nil leaves the property to the policy or the attribute's default.
    /// Its values already have the destination property's type (`Integer 16` values fit 16 bits, a to-many
    /// relationship gets `.objects`).
    public let expression: CompiledExpression?

    /// The destination property.
    public var name: String { mapping.name }
}
