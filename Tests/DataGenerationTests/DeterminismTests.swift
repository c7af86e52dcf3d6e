import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import TestFixtures
import Testing

@Suite("Determinism")
struct DeterminismTests {
    @Test(arguments: TestModels.all)
    func theSameSeedGivesTheSameContent(versionName: String) throws {
        let version = try TestModels.version(versionName)
        try SampleModels.withTemporaryFolder { folder in
            let first = try GeneratedStore(version, Dataset(seed: 11), size: 300, in: folder, name: "a.sqlite")
            let second = try GeneratedStore(version, Dataset(seed: 11), size: 300, in: folder, name: "b.sqlite")
            let (a, b) = (try GeneratedStore.dump(first.path), try GeneratedStore.dump(second.path))
            #expect(a.tables.keys.sorted() == b.tables.keys.sorted())
            #expect(a.tables["Z_METADATA"]?.isEmpty == false)
            for table in a.tables.keys.sorted() {
                #expect(a.tables[table] == b.tables[table], "table \(table) differs")
            }
            #expect(try Store.metadata(at: first.path) == (try Store.metadata(at: second.path)))
            #expect(a.plist == b.plist, "Z_METADATA.Z_PLIST differs")
            #expect(first.result.objects == second.result.objects)
            #expect(first.result.relationships == second.result.relationships)
        }
    }

    @Test(arguments: TestModels.all)
    func anotherSeedGivesOtherContent(versionName: String) throws {
        let version = try TestModels.version(versionName)
        try SampleModels.withTemporaryFolder { folder in
            let first = try GeneratedStore(version, Dataset(seed: 11), size: 300, in: folder, name: "a.sqlite")
            let second = try GeneratedStore(version, Dataset(seed: 12), size: 300, in: folder, name: "b.sqlite")
            let (a, b) = (try GeneratedStore.dump(first.path), try GeneratedStore.dump(second.path))
            #expect(a.tables["Z_METADATA"] != b.tables["Z_METADATA"])
            // Every table with values of its own differs; the counts stay the same.
            for table in first.layout.entityTables where !table.columns.isEmpty {
                #expect(a.tables[table.name] != b.tables[table.name], "table \(table.name) is the same for two seeds")
                #expect(a.tables[table.name]?.count == b.tables[table.name]?.count)
            }
        }
    }

    @Test func theSeedIsReported() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Dataset(seed: 987_654_321), size: 10, in: folder)
            #expect(store.result.seed == 987_654_321)
            #expect(store.result.version == "Catalogue")
        }
    }
}
