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

    /// A dataset with measured shapes (a skewed catalogue store's, read by `shape`) takes the shaped path: the
    /// same seed gives the same content there too, at the store's size and ten times it.
    @Test(arguments: [1, 10])
    func theSameSeedGivesTheSameShapedContent(scale: Int) throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("source.sqlite").path
            let skewed = Dataset(
                seed: 5, objects: ["Book": 0.3, "Film": 0.2, "Tag": 0.1, "Chapter": 1],
                relationships: ["Item.tags": RelationshipFill(count: IntRange(0, 12))])
            _ = try StoreGenerator(version: version, dataset: skewed, size: 300).generate(at: source)
            var dataset = try StoreShape.read(path: source, history: ModelHistory(versions: [version])).dataset()
            dataset.seed = 11
            #expect(dataset.relationships.values.contains { $0.shape != nil })
            #expect(dataset.attributes.values.contains { $0.shape != nil })
            let size = 300 * scale
            let first = try GeneratedStore(version, dataset, size: size, in: folder, name: "a.sqlite")
            let second = try GeneratedStore(version, dataset, size: size, in: folder, name: "b.sqlite")
            let (a, b) = (try GeneratedStore.dump(first.path), try GeneratedStore.dump(second.path))
            #expect(a.tables.keys.sorted() == b.tables.keys.sorted())
            for table in a.tables.keys.sorted() {
                #expect(a.tables[table] == b.tables[table], "table \(table) differs")
            }
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
