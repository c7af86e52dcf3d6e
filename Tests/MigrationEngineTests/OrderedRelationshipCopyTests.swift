import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// An ordered to-many carried across in SQL (``OrderedRelationshipCopy``) makes the store the per-object path
/// makes: the same foreign keys and order keys, the same edges.
@Suite("Ordered relationships copied in SQL")
struct OrderedRelationshipCopyTests {
    /// Library with `Author.books` ordered; V2 adds `Book.code`.
    static func versions() throws -> (ModelVersion, ModelVersion) {
        var author = Library.author
        author.relationships = [
            Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true, isOrdered: true)
        ]
        var book = Library.book
        let v1 = try ModelVersion(name: "V1", entities: [author, book])
        book.attributes.append(Attribute(name: "code", type: .string, isOptional: true))
        return (v1, try ModelVersion(name: "V2", entities: [author, book]))
    }

    @Test(arguments: [nil, "$source.pages > 150"])
    func orderedCopyInSQLMakesTheRowsOfThePerObjectPath(filter: String?) throws {
        let (v1, v2) = try Self.versions()
        var model = try MappingInference.infer(from: v1, to: v2)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].sourceFilter = filter
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let dataset = Dataset(seed: 5, objects: ["Author": 0.2, "Book": 1])
            _ = try StoreGenerator(version: v1, dataset: dataset, size: 300).generate(at: source)
            // Order keys out of key order, repeated, and missing: the per-object path reads each list by order
            // key, then Z_PK.
            let connection = try Connection(path: source)
            try connection.execute(
                "UPDATE ZBOOK SET Z_FOK_AUTHOR = CASE WHEN Z_PK % 7 = 0 THEN NULL ELSE (Z_PK * 5) % 11 END")
            let reordered = try connection.rows("SELECT COUNT(*) FROM ZBOOK WHERE Z_FOK_AUTHOR IS NULL")
            #expect(reordered.first?.first?.int64 ?? 0 > 0)
            let (dumps, reports) = try Library.migrateEveryWay(source, from: v1, to: v2, model: model, in: folder)
            #expect(dumps["sql"] == dumps["rows"])
            #expect(dumps["sql"] == dumps["memory"])
            let books = try #require(dumps["sql"]?["ZBOOK"])
            #expect(books.count > 0 && books.count < (filter == nil ? 301 : 300))
            #expect(reports["sql"]?.edgesWritten == reports["rows"]?.edgesWritten)
            #expect(reports["sql"]?.relationshipsCopiedInSQL == ["AuthorToAuthor.books"])
            #expect(reports["rows"]?.relationshipsCopiedInSQL == [])
        }
    }
}
