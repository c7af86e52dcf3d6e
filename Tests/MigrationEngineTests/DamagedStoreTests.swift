import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// A store whose content breaks its own model is refused before anything is written: the store's files stay
/// byte for byte as they were and no working file is left. Every real store Core Data wrote passes.
@Suite("Damaged stores")
struct DamagedStoreTests {
    /// Each fixture store, the model bundle it was written with.
    static let realStores: [(store: URL, bundle: URL)] = {
        let plus = Fixtures.coreDataPlus
        let wibosco = Fixtures.stores.map {
            (Fixtures.root.appendingPathComponent("stores/\($0.file)"), Fixtures.modelBundle)
        }
        return wibosco
            + [
                ("SampleModel/Fixtures/SampleModel_V1.sqlite", "SampleModel/SampleModel.xcdatamodeld"),
                ("SampleModel/Fixtures/SampleModel_V2.sqlite", "SampleModel/SampleModel.xcdatamodeld"),
                ("SampleModel3/Fixtures/SampleModel3_V1.sqlite", "SampleModel3/SampleModel3.xcdatamodeld"),
            ].map { (plus.appendingPathComponent($0.0), plus.appendingPathComponent($0.1)) }
    }()

    @Test(arguments: realStores.map(\.store.lastPathComponent))
    func realStoresPass(name: String) throws {
        let (store, bundle) = Self.realStores.first { $0.store.lastPathComponent == name }!
        let history = try ModelLoader.load(path: bundle.path)
        try Fixtures.withStoreCopy(at: store) { url in
            let version = try #require(history.version(matching: try Store.metadata(at: url.path).versionHashes))
            try StoreContentCheck.check(storeAt: url.path, version: version)
        }
    }

    /// SQL that breaks the version-1 store, and what the refusal must say.
    static let damages: [(sql: String, says: String)] = [
        ("UPDATE ZPOST SET Z_ENT = 99 WHERE Z_PK = 1", "Z_ENT is no entity"),
        ("UPDATE ZPOST SET Z_PK = -5 WHERE Z_PK = 1", "Z_PK -5 is below 1"),
        ("UPDATE ZPOST SET Z_PK = 9000000 WHERE Z_PK = 1", "above Z_PRIMARYKEY's Z_MAX"),
        ("ALTER TABLE ZPOST DROP COLUMN ZCOLOR", "has no such column ZPOST.ZCOLOR"),
        ("DROP TABLE ZPOST", "has no table ZPOST"),
        ("DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Post'", "no Z_PRIMARYKEY row for entity Post"),
        (
            "CREATE TABLE COPY AS SELECT * FROM ZPOST; DROP TABLE ZPOST; ALTER TABLE COPY RENAME TO ZPOST; "
                + "INSERT INTO ZPOST SELECT * FROM ZPOST WHERE Z_PK = 1",
            "ZPOST whose Z_PK is not its INTEGER PRIMARY KEY"
        ),
    ]

    @Test(arguments: damages.indices)
    func brokenContentIsRefused(index: Int) throws {
        let (sql, says) = Self.damages[index]
        try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { url in
            try Connection(path: url.path, mode: .readWrite).execute(sql)
            try Self.expectRefusal(of: url, saying: says)
        }
    }

    /// A `-wal` copied from another database is refused before it is folded into the store: beside a store in
    /// rollback-journal mode (wibosco's version 1) and beside one in WAL mode (CoreDataPlus's V1).
    @Test(arguments: [
        "stores/CoreDataMigration_Example_1.sqlite", "coredataplus/SampleModel/Fixtures/SampleModel_V1.sqlite",
    ])
    func foreignLogIsRefused(store: String) throws {
        try Fixtures.withStoreCopy(at: Fixtures.root.appendingPathComponent(store)) { url in
            let log = Fixtures.root.appendingPathComponent("stores/CoreDataMigration_Example_WAL.sqlite-wal")
            try FileManager.default.copyItem(atPath: log.path, toPath: url.path + "-wal")
            try Self.expectRefusal(of: url, saying: "-wal")
        }
    }

    /// A `-wal` with a damaged header, or one whose salts are not those its `-shm` index holds, is not the
    /// store's own (the store is at the current version: its check runs all the same).
    @Test(arguments: [("-shm", 32, "salts"), ("-wal", 4, "damaged header"), ("-wal", 0, "not a write-ahead log")])
    func tamperedLogIsRefused(file: String, byte: Int, says: String) throws {
        try Fixtures.withStoreCopy("CoreDataMigration_Example_WAL.sqlite") { url in
            // Reading the store makes SQLite write its -shm index from the log.
            _ = try Connection(path: url.path, mode: .readOnly).scalar("SELECT COUNT(*) FROM sqlite_master")
            let tampered = URL(fileURLWithPath: url.path + file)
            var bytes = try Data(contentsOf: tampered)
            bytes[byte] ^= 0xFF
            try bytes.write(to: tampered)
            #expect(WriteAheadLog.foreignLogProblem(storeAt: url.path)?.contains(says) == true)
            try Self.expectRefusal(of: url, saying: says)
        }
    }

    /// The store's own log passes, and its rows are migrated.
    @Test func ownLogPasses() throws {
        try Fixtures.withStoreCopy("CoreDataMigration_Example_WAL.sqlite") { url in
            #expect(WriteAheadLog.foreignLogProblem(storeAt: url.path) == nil)
            #expect(WriteAheadLog.holdsFrames(storeAt: url.path))
        }
    }

    /// Migrates the store at `url` from version 1 and expects a refusal naming the file and `says`, with every
    /// file of its folder unchanged and no other file made.
    static func expectRefusal(of url: URL, saying says: String) throws {
        let folder = url.deletingLastPathComponent()
        let before = try contents(of: folder)
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let mappings = try ["CoreDataMigration_Example-1-2.yaml", "CoreDataMigration_Example-2-3.yaml"].map {
            try MappingModelLoader.load(path: RealStoreChainTests.mappings.appendingPathComponent($0).path)
        }
        let migrator = try StoreMigrator(history: history, mappingModels: mappings)
        let error = #expect(throws: MigrationError.self) { try migrator.migrateStore(at: url.path) }
        #expect(error?.code == .damagedStore, "\(error.map { "\($0.code): \($0)" } ?? "")")
        #expect(error?.message.contains(url.lastPathComponent) == true)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
        #expect(try contents(of: folder) == before)
    }

    /// Every file of `folder` and its bytes.
    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }
}
