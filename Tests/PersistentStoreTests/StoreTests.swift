import Foundation
import ObjectModel
import SQLiteDatabase
import TestFixtures
import Testing

@testable import PersistentStore

@Suite("Stores")
struct StoreTests {
    @Test(arguments: Fixtures.stores)
    func realStoresArePlacedAtTheirVersion(store: (file: String, version: String)) throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        try Fixtures.withStoreCopy(store.file) { url in
            let inspection = try StoreInspection.inspect(path: url.path)
            #expect(inspection.metadata.frameworkVersion == 847)
            #expect(inspection.matchingVersion(in: history)?.name == store.version)
            #expect(inspection.metadata.versionHashes == (try history.requireVersion(store.version)).versionHashes)
        }
    }

    @Test(arguments: [
        ("CoreDataMigration_Example_1.sqlite", ["Post": 1001]),
        ("CoreDataMigration_Example_2.sqlite", ["Post": 5979]),
        ("CoreDataMigration_Example_3.sqlite", ["Post": 7995, "Color": 7995]),
        ("CoreDataMigration_Example_WAL.sqlite", ["Post": 84, "Color": 84]),
    ])
    func rowCountsOfRealStores(file: String, expected: [String: Int]) throws {
        try Fixtures.withStoreCopy(file) { url in
            let inspection = try StoreInspection.inspect(path: url.path)
            #expect(Dictionary(uniqueKeysWithValues: inspection.entities.map { ($0.name, $0.rowCount) }) == expected)
        }
    }

    @Test func inspectingAWALStoreLeavesItsWALAlone() throws {
        try Fixtures.withStoreCopy("CoreDataMigration_Example_WAL.sqlite") { url in
            let wal = url.path + "-wal"
            let before = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int
            _ = try StoreInspection.inspect(path: url.path)
            let after = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int
            #expect(before == after && (after ?? 0) > 0)
        }
    }

    @Test func aStoreMatchingNoVersionSaysWhichEntitiesDiffer() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        try Fixtures.withStoreCopy("CoreDataMigration_Example_3.sqlite") { url in
            let inspection = try StoreInspection.inspect(path: url.path)
            let partial = try ModelHistory(versions: [history.versions[0], history.versions[3]])
            #expect(inspection.matchingVersion(in: partial) == nil)
            let mismatches = inspection.mismatches(in: partial)
            #expect(mismatches[0].entities == ["Color", "Post"])
            #expect(mismatches[1].entities == ["Post"])
        }
    }

    @Test func createdStoresRoundTripTheirMetadata() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("new.sqlite").path
            let store = try Store.create(at: path, version: version)
            try store.finishBulkLoad()
            let metadata = try Store.metadata(at: path)
            #expect(metadata.versionHashes == version.versionHashes)
            #expect(metadata.modelVersionName == "Catalogue")
            #expect(metadata.uuid == store.metadata.uuid)
            #expect(try Store.open(at: path, version: version).objectCounts().values.allSatisfy { $0 == 0 })
            #expect(try store.connection.pragma("journal_mode")?.string == "wal")
        }
    }

    /// A new store has incremental auto-vacuum, as every Core Data store has, and its metadata says "2".
    @Test func createdStoresHaveIncrementalAutoVacuumAndSaySo() throws {
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("new.sqlite").path
            let store = try Store.create(at: path, version: try SampleModels.catalogue())
            try store.finishBulkLoad()
            #expect(try store.connection.pragma("auto_vacuum") == .integer(2))
            #expect(try Self.autoVacuumKey(store.connection) == .string("2"))
            #expect(try Store.metadata(at: path).autoVacuumLevel == 2)
        }
    }

    /// A store at auto-vacuum 0 (as this project generated them before it set the pragma) whose bookkeeping is
    /// rewritten, as a lightweight step does, is not labelled "2": the key is left out, as what Core Data writes for
    /// level 0 is not known.
    @Test func rewrittenBookkeepingWritesTheFilesAutoVacuum() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("new.sqlite").path
            let store = try Store.create(at: path, version: version)
            try store.connection.setPragma("auto_vacuum", "0")
            try store.connection.execute("VACUUM")
            #expect(try store.connection.pragma("auto_vacuum") == .integer(0))
            try store.connection.transaction {
                try Store.rewriteBookkeeping(
                    connection: store.connection, layout: store.layout, uuid: store.metadata.uuid)
            }
            #expect(try Self.autoVacuumKey(store.connection) == nil)
            #expect(try Store.metadata(at: path).autoVacuumLevel == nil)
        }
    }

    /// The copy floor's script sets, before its transaction, the pragmas the engine sets for a new store, in
    /// the same order.
    @Test func theCopyFloorScriptSetsTheFreshStorePragmas() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/floors/library-v1-v2-copy.sql")
        let lines = try String(contentsOf: script, encoding: .utf8).split(separator: "\n")
        let opening = lines.prefix { !$0.hasPrefix("BEGIN") }.filter { $0.hasPrefix("PRAGMA") }
        #expect(opening == Store.freshStorePragmas.map { "PRAGMA main.\($0.name) = \($0.value);" })
    }

    /// `_NSAutoVacuumLevel` in the store's `Z_PLIST`, if present.
    private static func autoVacuumKey(_ connection: Connection) throws -> PropertyListValue? {
        guard case .blob(let bytes)? = try connection.scalar("SELECT Z_PLIST FROM Z_METADATA"),
            case .dictionary(let dictionary) = try BinaryPropertyList.parse(bytes)
        else {
            Issue.record("Z_PLIST is not a dictionary")
            return nil
        }
        return dictionary["_NSAutoVacuumLevel"]
    }

    @Test func openingWithAnotherVersionNamesTheDifferingEntities() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        _ = try Fixtures.withStoreCopy("CoreDataMigration_Example_3.sqlite") { url in
            #expect {
                try Store.open(at: url.path, version: history.versions[3])
            } throws: { error in
                let error = try #require(error as? StoreError)
                return error.code == .incompatibleModel && error.description.contains("Post")
                    && !error.description.contains("Color") && error.description.contains(url.path)
            }
        }
    }

    @Test(arguments: ["plain SQLite", "text file", "missing"])
    func nonStoresAreRefusedClearly(kind: String) throws {
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("thing.sqlite").path
            switch kind {
            case "plain SQLite": try Connection(path: path).execute("CREATE TABLE t (x)")
            case "text file": try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
            default: break
            }
            #expect {
                try StoreInspection.inspect(path: path)
            } throws: { error in
                let error = try #require(error as? StoreError)
                return error.code == .notAStore && error.description.hasPrefix(path)
            }
        }
    }

    @Test func createRefusesToOverwrite() throws {
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("x.sqlite").path
            try Data().write(to: URL(fileURLWithPath: path))
            #expect(throws: StoreError.self) { try Store.create(at: path, version: try SampleModels.catalogue()) }
        }
    }

    @Test(arguments: [
        AttributeValue.integer(-7), .boolean(true), .double(2.5), .date(123.25), .decimal("12.50"), .string("ünïcode"),
        .binary([0, 1, 2]), .uuid(UUID()), .uri("https://example.com"),
    ])
    func valuesRoundTripThroughSQLite(value: AttributeValue) {
        let type: AttributeType =
            switch value {
            case .integer: .integer64
            case .boolean: .boolean
            case .double: .double
            case .date: .date
            case .decimal: .decimal
            case .string: .string
            case .binary: .binary
            case .uuid: .uuid
            case .uri: .uri
            }
        #expect(AttributeValue(sqlite: value.sqliteValue, as: type) == value)
    }
}
