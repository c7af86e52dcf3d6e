import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// One verification: the destination store open read-only with the source store attached as `src`, the
/// layouts of both versions, how each destination entity's objects correspond to source objects, and the
/// violations found so far.
final class VerificationRun {
    let source: ModelVersion
    let destination: ModelVersion
    let sourceLayout: StoreLayout
    let layout: StoreLayout
    let connection: Connection
    let sourcePath: String
    let destinationPath: String
    /// Where the checks record what they find; each check that ``SharedChecks`` hands the run gets a new one.
    var collector = ViolationCollector()
    /// Every entity mapping of every pass, in order.
    let mappings: [CompiledEntityMapping]
    /// Destination tables whose objects keep their source objects' primary keys, with the source table
    /// that feeds each: fed only from that table, by mappings without a policy, one mapping per source entity.
    let preservedTables: [String: String]
    /// How the objects of each concrete destination entity are found from their source objects.
    let correspondences: [String: ObjectCorrespondence]
    /// What the object comparisons found, shared with the companion run.
    let ledger: ObjectLedger
    /// How many SQL functions ``expressionDiffers(_:sourceColumns:types:entityNumber:)`` has registered on
    /// ``connection``; each gets a name of its own.
    var predicateCount = 0

    init(verifier: IntegrityVerifier, sourcePath: String, destinationPath: String) throws(VerificationError) {
        source = verifier.source
        destination = verifier.destination
        self.sourcePath = sourcePath
        self.destinationPath = destinationPath
        mappings = verifier.mappingModels.flatMap(\.entityMappings)
        for path in [sourcePath, destinationPath] where !FileManager.default.fileExists(atPath: path) {
            throw VerificationError("no such file", path: path)
        }
        let predictedSource: StoreLayout
        let predicted: StoreLayout
        do {
            predictedSource = try StoreLayout(version: source)
            predicted = try StoreLayout(version: destination)
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
        Self.readAhead([sourcePath, destinationPath])
        connection = try Self.openStores(sourcePath: sourcePath, destinationPath: destinationPath)
        // The model does not decide which side names a reflexive join table (format note X1): each store is
        // read under the name it has.
        do {
            sourceLayout = predictedSource.resolving(existingTables: try Self.tableNames(in: "src", connection))
            layout = predicted.resolving(existingTables: try Self.tableNames(in: "main", connection))
        } catch {
            throw VerificationError("the stores' tables cannot be listed: \(error)", path: destinationPath)
        }
        preservedTables = Self.preservedTables(mappings, source: sourceLayout, destination: layout)
        correspondences = Self.correspondences(
            mappings, preservedTables: preservedTables, destination: destination, layout: layout)
        ledger = ObjectLedger()
    }

    /// A run over the same stores and expectations with a connection and a collector of its own, so that
    /// checks that do not depend on each other can run on another thread at the same time.
    init(companionOf run: VerificationRun) throws(VerificationError) {
        source = run.source
        destination = run.destination
        sourceLayout = run.sourceLayout
        layout = run.layout
        sourcePath = run.sourcePath
        destinationPath = run.destinationPath
        mappings = run.mappings
        preservedTables = run.preservedTables
        correspondences = run.correspondences
        ledger = run.ledger
        connection = try Self.openStores(sourcePath: sourcePath, destinationPath: destinationPath)
    }

    /// The destination store opened read-only with the source store attached as `src`, both read through a
    /// memory map (up to SQLite's limit, 2 GiB by default): pages are read in place rather than copied into
    /// the connection's page cache, which the checks, reading every page, would otherwise do for each.
    private static func openStores(sourcePath: String, destinationPath: String) throws(VerificationError) -> Connection
    {
        do {
            let connection = try Connection(path: destinationPath, mode: .readOnly)
            try connection.attach(readOnly: sourcePath, as: "src")
            for schema in ["main", "src"] { try connection.execute("PRAGMA \(schema).mmap_size = \(Int64.max)") }
            return connection
        } catch {
            throw VerificationError("the stores cannot be opened: \(error)", path: destinationPath)
        }
    }

    /// Asks the kernel to read the store files into its page cache, in file order, without copying them
    /// anywhere (`POSIX_FADV_WILLNEED`). The checks read every page of both (the integrity check alone reads
    /// all of the destination), largely in b-tree order, which on a cold page cache costs one disk read per
    /// page; read in file order, the pages come in at the disk's full speed and are then found in the cache.
    /// On a warm cache this costs nothing. Skipped when the stores are larger than a quarter of the machine's
    /// memory, where they would not stay cached, and on systems without `posix_fadvise` (Apple's).
    private static func readAhead(_ paths: [String]) {
        let sizes = paths.map { path in
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
        }
        guard sizes.reduce(0, +) <= ProcessInfo.processInfo.physicalMemory / 4 else { return }
        for path in paths {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            #if os(Linux)
                _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_WILLNEED)
            #endif
        }
    }

    /// The tables whose objects keep their source keys (``PersistentStore/StoreLayout/tablesKeepingSourceKeys(fedBy:source:)``).
    /// Core Data's layout leaves keys to the store; this package's contract is that such tables keep them,
    /// which makes them checkable object by object.
    private static func preservedTables(
        _ mappings: [CompiledEntityMapping],
        source: StoreLayout,
        destination: StoreLayout
    ) -> [String: String] {
        let feeds = mappings.compactMap { compiled in
            compiled.mapping.destinationEntity.map {
                StoreLayout.KeyFeed(
                    destinationEntity: $0,
                    sourceEntity: compiled.mapping.policy == nil ? compiled.mapping.sourceEntity : nil)
            }
        }
        return destination.tablesKeepingSourceKeys(fedBy: feeds, source: source)
    }

    private static func correspondences(
        _ mappings: [CompiledEntityMapping],
        preservedTables: [String: String],
        destination: ModelVersion,
        layout: StoreLayout
    ) -> [String: ObjectCorrespondence] {
        var result: [String: ObjectCorrespondence] = [:]
        for entity in destination.entities where !entity.isAbstract {
            let into = mappings.filter { $0.mapping.destinationEntity == entity.name }
            let made = mappings.flatMap { compiled in
                compiled.mapping.madeObjects.filter { $0.entity == entity.name }.map { _ in compiled }
            }
            if let custom = into.first(where: {
                $0.mapping.policy != nil && BuiltInPolicy($0.mapping) == nil && $0.mapping.declaration == nil
            }) {
                result[entity.name] = .unknown(
                    "custom policy '\(custom.mapping.policy ?? "")' of \(custom.name) decides which objects it makes")
                continue
            }
            let creating = into.filter(\.createsObjects)
            if !made.isEmpty {
                result[entity.name] =
                    creating.isEmpty && made.count == 1
                    ? .madeByPolicy(made[0])
                    : .unknown("objects of this entity are made by a policy and by other mappings")
            } else if creating.isEmpty {
                result[entity.name] = .noObjects
            } else if preservedTables[layout.table(for: entity.name).name] != nil {
                result[entity.name] = .sameKeys(creating)
            } else if creating.count == 1 {
                result[entity.name] = .inOrder(creating[0])
            } else {
                result[entity.name] = .counted(creating)
            }
        }
        return result
    }

    /// The mappings that make objects of the destination entity `entity`.
    func mappings(into entity: String) -> [CompiledEntityMapping] {
        switch correspondences[entity] {
        case .sameKeys(let feeders), .counted(let feeders): feeders
        case .inOrder(let mapping): [mapping]
        default: []
        }
    }

    /// Runs one check; an SQL error (a missing table, a damaged page) makes it a failed check, not a crash.
    func guarded(_ kind: ViolationKind, entity: String?, property: String? = nil, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            collector.failed(kind, entity: entity, property: property, error)
        }
    }

    /// Steps through the rows of `sql`, calling `row` for each.
    func forEachRow(_ sql: String, _ arguments: [SQLiteValue] = [], _ row: (Statement) throws -> Void) throws {
        try forEachRowOf(sql, arguments) { statement in
            while try statement.step() { try row(statement) }
        }
    }

    /// Prepares `sql`, binds `arguments` and hands the statement to `body`, which steps it.
    func forEachRowOf(_ sql: String, _ arguments: [SQLiteValue], _ body: (Statement) throws -> Void) throws {
        try connection.withStatement(sql) { statement in
            for (index, argument) in arguments.enumerated() { try statement.bind(argument, at: Int32(index + 1)) }
            try body(statement)
        }
    }

    /// Whether the object comparisons met every row of the destination table `table` (see
    /// ``ObjectLedger/metEveryRow(of:count:)``); its rows are counted on this run's connection.
    func metEveryRow(of table: String) throws -> Bool {
        try ledger.metEveryRow(of: table) { try count("SELECT COUNT(*) FROM main.\(quoted(table))") }
    }

    /// The integer that `sql` yields, 0 when it yields nothing or NULL.
    func count(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64 {
        try connection.scalar(sql, arguments)?.int64 ?? 0
    }

    /// `lo AND hi` of the entity numbers of `entity` and its subentities in `layout`.
    /// The names of the tables in the attached database `schema`.
    static func tableNames(in schema: String, _ connection: Connection) throws(SQLiteError) -> Set<String> {
        Set(
            try connection.rows("SELECT name FROM \(schema).sqlite_master WHERE type = 'table'").compactMap(
                \.first?.string))
    }

    static func range(_ entity: String, in layout: StoreLayout) -> String {
        let range = layout.entityNumberRange(of: entity)
        return "\(range.lowerBound) AND \(range.upperBound)"
    }

    /// Whether every row of `entity`'s table belongs to `entity` or its subentities, so that no condition on
    /// `Z_ENT` is needed to keep to them.
    static func tableHoldsOnly(_ entity: String, in layout: StoreLayout) -> Bool {
        Set(layout.table(for: entity).entities).isSubset(of: layout.version.hierarchy(of: entity))
    }
}

/// How the objects of one destination entity are found from the source objects they come from.
enum ObjectCorrespondence {
    /// The entity's table keeps source primary keys: each object has the key of its source object.
    case sameKeys([CompiledEntityMapping])
    /// One mapping makes every object, one per migrated source object, in the order of the source keys: the
    /// n-th migrated source object is the n-th destination object.
    case inOrder(CompiledEntityMapping)
    /// The objects are made by the policy of another entity's mapping (split out, or found or created): a
    /// built-in one, or a Swift policy that declares them.
    case madeByPolicy(CompiledEntityMapping)
    /// No mapping makes objects of the entity, so it has none.
    case noObjects
    /// Several mappings feed the entity in a table that does not keep keys: objects are only counted.
    case counted([CompiledEntityMapping])
    /// The objects cannot be re-derived, for the reason given.
    case unknown(String)
}

extension CompiledEntityMapping {
    /// Whether the mapping makes one destination object per migrated source object.
    var createsObjects: Bool {
        guard mapping.sourceEntity != nil, mapping.destinationEntity != nil, mapping.kind != .remove else {
            return false
        }
        guard mapping.policy != nil else { return true }
        if let declaration = mapping.declaration { return declaration.makesMappedObjects }
        return BuiltInPolicy(mapping).map { $0 != .dropAllRows } ?? false
    }
}
