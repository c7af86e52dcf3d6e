import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// One verification: the destination store open read-only with the source store attached as `src`, the
/// layouts of both versions, the correspondence of tables, and the violations found so far.
final class VerificationRun {
    let source: ModelVersion
    let destination: ModelVersion
    let sourceLayout: StoreLayout
    let layout: StoreLayout
    let connection: Connection
    let destinationPath: String
    let collector = ViolationCollector()
    /// Every entity mapping of every pass, in order.
    let mappings: [CompiledEntityMapping]
    /// Destination tables whose objects keep their source objects' primary keys, with the source table
    /// that feeds each: fed only from that table, by mappings without a policy.
    let preservedTables: [String: String]

    init(verifier: IntegrityVerifier, sourcePath: String, destinationPath: String) throws(VerificationError) {
        source = verifier.source
        destination = verifier.destination
        self.destinationPath = destinationPath
        mappings = verifier.mappingModels.flatMap(\.entityMappings)
        for path in [sourcePath, destinationPath] where !FileManager.default.fileExists(atPath: path) {
            throw VerificationError("no such file", path: path)
        }
        do {
            sourceLayout = try StoreLayout(version: source)
            layout = try StoreLayout(version: destination)
        } catch {
            throw VerificationError("the model cannot be laid out: \(error)", path: destinationPath)
        }
        let sourceMetadata: StoreMetadata
        do {
            sourceMetadata = try Store.metadata(at: sourcePath)
        } catch {
            throw VerificationError("the source store's metadata cannot be read: \(error)", path: sourcePath)
        }
        guard sourceMetadata.isCompatible(with: source) else {
            let entities = sourceMetadata.mismatchedEntities(against: source).joined(separator: ", ")
            throw VerificationError(
                "the source store is not at version '\(source.name)' (entities that differ: \(entities))",
                path: sourcePath)
        }
        do {
            connection = try Connection(path: destinationPath, mode: .readOnly)
            try connection.withStatement("ATTACH DATABASE ? AS src") { statement in
                try statement.bind(sourcePath, at: 1)
                try statement.run()
            }
        } catch {
            throw VerificationError("the stores cannot be opened: \(error)", path: destinationPath)
        }
        preservedTables = Self.preservedTables(mappings, source: sourceLayout, destination: layout)
    }

    private static func preservedTables(
        _ mappings: [CompiledEntityMapping],
        source: StoreLayout,
        destination: StoreLayout
    ) -> [String: String] {
        var feeders: [String: Set<String>] = [:]
        var unsafe: Set<String> = []
        for compiled in mappings {
            let mapping = compiled.mapping
            guard let entity = mapping.destinationEntity else { continue }
            let table = destination.table(for: entity).name
            if let sourceEntity = mapping.sourceEntity, mapping.policy == nil {
                feeders[table, default: []].insert(source.table(for: sourceEntity).name)
            } else {
                unsafe.insert(table)
            }
        }
        var result: [String: String] = [:]
        for (table, sources) in feeders where sources.count == 1 && !unsafe.contains(table) {
            result[table] = sources.first
        }
        return result
    }

    /// The mappings that make objects of the destination entity `entity`.
    func mappings(into entity: String) -> [CompiledEntityMapping] {
        mappings.filter { $0.mapping.destinationEntity == entity }
    }

    /// Whether objects of destination entity `entity` keep the primary keys of the objects they come from.
    func preservesKeys(_ entity: String) -> Bool {
        preservedTables[layout.table(for: entity).name] != nil
    }

    /// Runs one check; an SQL error (a missing table, a damaged page) makes it a skipped check, not a crash.
    func guarded(_ kind: ViolationKind, entity: String?, property: String? = nil, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            collector.skip(kind, entity: entity, property: property, "the check failed to run: \(error)")
        }
    }

    /// Steps through the rows of `sql`, calling `row` for each.
    func forEachRow(_ sql: String, _ row: (Statement) throws -> Void) throws {
        try connection.withStatement(sql) { statement in
            while try statement.step() { try row(statement) }
        }
    }

    /// `lo AND hi` of the entity numbers of `entity` and its subentities in `layout`.
    static func range(_ entity: String, in layout: StoreLayout) -> String {
        let range = layout.entityNumberRange(of: entity)
        return "\(range.lowerBound) AND \(range.upperBound)"
    }
}
