import Foundation
import ObjectModel
import SQLiteDatabase
import TestFixtures
import Testing

@testable import PersistentStore

/// The one content check, in its two forms: a summary per table (the engine refuses at the first problem) and
/// every row (the verifier reports them all), on a real Core Data store.
@Suite("Store content check")
struct StoreContentCheckTests {
    static func problems(
        after damage: String, _ detail: StoreContentCheck.Detail
    ) throws -> [StoreContentCheck.Problem] {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        var problems: [StoreContentCheck.Problem] = []
        try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { url in
            let connection = try Connection(path: url.path, mode: .readWrite)
            let version = try #require(history.version(matching: try Store.metadata(at: url.path).versionHashes))
            try connection.execute(damage)
            let layout = try StoreLayout(version: version, readingFrom: connection)
            try StoreContentCheck(layout: layout, connection: connection).run(detail) { problems.append($0) }
        }
        return problems
    }

    @Test func aSoundStoreHasNoProblem() throws {
        #expect(try Self.problems(after: "SELECT 1", .summary) == [])
        #expect(try Self.problems(after: "SELECT 1", .everyRow) == [])
    }

    @Test func theSummaryCountsAndTheRowsAreListed() throws {
        let damage = "UPDATE ZPOST SET Z_ENT = 99 WHERE Z_PK IN (3, 4); UPDATE ZPOST SET Z_PK = -5 WHERE Z_PK = 1"
        #expect(
            try Self.problems(after: damage, .summary) == [
                .rowsOfNoEntity(table: "ZPOST", root: "Post", count: 2, firstKey: 3),
                .keyBelowOne(table: "ZPOST", root: "Post", key: -5),
            ])
        let rows = try Self.problems(after: damage, .everyRow)
        let maximum = try #require(
            rows.first.flatMap {
                if case .rowOutsideModel(_, _, _, _, _, let maximum) = $0 { maximum } else { nil }
            })
        #expect(
            rows == [
                .rowOutsideModel(
                    table: "ZPOST", root: "Post", key: -5, storedEntity: "1", isEntityOfTable: true, maximum: maximum),
                .rowOutsideModel(
                    table: "ZPOST", root: "Post", key: 3, storedEntity: "99", isEntityOfTable: false, maximum: maximum),
                .rowOutsideModel(
                    table: "ZPOST", root: "Post", key: 4, storedEntity: "99", isEntityOfTable: false, maximum: maximum),
            ])
    }

    @Test func aTableWithMissingPartsIsNotRead() throws {
        #expect(
            try Self.problems(after: "ALTER TABLE ZPOST DROP COLUMN ZCOLOR; UPDATE ZPOST SET Z_ENT = 99", .summary)
                == [.missingColumn(table: "ZPOST", column: "ZCOLOR", owner: "Post", isJoinTable: false)])
        #expect(
            try Self.problems(after: "DELETE FROM Z_PRIMARYKEY", .everyRow) == [.noPrimaryKeyRow(root: "Post")])
    }
}
