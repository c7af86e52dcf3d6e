import Foundation
public import MappingModel
public import ObjectModel
import PersistentStore

/// Migrates a store from one model version to the next with one or more mapping models, as Core Data's
/// `NSMigrationManager` does: one pass per mapping model, three stages per pass, policies called in
/// Core Data's order.
///
/// ```swift
/// let manager = MigrationManager(source: v1, destination: v2, options: MigrationOptions(storage: .streaming))
/// let report = try manager.migrate(storeAt: "v1.sqlite", to: "v2.sqlite", mappingModels: [mapping]) { progress in
///     print(progress.localizedDescription)
/// }
/// ```
///
/// The source store is only read. The destination store is created at `destinationPath` and removed again
/// if the migration fails or is cancelled.
public struct MigrationManager: Sendable {
    /// The source model version.
    public let source: ModelVersion
    /// The destination model version.
    public let destination: ModelVersion
    /// The policies mapping models may name.
    public let policies: PolicyRegistry
    /// How the migration runs.
    public let options: MigrationOptions
    /// Measures each entity mapping's stages when set (see ``MigrationProfiler``); nil, nothing is measured.
    public var profiler: MigrationProfiler?

    /// A manager for the step `source` → `destination`.
    public init(
        source: ModelVersion,
        destination: ModelVersion,
        policies: PolicyRegistry = .builtIn(),
        options: MigrationOptions = MigrationOptions()
    ) {
        self.source = source
        self.destination = destination
        self.policies = policies
        self.options = options
    }

    /// What a migration did.
    public struct Report: Sendable, Hashable {
        /// The number of passes run.
        public let passes: Int
        /// Destination objects created.
        public let objectsCreated: Int
        /// Relationship edges written (a one-to-one counts once per side).
        public let edgesWritten: Int
        /// Objects per concrete destination entity after the migration.
        public let objects: [String: Int]
        /// Bytes held by the association tables at the end.
        public let associationBytes: Int
        /// The entity mappings whose instances SQLite made from the attached source, one `INSERT … SELECT` per
        /// range of keys, rather than object by object (streaming storage, default policy, expressions that
        /// read only the source row).
        public let mappingsRunInSQL: [String]
    }

    /// Checks every mapping model against the two versions and compiles its expressions, before anything runs.
    public func compile(_ mappingModels: [MappingModel]) throws(MappingError) -> [CompiledMappingModel] {
        try mappingModels.map { model throws(MappingError) in
            try model.validated(
                source: source, destination: destination, policies: policies.names, policySelectors: policies.selectors)
        }
    }

    /// Migrates the store at `sourcePath` into a new store at `destinationPath`, one pass per mapping model.
    ///
    /// - Parameters:
    ///   - progress: called as the migration advances; its fraction never goes backwards.
    ///   - shouldCancel: asked every few thousand objects; returning true stops the migration, removes the
    ///     destination, and throws ``MigrationError/Code/cancelled``.
    public func migrate(
        storeAt sourcePath: String,
        to destinationPath: String,
        mappingModels: [MappingModel],
        progress: ((MigrationProgress) -> Void)? = nil,
        shouldCancel: @escaping () -> Bool = { false }
    ) throws -> Report {
        try migrate(
            storeAt: sourcePath, to: destinationPath, compiled: try compile(mappingModels), progress: progress,
            shouldCancel: shouldCancel)
    }

    /// The same migration with mapping models ``compile(_:)`` made already (the migrator compiles every step's
    /// before the first runs, and does not compile them twice).
    func migrate(
        storeAt sourcePath: String, to destinationPath: String, compiled: [CompiledMappingModel],
        progress: ((MigrationProgress) -> Void)?, shouldCancel: @escaping () -> Bool
    ) throws -> Report {
        // Profiled, closing the stores (a checkpoint of the new store's log) is a part of the last stage: it begins
        // as the stores' last use ends, and ends once they are closed.
        var closing: (start: MigrationProfiler.Start, pass: Int)?
        let report = try run(
            compiled, from: sourcePath, to: destinationPath, progress: progress, shouldCancel: shouldCancel,
            closing: &closing)
        if let profiler, let closing {
            profiler.end(
                closing.start,
                at: MigrationProfiler.Place(
                    pass: closing.pass, stage: MigrationProgress.Stage.validate.rawValue, work: "closing the stores"),
                work: MigrationProfiler.Work.none, hint: { nil })
        }
        return report
    }

    private func run(
        _ compiled: [CompiledMappingModel], from sourcePath: String, to destinationPath: String,
        progress: ((MigrationProgress) -> Void)?, shouldCancel: @escaping () -> Bool,
        closing: inout (start: MigrationProfiler.Start, pass: Int)?
    ) throws -> Report {
        let sourceStore = try Store.open(at: sourcePath, version: source, readOnly: true)
        let destinationStore = try Store.create(at: destinationPath, version: destination)
        do {
            let passes = try compiled.indices.map { try plan(compiled[$0], thisAndLater: compiled[$0...]) }
            let session = try MigrationSession(
                source: sourceStore, destination: destinationStore, passes: passes, options: options,
                profiler: profiler)
            let counter = ProgressCounter(
                total: workUnits(passes, counts: session.cursor.objectCounts), passes: passes.count, report: progress,
                shouldCancel: shouldCancel)
            for index in passes.indices {
                counter.startPass(index + 1)
                do {
                    try session.runPass(index, progress: counter)
                } catch let error as MigrationError {
                    throw error.during(counter.stage, entityMapping: counter.mapping)
                }
            }
            try session.profiled(
                pass: passes.count - 1, .validate, nil, work: "building indexes",
                hint: "indexes built once, after every row is in"
            ) {
                try session.detachSource()
                try destinationStore.finishBulkLoad()
            }
            counter.finish()
            let objects = try session.profiled(pass: passes.count - 1, .validate, nil, work: "counting objects") {
                try destinationStore.objectCounts().filter { destination.entity(named: $0.key)?.isAbstract == false }
            }
            let report = Report(
                passes: passes.count,
                objectsCreated: session.tally.objectsCreated,
                edgesWritten: session.tally.edgesWritten,
                objects: objects,
                associationBytes: session.associations.footprint,
                mappingsRunInSQL: session.tally.mappingsRunInSQL.sorted())
            closing = profiler.map { ($0.begin(MigrationProfiler.Work.none), passes.count) }
            return report
        } catch {
            Store.remove(at: destinationPath)
            throw error
        }
    }

    /// One compiled mapping model as a pass: its policy objects, and which relationship mappings write edges.
    ///
    /// Only this pass and later ones count when deciding whether the other side of a relationship will write
    /// its edges: a side mapped in an earlier pass ran before this pass's objects existed.
    private func plan(
        _ model: CompiledMappingModel, thisAndLater: ArraySlice<CompiledMappingModel>
    ) throws
        -> CompiledPass
    {
        var mapped: Set<String> = []
        for compiled in thisAndLater {
            for mapping in compiled.entityMappings {
                for relationship in mapping.relationships where relationship.expression != nil {
                    mapped.insert("\(mapping.mapping.destinationEntity ?? "").\(relationship.name)")
                }
            }
        }
        let layout = try StoreLayout(version: destination)
        let plans = try model.entityMappings.map { compiled in
            let entity = compiled.mapping.destinationEntity ?? ""
            let relationships = compiled.relationships.compactMap { relationship in
                relationship.expression.map {
                    RelationshipPlan(
                        name: relationship.name, expression: $0,
                        writesEdges: writesEdges(relationship.name, of: entity, mapped: mapped, layout: layout))
                }
            }
            let policy: any EntityMigrationPolicy
            if let name = compiled.mapping.policy {
                guard let made = policies.makePolicy(name) else {
                    throw MigrationError(
                        .mapping, "entity mapping '\(compiled.mapping.name)' names unknown policy '\(name)'",
                        entityMapping: compiled.mapping.name, underlying: nil)
                }
                policy = made
            } else {
                policy = DefaultMigrationPolicy()
            }
            return CompiledEntityMappingPlan(
                mapping: compiled.mapping, filter: compiled.sourceFilter,
                attributes: compiled.attributes.compactMap { attribute in
                    attribute.expression.map { (attribute.name, $0) }
                },
                relationships: relationships, policy: policy)
        }
        return CompiledPass(model: model.model, mappings: plans)
    }

    /// Whether evaluating `relationship` of `entity` writes its edges: always on the storing side, and on
    /// the other side only when the storing side has no mapping.
    private func writesEdges(
        _ relationship: String, of entity: String, mapped: Set<String>, layout: StoreLayout
    ) -> Bool {
        guard let declared = destination.relationship(relationship, of: entity) else { return false }
        guard let inverse = destination.inverse(of: declared) else { return true }
        let inverseMapped = destination.hierarchy(of: declared.destination).contains {
            mapped.contains("\($0).\(inverse.name)")
        }
        // An ordered to-many knows the order of its objects; its to-one inverse does not. So the ordered side
        // writes the edges (and their order keys) whenever it is mapped.
        if !declared.isToMany { return !(inverse.isToMany && inverse.isOrdered && inverseMapped) }
        if !inverse.isToMany { return declared.isOrdered || !inverseMapped }
        // Many-to-many: the join table's owner side writes; the other only if the owner is unmapped.
        guard let join = layout.joinTable(for: relationship, of: entity) else { return true }
        return join.isOwner(relationship, of: entity) || !inverseMapped
    }

    private func workUnits(_ passes: [CompiledPass], counts: [String: Int]) -> Int {
        passes.reduce(0) { total, pass in
            total + pass.mappings.reduce(0) { $0 + 2 * (counts[$1.mapping.sourceEntity ?? ""] ?? 0) }
        }
    }
}
