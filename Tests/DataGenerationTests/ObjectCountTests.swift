import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@Suite("Object counts")
struct ObjectCountTests {
    /// Book.chapters needs at least one chapter per book, so chapters keep up with the doubled books.
    static let dataset = Dataset(objects: ["Book": 2, "Film": 0.5, "Chapter": 3])

    @Test func objectsAreMultiplesOfTheSize() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Self.dataset, size: 1000, in: folder)
            let expected = ["Book": 2000, "Film": 500, "Chapter": 3000, "Barcode": 1000, "Shelf": 1000, "Tag": 1000]
            #expect(store.result.objects == expected)
            #expect(store.result.totalObjects == 8500)
            for (entity, count) in expected {
                #expect(try store.count(of: entity) == count, "\(entity)")
            }
            // The abstract Item has no row of its own: only its subentities' rows are in its table.
            let item = try #require(store.layout.entityNumbers["Item"])
            let table = store.layout.table(for: "Item").name
            #expect(
                try store.connection.scalar("SELECT COUNT(*) FROM \(quoted(table)) WHERE Z_ENT = \(item)")
                    == .integer(0))
            #expect(try Store.open(at: store.path, version: version).objectCounts()["Item"] == 0)
        }
    }

    @Test func reportedEdgesAgreeWithTheStore() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Self.dataset, size: 1000, in: folder)
            var counted: [String: Int] = [:]
            for table in store.layout.entityTables {
                for column in table.columns where column.kind == .foreignKey {
                    let nonNull = try store.values(of: column.property, of: column.entity).filter { !$0.isNull }
                    counted["\(column.entity).\(column.property)"] = nonNull.count
                }
            }
            for join in store.layout.joinTables {
                counted["\(join.ownerEntity).\(join.ownerRelationship)"] =
                    try store.joinEdges(join.ownerRelationship, of: join.ownerEntity).count
            }
            #expect(store.result.relationships == counted)
            #expect(counted["Item.shelf"] == 2500)
            #expect(counted["Chapter.book"] == 3000)
        }
    }

    @Test(arguments: [0, 1, 7])
    func smallSizesWork(size: Int) throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, size: size, in: folder)
            for entity in ["Book", "Film", "Chapter", "Barcode", "Shelf", "Tag"] {
                #expect(try store.count(of: entity) == size, "\(entity)")
            }
        }
    }

    @Test func progressRisesToTheTotal() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let generator = try StoreGenerator(version: version, dataset: Self.dataset, size: 500)
            var calls: [(done: Int, total: Int)] = []
            _ = try generator.generate(at: folder.appendingPathComponent("s.sqlite").path) { calls.append(($0, $1)) }
            let last = try #require(calls.last)
            #expect(last.done == generator.totalObjects && last.total == generator.totalObjects)
            #expect(calls.allSatisfy { $0.total == generator.totalObjects && $0.done <= $0.total })
            #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.done <= $1.done })
        }
    }

    @Test func anExistingFileIsLeftAlone() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("taken.sqlite")
            let content = Data("not yours".utf8)
            try content.write(to: url)
            let generator = try StoreGenerator(version: version, size: 10)
            #expect {
                try generator.generate(at: url.path)
            } throws: { error in
                let error = try #require(error as? StoreError)
                return error.code == .alreadyExists && error.description.contains(url.path)
            }
            #expect(try Data(contentsOf: url) == content)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken.sqlite"])
        }
    }
}
