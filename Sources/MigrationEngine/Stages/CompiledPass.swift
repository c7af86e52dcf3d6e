import MappingModel
import ObjectModel

/// One relationship mapping, and whether evaluating it writes edges (see ``CompiledPass``).
struct RelationshipPlan {
    let name: String
    let expression: CompiledExpression
    let writesEdges: Bool
}

/// One entity mapping ready to run: its compiled expressions and its policy object.
struct CompiledEntityMappingPlan {
    let mapping: EntityMapping
    let filter: CompiledExpression?
    let attributes: [(name: String, expression: CompiledExpression)]
    let relationships: [RelationshipPlan]
    let policy: any EntityMigrationPolicy
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
