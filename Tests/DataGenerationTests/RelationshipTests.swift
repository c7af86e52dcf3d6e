import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@Suite("Relationships")
struct RelationshipTests {
    /// Barcodes per book, and the fills of both sides of the optional one-to-one Book.barcode ↔ Barcode.book.
    @Test(arguments: [(1.0, 1.0, 1.0), (0.5, 1.0, 1.0), (1.5, 1.0, 1.0), (1.0, 0.8, 1.0), (0.5, 0.8, 0.6)])
    func oneToOneSidesAgree(barcodes: Double, bookFill: Double, barcodeFill: Double) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(
            objects: ["Barcode": barcodes],
            relationships: ["Book.barcode": RelationshipFill(fill: bookFill), "Barcode.book": .init(fill: barcodeFill)])
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 400, in: folder)
            let books = try store.rows(of: "Book", ["barcode"]).compactMapValues { $0[0].int64 }
            let codes = try store.rows(of: "Barcode", ["book"]).compactMapValues { $0[0].int64 }
            // A.fk = b ⇔ B.fk = a, and no barcode is paired twice.
            for (book, barcode) in books {
                #expect(codes[barcode] == book, "book \(book) → barcode \(barcode)")
            }
            for (barcode, book) in codes {
                #expect(books[book] == barcode, "barcode \(barcode) → book \(book)")
            }
            #expect(Set(books.values).count == books.count)
            let pairs = Int((Double(min(400, Int(400 * barcodes))) * min(bookFill, barcodeFill)).rounded(.down))
            #expect(books.count == pairs)
        }
    }

    @Test(arguments: [1.0, 2.5, 6.0])
    func orderedOneToManyKeepsItsCountsAndOrder(chaptersPerBook: Double) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(objects: ["Chapter": chaptersPerBook], nullRatio: 0.5)
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 300, in: folder)
            let chapters = try store.rows(of: "Chapter", ["book", "book#order"])
            #expect(chapters.count == Int(300 * chaptersPerBook))
            var keysByBook: [Int64: [Int64]] = [:]
            for (chapter, row) in chapters {
                let book = try #require(row[0].int64, "chapter \(chapter) has no book, which is required")
                keysByBook[book, default: []].append(try #require(row[1].int64, "chapter \(chapter): no order key"))
            }
            let books = try store.rows(of: "Book", [])
            #expect(Set(keysByBook.keys) == Set(books.keys), "every chapter's book exists, every book has a chapter")
            for (book, keys) in keysByBook {
                #expect((1...6).contains(keys.count), "book \(book) has \(keys.count) chapters")
                #expect(keys.sorted() == Array(1...Int64(keys.count)), "book \(book): order keys \(keys.sorted())")
            }
        }
    }

    @Test(arguments: [0.0, 0.5, 1.0])
    func requiredToOneIsNeverNil(nullRatio: Double) throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Dataset(nullRatio: nullRatio), size: 300, in: folder)
            let shelves = Set(try store.rows(of: "Shelf", []).keys)
            let targets = try store.values(of: "shelf", of: "Item")
            #expect(targets.count == 600)
            #expect(targets.allSatisfy { $0.int64.map(shelves.contains) == true })
        }
    }

    /// Fills of Shelf.neighbour, a to-one without inverse, and the store size.
    @Test(arguments: [(0.5, 301), (0.5, 300), (0.0, 300), (1.0, 300), (0.25, 7)])
    func toOneWithoutInverseHonoursItsFill(fill: Double, size: Int) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(relationships: ["Shelf.neighbour": RelationshipFill(fill: fill)])
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: size, in: folder)
            let shelves = Set(try store.rows(of: "Shelf", []).keys)
            let neighbours = try store.values(of: "neighbour", of: "Shelf").compactMap(\.int64)
            #expect(neighbours.count == Int((Double(size) * fill).rounded(.down)))
            #expect(neighbours.allSatisfy(shelves.contains))
            #expect(store.result.relationships["Shelf.neighbour"] == neighbours.count)
        }
    }

    /// Items per shelf (books and films half each): every total from 2 to 4 per shelf fits the range [2, 4].
    @Test(arguments: [2.0, 2.5, 3.0, 3.5, 4.0])
    func toManyCountsStayInTheirRange(itemsPerShelf: Double) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(
            objects: ["Book": itemsPerShelf / 2, "Film": itemsPerShelf / 2, "Chapter": itemsPerShelf / 2],
            relationships: ["Shelf.items": RelationshipFill(count: IntRange(2, 4))])
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 400, in: folder)
            let items = try store.values(of: "shelf", of: "Item").compactMap(\.int64)
            let perShelf = [Int64: Int]().tallying(items)
            let shelves = try store.rows(of: "Shelf", []).keys
            let counts = shelves.map { perShelf[$0] ?? 0 }
            let outside = counts.filter { !(2...4).contains($0) }
            #expect(outside.isEmpty, "\(outside.count) shelves outside [2, 4]: \(outside.sorted())")
            let average = Double(counts.reduce(0, +)) / Double(counts.count)
            #expect(abs(average - itemsPerShelf) < 0.01)
        }
    }

    /// Ranges given on either side of the many-to-many Item.tags ↔ Tag.items apply to that side's objects.
    @Test(arguments: [
        ("Item", "tags", IntRange(2, 5)), ("Item", "tags", IntRange(0, 1)), ("Tag", "items", IntRange(3, 4)),
    ])
    func manyToManyCountsStayInTheirRange(entity: String, relationship: String, range: IntRange) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(relationships: ["\(entity).\(relationship)": RelationshipFill(count: range)])
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 300, in: folder)
            let edges = try store.joinEdges(relationship, of: entity)
            let pairs = Set(edges.map { "\($0.source)→\($0.destination)" })
            #expect(pairs.count == edges.count, "no pair twice")
            let perObject = [Int64: Int]().tallying(edges.map(\.source))
            let objects = try store.rows(of: entity, []).keys
            let outside = objects.map { perObject[$0] ?? 0 }.filter { !(range.min...range.max).contains($0) }
            #expect(outside.isEmpty, "\(outside.count) of \(objects.count) \(entity) objects outside \(range)")
            #expect(store.result.relationships.values.contains(edges.count))
        }
    }

    @Test func manyToManyDestinationsExist() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, size: 300, in: folder)
            let tags = Set(try store.rows(of: "Tag", []).keys)
            let items = Set(try store.rows(of: "Item", []).keys)
            let edges = try store.joinEdges("tags", of: "Item")
            #expect(!edges.isEmpty)
            #expect(edges.allSatisfy { items.contains($0.source) && tags.contains($0.destination) })
            // Default: one to three tags per item.
            let perItem = [Int64: Int]().tallying(edges.map(\.source))
            #expect(items.allSatisfy { (1...3).contains(perItem[$0] ?? 0) })
        }
    }
}
