import Foundation
import IntegrityVerification
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

/// The stores Core Data wrote, read, verified and migrated as they are (copies only).
@Suite("Real Core Data stores")
struct RealStoreTests {
    static let sampleModel = Fixtures.coreDataPlus.appendingPathComponent("SampleModel")
    static let bundle = sampleModel.appendingPathComponent("SampleModel.xcdatamodeld")

    /// Every fixture store with its model bundle.
    static let stores = Fixtures.allStores

    /// A store Core Data wrote, checked against itself, passes: nothing the format note allows is called broken.
    @Test(arguments: stores.map(\.store.lastPathComponent))
    func realStoreVerifiesAgainstItself(file: String) throws {
        let (store, bundle) = try #require(Self.stores.first { $0.store.lastPathComponent == file })
        let history = try ModelLoader.load(path: bundle.path)
        try Fixtures.withStoreCopy(at: store) { url in
            let version = try #require(try StoreInspection.inspect(path: url.path).matchingVersion(in: history))
            let copy = url.deletingLastPathComponent().appendingPathComponent("copy.sqlite").path
            try Store.open(at: url.path, version: version).connection.checkpoint(.truncate)
            try FileManager.default.copyItem(atPath: url.path, toPath: copy)
            let result = try IntegrityVerifier(source: version, destination: version, mappingModels: [])
                .verify(sourceStoreAt: url.path, destinationStoreAt: copy)
            #expect(result.passed, "\(result.violations)")
        }
    }

    /// CoreDataPlus's V1 store migrated to V2 with the inferred mapping, in place and by the engine, verifies
    /// clean; in place it holds exactly the rows and schema of the V2 store Core Data itself migrated.
    @Test func coreDataPlusMigratesToVersionTwo() throws {
        let history = try ModelLoader.load(path: Self.bundle.path)
        let v1 = try history.requireVersion("SampleModel")
        let v2 = try history.requireVersion("SampleModel2")
        try Fixtures.withStoreCopy(at: Self.sampleModel.appendingPathComponent("Fixtures/SampleModel_V2.sqlite")) {
            coreData in
            try Fixtures.withStoreCopy(at: Self.sampleModel.appendingPathComponent("Fixtures/SampleModel_V1.sqlite")) {
                url in
                let folder = url.deletingLastPathComponent()
                let inPlace = folder.appendingPathComponent("in-place.sqlite").path
                try Store.open(at: url.path, version: v1).connection.checkpoint(.truncate)
                try FileManager.default.copyItem(atPath: url.path, toPath: inPlace)
                _ = try InPlaceMigration(plan: try MappingInference.plan(from: v1, to: v2)).run(storeAt: inPlace)
                let engine = folder.appendingPathComponent("engine.sqlite").path
                _ = try MigrationManager(source: v1, destination: v2).migrate(
                    storeAt: url.path, to: engine, mappingModels: [try MappingInference.infer(from: v1, to: v2)])
                for destination in [inPlace, engine] {
                    let result = try IntegrityVerifier(source: v1, destination: v2, mappingModels: [])
                        .verify(sourceStoreAt: url.path, destinationStoreAt: destination)
                    #expect(result.passed, "\(result.violations)")
                    #expect(try Self.schema(destination) == Self.schema(coreData.path))
                }
                for table in ["ZCAR", "ZPERSON"] {
                    let sql = "SELECT * FROM \(table) ORDER BY Z_PK"
                    let ours = try Connection(path: inPlace, mode: .readOnly).rows(sql)
                    #expect(ours == (try Connection(path: coreData.path, mode: .readOnly).rows(sql)) && !ours.isEmpty)
                }
            }
        }
    }

    /// Each table's columns with their declared types, and the index statements.
    static func schema(_ path: String) throws -> [String] {
        let connection = try Connection(path: path, mode: .readOnly)
        var lines: [String] = []
        for table in try connection.tableNames() {
            lines.append(
                table + ": "
                    + (try connection.columns(of: table).map { "\($0.name) \($0.declaredType)" }).joined(
                        separator: ", "))
        }
        let indexes = try connection.rows("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        return lines + indexes.compactMap { $0.first?.string }.sorted()
    }
}
