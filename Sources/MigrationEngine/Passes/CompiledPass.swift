import MappingModel
import ObjectModel

/// One relationship mapping, and whether evaluating it writes edges (see ``CompiledPass``).
struct RelationshipPlan {
    let name: String
    let expression: CompiledExpression
    let writesEdges: Bool
}

/// One entity mapping ready to run: its compiled expressions and its policy object. A class, because the
/// engine consults it for every object and must not copy it each time.
final class CompiledEntityMappingPlan {
    let mapping: EntityMapping
    let filter: CompiledExpression?
    let attributes: [(name: String, expression: CompiledExpression)]
    let relationships: [RelationshipPlan]
    let policy: any EntityMigrationPolicy
    /// Whether the policy is the default one, so that nothing but the engine touches the objects made.
    let hasDefaultPolicy: Bool
    /// Whether the policy creates relationships as Core Data's default does (``DefaultRelationshipCreation``), so
    /// that stage 1 may write the foreign keys that would come out the same in stage 2.
    let createsRelationshipsByDefault: Bool
    /// The relationships the policy sets itself in stage 1, which stay in stage 2 (see
    /// ``DefaultRelationshipCreation``).
    let relationshipsSetByPolicy: Set<String>

    init(
        mapping: EntityMapping,
        filter: CompiledExpression?,
        attributes: [(name: String, expression: CompiledExpression)],
        relationships: [RelationshipPlan],
        policy: any EntityMigrationPolicy
    ) {
        self.mapping = mapping
        self.filter = filter
        self.attributes = attributes
        self.relationships = relationships
        self.policy = policy
        self.hasDefaultPolicy = policy is DefaultMigrationPolicy
        let byDefault = policy as? any DefaultRelationshipCreation
        self.createsRelationshipsByDefault = byDefault != nil
        self.relationshipsSetByPolicy = byDefault?.relationshipsSetInStageOne(by: mapping) ?? []
    }
}

/// One mapping model — one pass — ready to run.
///
/// A relationship and its inverse are usually both mapped; only one side writes the edges, the side that
/// stores them (the foreign key, or the join table's owner). The other side is evaluated only when the
/// storing side has no mapping of its own.
struct CompiledPass {
    let model: MappingModel
    let mappings: [CompiledEntityMappingPlan]
}
