import Foundation
import MappingModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// The in-memory buffer writes every held row at the save as it was last set, whatever the chunks and runs.
struct InMemoryRowBufferTests {
    /// Rows of two tables, interleaved singly and in longer runs, filled both ways, in chunks so small that
    /// rows cross chunks often; some changed after they were held, before and after later rows came.
    @Test func heldRowsAreWrittenAsLastSetAcrossChunksAndRuns() throws {
        try SampleModels.withTemporaryFolder { folder in
            let store = try Store.create(at: folder.appendingPathComponent("d.sqlite").path, version: try Library.v2())
            let authors = try DestinationWriter(
                store: store, entity: "Author", keys: TableKeys(preserving: true, next: 1))
            let books = try DestinationWriter(store: store, entity: "Book", keys: TableKeys(preserving: true, next: 1))
            let buffer = InMemoryRowBuffer(
                destination: store, witness: RequiredValueWitness(connection: store.connection), chunkSize: 96)
            var expectedAuthors: [Int64: [SQLiteValue]] = [:]
            var expectedBooks: [Int64: [SQLiteValue]] = [:]
            func object(_ key: Int64) -> ObjectID { ObjectID(side: .destination, entity: 1, primaryKey: key) }
            for key in 1...400 as ClosedRange<Int64> {
                var book = books.template
                book[books.slot(for: "name")!] = .text(String(repeating: "b", count: Int(key % 70)) + "\(key)")
                book[books.slot(for: "pages")!] = key % 3 == 0 ? .null : .integer(key * 1_000)
                expectedBooks[key] = book
                if key % 2 == 0 {
                    let sink = try buffer.startRow(object(key), writer: books)
                    for value in book { try sink.put(value) }
                    try buffer.finishRow()
                } else {
                    buffer.hold(object(key), values: book, writer: books)
                }
                // Authors come one at a time between books at first, then in runs of ten.
                if key <= 100 || key % 10 == 0 {
                    var author = authors.template
                    author[authors.slot(for: "name")!] = .text("author \(key)")
                    author[authors.slot(for: "born")!] = .real(Double(key) + 0.25)
                    expectedAuthors[key] = author
                    buffer.hold(object(key), values: author, writer: authors)
                }
                if key % 7 == 0 {
                    let changed = SQLiteValue.text("changed \(key)")
                    #expect(buffer.set(changed, slot: books.slot(for: "name")!, of: object(key / 2), writer: books))
                    expectedBooks[key / 2]![books.slot(for: "name")!] = changed
                }
            }
            #expect(!buffer.set(.null, slot: 0, of: object(1_000), writer: books))
            try store.connection.transaction { try buffer.save() }
            /// The rows of `writer`'s table with the columns of `properties`, as `expected` says they must be.
            func expectStored(
                _ expected: [Int64: [SQLiteValue]], writer: DestinationWriter, properties: [String]
            ) throws {
                let columns = properties.map { "Z" + $0.uppercased() }.joined(separator: ", ")
                let stored = try store.connection.rows(
                    "SELECT Z_PK, Z_ENT, Z_OPT, \(columns) FROM \(writer.table.name) ORDER BY Z_PK")
                #expect(
                    stored
                        == expected.keys.sorted().map { key in
                            [.integer(key), .integer(Int64(writer.entityNumber)), .integer(1)]
                                + properties.map { expected[key]![writer.slot(for: $0)!] }
                        })
            }
            try expectStored(expectedBooks, writer: books, properties: ["name", "pages"])
            try expectStored(expectedAuthors, writer: authors, properties: ["name", "born"])
        }
    }
}
