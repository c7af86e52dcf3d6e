import Foundation
import ObjectModel
import SQLiteDatabase
import TestFixtures
import Testing

@testable import PersistentStore

/// Stores written here against the stores Core Data wrote: every fixture store that is a fresh layout (no
/// in-place migration behind it) must come out with the same tables, columns, indexes and entity numbers.
@Suite("Core Data's store layout")
struct FixtureLayoutTests {
    /// A fixture store, the model bundle its version is in, and that version.
    struct FreshStore: CustomTestStringConvertible, Sendable {
        let store: URL
        let bundle: URL
        let version: String
        var testDescription: String { store.lastPathComponent }
    }

    static let freshStores: [FreshStore] =
        Fixtures.stores.map {
            FreshStore(
                store: Fixtures.root.appendingPathComponent("stores").appendingPathComponent($0.file),
                bundle: Fixtures.modelBundle, version: $0.version)
        } + [
            FreshStore(
                store: Fixtures.coreDataPlus.appendingPathComponent("SampleModel/Fixtures/SampleModel_V1.sqlite"),
                bundle: Fixtures.coreDataPlus.appendingPathComponent("SampleModel/SampleModel.xcdatamodeld"),
                version: "SampleModel"),
            FreshStore(
                store: Fixtures.coreDataPlus.appendingPathComponent("SampleModel3/Fixtures/SampleModel3_V1.sqlite"),
                bundle: Fixtures.coreDataPlus.appendingPathComponent("SampleModel3/SampleModel3.xcdatamodeld"),
                version: "SampleModel3"),
        ]

    /// The schema as `sqlite_master` has it (type, name, table and statement text), and `Z_PRIMARYKEY`'s
    /// entity numbers, names and parents.
    static func schema(at path: String) throws -> (statements: Set<[String]>, entities: [[String]]) {
        let connection = try Connection(path: path, mode: .readOnly)
        let statements = try connection.rows(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")
        let entities = try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        return (
            Set(statements.map { $0.map { $0.string ?? "" } }),
            entities.map { $0.map { $0.string ?? String($0.int64 ?? -1) } }
        )
    }

    @Test(arguments: freshStores)
    func generatedStoreHasCoreDataSchema(fixture: FreshStore) throws {
        let version = try ModelLoader.load(path: fixture.bundle.path).requireVersion(fixture.version)
        try Fixtures.withStoreCopy(at: fixture.store) { url in
            let ours = url.deletingLastPathComponent().appendingPathComponent("ours.sqlite").path
            try Store.create(at: ours, version: version).finishBulkLoad()
            let real = try Self.schema(at: url.path)
            let written = try Self.schema(at: ours)
            #expect(written.statements.subtracting(real.statements).sorted { $0[1] < $1[1] } == [], "only ours")
            #expect(real.statements.subtracting(written.statements).sorted { $0[1] < $1[1] } == [], "only Core Data's")
            #expect(written.entities == real.entities)
        }
    }

    /// Each fixture store, opened at its version, reads with a layout whose tables and columns all exist.
    @Test(arguments: freshStores)
    func fixtureStoreReads(fixture: FreshStore) throws {
        let version = try ModelLoader.load(path: fixture.bundle.path).requireVersion(fixture.version)
        try Fixtures.withStoreCopy(at: fixture.store) { url in
            let store = try Store.open(at: url.path, version: version, readOnly: true)
            for table in store.layout.entityTables {
                let columns = try store.connection.columns(of: table.name).map(\.name)
                #expect(Set(table.columns.map(\.name)).isSubset(of: columns), "\(table.name)")
            }
            let counts = try store.objectCounts()
            #expect(counts.values.reduce(0, +) > 0)
        }
    }

    /// In every store Core Data wrote, each entity table's `Z_PK` is its rowid (`Z_PK INTEGER PRIMARY KEY`), which
    /// the verifier requires of both stores; a key that may repeat or be NULL is not one.
    @Test func everyRealEntityTableKeysByRowid() throws {
        let files = try #require(FileManager.default.enumerator(at: Fixtures.root, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "sqlite" }
        #expect(files.count >= 7)
        for file in files {
            try Fixtures.withStoreCopy(at: file) { url in
                let connection = try Connection(path: url.path, mode: .readOnly)
                let tables = try connection.rows(
                    "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c ON c.name = 'Z_PK' "
                        + "WHERE m.type = 'table'")
                #expect(!tables.isEmpty, "\(file.lastPathComponent)")
                for table in tables.compactMap({ $0.first?.string }) {
                    #expect(
                        try EntityTable.keyIsRowid(ofTable: table, in: connection), "\(file.lastPathComponent) \(table)"
                    )
                }
            }
        }
        let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
        try connection.execute(
            """
            CREATE TABLE ZROWID (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER);
            CREATE TABLE ZCOPY AS SELECT * FROM ZROWID;
            CREATE TABLE ZINT (Z_PK INT PRIMARY KEY, Z_ENT INTEGER);
            CREATE TABLE ZPAIR (Z_PK INTEGER, Z_ENT INTEGER, PRIMARY KEY (Z_PK, Z_ENT));
            CREATE TABLE ZNOROWID (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER) WITHOUT ROWID;
            """)
        #expect(try EntityTable.keyIsRowid(ofTable: "ZROWID", in: connection))
        for table in ["ZCOPY", "ZINT", "ZPAIR", "ZNOROWID", "ZNONE"] {
            #expect(try !EntityTable.keyIsRowid(ofTable: table, in: connection), "\(table)")
        }
    }
}
