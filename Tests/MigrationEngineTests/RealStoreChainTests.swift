import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// The real store Core Data wrote at version 1, migrated step by step to version 4 with the mapping files of
/// `Scenarios/mappings/` and an inferred last step, keeping every post's data.
@Suite("Real store chain")
struct RealStoreChainTests {
    static let mappings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios/mappings")

    @Test(arguments: StorageMode.allCases)
    func versionOneReachesVersionFour(storage: StorageMode) throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let versions = history.versions
        try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { url in
            let folder = url.deletingLastPathComponent()
            let before = try Connection(path: url.path, mode: .readOnly)
                .rows("SELECT Z_PK, ZDATE, ZPOSTID, ZCOLOR FROM ZPOST ORDER BY Z_PK")
            let files = ["CoreDataMigration_Example-1-2.yaml", "CoreDataMigration_Example-2-3.yaml"]
            var current = url.path
            for (step, file) in files.enumerated() {
                let mapping = try MappingModelLoader.load(path: Self.mappings.appendingPathComponent(file).path)
                let next = folder.appendingPathComponent("v\(step + 2).sqlite").path
                _ = try MigrationManager(
                    source: versions[step], destination: versions[step + 1], options: MigrationOptions(storage: storage)
                ).migrate(storeAt: current, to: next, mappingModels: [mapping])
                current = next
            }
            _ = try InPlaceMigration(plan: try MappingInference.plan(from: versions[2], to: versions[3])).run(
                storeAt: current)
            #expect(try StoreInspection.inspect(path: current).matchingVersion(in: history)?.name == versions[3].name)
            let after = try Connection(path: current, mode: .readOnly).rows(
                "SELECT p.Z_PK, p.ZDATE, p.ZPOSTID, c.ZHEX FROM ZPOST p JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR ORDER BY p.Z_PK"
            )
            #expect(before.count == 1001 && after == before)
        }
    }
}
