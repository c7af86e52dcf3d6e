import Foundation
import ObjectModel
import SQLiteDatabase
import TestFixtures
import Testing

@testable import PersistentStore

@Suite("Batched inserts")
struct BatchRowInserterTests {
    /// Full batches, a partial one flushed, and an empty flush write exactly the rows filled, with their values.
    @Test(arguments: [0, 1, 63, 64, 65, 150])
    func everyFilledRowIsWrittenOnce(rows: Int) throws {
        let version = try ModelVersion(
            name: "V", entities: [Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)])])
        try SampleModels.withTemporaryFolder { folder in
            let store = try Store.create(at: folder.appendingPathComponent("s.sqlite").path, version: version)
            let inserter = try RowInserter(store: store, entity: "Tag")
            let batch = try BatchRowInserter(store: store, inserter: inserter, rowsPerStatement: 64)
            let name = try #require(inserter.parameter(for: "name"))
            for key in 1...max(rows, 1) where rows > 0 {
                try batch.begin(primaryKey: Int64(key))
                try batch.statement.bind("tag \(key)", at: batch.parameter(name))
                try batch.commitRow()
            }
            try batch.flush()
            try batch.flush()
            let written = try store.connection.rows("SELECT Z_PK, Z_ENT, ZNAME FROM ZTAG ORDER BY Z_PK")
            #expect(written.count == rows)
            #expect(
                written.enumerated().allSatisfy {
                    $1 == [.integer(Int64($0 + 1)), .integer(1), .text("tag \($0 + 1)")]
                })
        }
    }
}
