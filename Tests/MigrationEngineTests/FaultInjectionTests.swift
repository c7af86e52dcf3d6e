import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// An I/O fault at every write, sync, truncate, copy, remove and rename of a migration — through a VFS that wraps
/// SQLite's and the seam of ``StoreFiles`` — and a full disk from every such point on: each leaves the original
/// store complete at its version, no working files, and an error naming the file.
@Suite("Injected I/O faults", .serialized)
struct FaultInjectionTests {
    /// The migrations under test, to version 4 of wibosco's model: from version 1 (two heavyweight steps, then a
    /// lightweight one) and from version 3 (one lightweight step, on a working copy) — every kind of operation.
    /// Small generated stores keep the points few (each is a whole migration).
    static let stores = [0, 2]

    /// A store of 12 objects at version `index` of the model, in a fresh folder, for `body`.
    static func withStore<R>(at index: Int, _ body: (URL) throws -> R) throws -> R {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("Posts.sqlite")
            let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
            // The scenario dataset fits version 1; the default one fits the others.
            let dataset =
                index > 0
                ? Dataset()
                : try Dataset.load(
                    path: RealStoreChainTests.mappings.deletingLastPathComponent()
                        .appendingPathComponent("datasets/CoreDataMigration_Example.yaml").path)
            _ = try StoreGenerator(version: history.versions[index], dataset: dataset, size: 12).generate(at: url.path)
            return try body(url)
        }
    }

    static func migrate(_ store: String) throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let mappings = try ["CoreDataMigration_Example-1-2.yaml", "CoreDataMigration_Example-2-3.yaml"].map {
            try MappingModelLoader.load(path: RealStoreChainTests.mappings.appendingPathComponent($0).path)
        }
        try StoreMigrator(history: history, mappingModels: mappings).migrateStore(at: store)
    }

    /// The store's version and every row of every table, to compare before and after.
    static func state(_ store: String) throws -> (version: String?, rows: [String: [[SQLiteValue]]]) {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let version = history.version(matching: try Store.metadata(at: store).versionHashes)?.name
        let connection = try Connection(path: store, mode: .readOnly)
        var rows: [String: [[SQLiteValue]]] = [:]
        for table in try connection.tableNames() where table != "Z_MODELCACHE" {
            rows[table] = try connection.rows("SELECT * FROM \(quoted(table)) ORDER BY 1")
        }
        return (version, rows)
    }

    /// The number of operations an unfailed migration of `file` makes.
    static func operations(_ file: Int) throws -> Int {
        try withStore(at: file) { url in
            FaultInjection.arm(folder: url.deletingLastPathComponent().path, failAt: 0, failure: .ioError)
            defer { FaultInjection.disarm() }
            try migrate(url.path)
            return FaultInjection.disarm().operations
        }
    }

    @Test(arguments: stores, [FaultInjection.Failure.ioError, .fullDisk])
    func aFaultAtEveryPointLeavesTheOriginal(file: Int, failure: FaultInjection.Failure) throws {
        let total = try Self.operations(file)
        try #require(total > 10, "the migration made only \(total) file operations")
        var failedOperations: Set<String> = []
        for point in 1...total {
            try Self.withStore(at: file) { url in
                let folder = url.deletingLastPathComponent()
                let before = try Self.state(url.path)
                FaultInjection.arm(folder: folder.path, failAt: point, failure: failure)
                let error = #expect(throws: (any Error).self, "point \(point)") { try Self.migrate(url.path) }
                let failed = FaultInjection.disarm().failed.first ?? ""
                failedOperations.insert(String(failed.prefix { $0 != " " }))
                let message = error.map { "\($0)" } ?? ""
                #expect(message.contains(url.lastPathComponent), "point \(point) (\(failed)): \(message)")
                let after = try Self.state(url.path)
                if message.contains("the store was migrated and replaced") {
                    // Only the folder's sync after the atomic rename: the store is the new one, complete.
                    #expect(after.version == "CoreDataMigration_Example 4" && failed.hasPrefix("fsync"))
                } else {
                    #expect(after.version == before.version, "point \(point) (\(failed))")
                    #expect(after.rows == before.rows, "point \(point) (\(failed))")
                }
                let working = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                    .filter { $0.contains(".migrating-") }
                #expect(working.isEmpty, "point \(point) (\(failed)): left \(working)")
            }
        }
        let expected: Set<String> =
            file == 2
            ? ["write", "sync", "copy", "rename"]
            : ["write", "sync", "truncate", "fsync", "rename"]
        #expect(failedOperations.isSuperset(of: expected), "\(failedOperations)")
        print(
            "fault injection: from version \(file + 1), \(failure): \(total) points, operations \(failedOperations.sorted())"
        )
    }

    /// A connection opened while faults were armed opens its files through the fault VFS, and SQLite finds that
    /// VFS again by name to attach a database. Disarming once unregistered it, and an attach made afterwards
    /// (the engine's bulk copy, the verifier) failed with "no such vfs" when another suite's connection had
    /// been opened at the wrong moment.
    @Test func aConnectionOpenedWhileArmedAttachesAfterwards() throws {
        try withTemporaryFolder { folder in
            let attached = folder.appendingPathComponent("attached.sqlite").path
            try Connection(path: attached).execute("CREATE TABLE t (x); INSERT INTO t VALUES (7)")
            FaultInjection.arm(folder: folder.path + "/watched", failAt: 0, failure: .ioError)
            let connection = try Connection(path: folder.appendingPathComponent("main.sqlite").path)
            FaultInjection.disarm()
            try connection.attach(readOnly: attached, as: "other")
            #expect(try connection.scalar("SELECT x FROM other.t") == .integer(7))
        }
    }
}
