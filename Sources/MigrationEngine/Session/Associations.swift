import MappingModel
import PersistentStore

/// Every association of the running pass: one ``AssociationTable`` per entity mapping, found by the mapping's
/// name or by the source entity it reads, and which source entities have all their associations made.
///
/// A mapping's name is unique only within its mapping model: a later pass may use a name an earlier one used.
/// A name then means the running pass's mapping, else the latest earlier pass's (kept unless forgotten).
final class Associations {
    private let source: Store
    private let destination: Store
    /// The running pass's tables by entity mapping name.
    private var byMapping: [String: AssociationTable] = [:]
    /// Earlier passes' tables by entity mapping name, the latest pass's where names repeat.
    private var earlierByMapping: [String: AssociationTable] = [:]
    /// The tables by source entity number, for relationship lookups, in the order they were made.
    private var bySourceEntity: [Int32: [AssociationTable]] = [:]
    /// Source entities whose every entity mapping has finished stage 1: their associations are complete.
    private var completeSourceEntities: Set<Int32> = []

    init(source: Store, destination: Store) {
        self.source = source
        self.destination = destination
    }

    /// The table of `mapping`, made empty the first time it is asked for.
    func table(for mapping: EntityMapping) -> AssociationTable {
        if let table = byMapping[mapping.name] { return table }
        let sourceNumber = mapping.sourceEntity.flatMap { source.layout.entityNumbers[$0] } ?? 0
        let destinationNumber = mapping.destinationEntity.flatMap { destination.layout.entityNumbers[$0] } ?? 0
        let table = AssociationTable(
            mapping: mapping.name, sourceEntity: Int32(sourceNumber), destinationEntity: Int32(destinationNumber))
        byMapping[mapping.name] = table
        bySourceEntity[Int32(sourceNumber), default: []].append(table)
        return table
    }

    /// The table of the entity mapping named `mapping`, if it has made any association: the running pass's
    /// mapping of that name, else an earlier pass's.
    func table(named mapping: String) -> AssociationTable? { byMapping[mapping] ?? earlierByMapping[mapping] }

    /// Starts a pass that keeps the associations of earlier ones: its mappings get tables of their own, even
    /// where their names repeat earlier ones'.
    func beginPass() {
        earlierByMapping.merge(byMapping) { _, later in later }
        byMapping = [:]
    }

    /// The tables of the mappings that read source entity number `entity`.
    func tables(ofSourceEntity entity: Int32) -> [AssociationTable]? { bySourceEntity[entity] }

    /// Records that no later mapping reads source entity number `entity`: its associations are complete.
    func markComplete(sourceEntity entity: Int32) { completeSourceEntities.insert(entity) }

    /// Whether the associations of source entity number `entity` are complete (see ``markComplete(sourceEntity:)``).
    func isComplete(sourceEntity entity: Int32) -> Bool { completeSourceEntities.contains(entity) }

    /// Forgets the associations of earlier passes, as Core Data does between mapping models.
    func forget() {
        byMapping = [:]
        earlierByMapping = [:]
        bySourceEntity = [:]
        completeSourceEntities = []
    }

    /// Bytes held by the tables, for the report.
    var footprint: Int { bySourceEntity.values.joined().reduce(0) { $0 + $1.footprint } }
}
