import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

/// The key join of objects that keep their keys, when one attribute (Book.isbn) is made by an expression the
/// verifier evaluates itself: in an SQL function, so that SQL alone finds the rows to look at closely; or, when
/// a source filter makes the verifier read every row, row by row with only the columns it compares itself, a
/// row SQL finds different being read again whole by key. Each damage below goes unseen if any of these is
/// skipped.
@Suite("Key join with an evaluated attribute")
struct RowByRowJoinTests {
    /// Shelf's inferred mapping, with Book.isbn made from the title and page count by an expression and, when
    /// `rowByRow`, a source filter that keeps every book.
    static func mapping(rowByRow: Bool) throws -> MappingModel {
        var mapping = try MappingInference.infer(from: try Shelf.v1(), to: try Shelf.v2())
        let index = mapping.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        mapping.entityMappings[index].attributeMappings.removeAll { $0.name == "isbn" }
        mapping.entityMappings[index].attributeMappings.append(
            PropertyMapping(name: "isbn", valueExpression: #"$source.title + "/" + string($source.pages)"#))
        if rowByRow { mapping.entityMappings[index].sourceFilter = "length($source.title) >= 0" }
        return mapping
    }

    /// Migrates with ``mapping(rowByRow:)``, checks the clean store passes, applies `damage`, and hands over
    /// the verdict.
    static func verdict(
        rowByRow: Bool,
        after damage: (_ source: String, _ destination: String) throws -> Void,
        _ body: (_ result: VerificationResult, _ source: String) throws -> Void
    ) throws {
        let mapping = try mapping(rowByRow: rowByRow)
        try Shelf.withMigratedStores(mappings: [mapping]) { source, destination in
            let clean = try Shelf.verify(source, destination, mappings: [mapping])
            #expect(clean.passed && clean.notChecked == [], "\(clean.summary)")
            try damage(source, destination)
            let result = try Shelf.verify(source, destination, mappings: [mapping])
            // Compared in ranges of 7 keys, as a large table's objects are: the same verdict.
            #expect(try Shelf.verify(source, destination, mappings: [mapping], rowsPerRange: 7) == result)
            try body(result, source)
        }
    }

    @Test(arguments: [false, true])
    func aWrongValueThatSQLComparesIsReported(rowByRow: Bool) throws {
        try Self.verdict(
            rowByRow: rowByRow, after: { try Shelf.corrupt($1, "UPDATE ZBOOK SET ZNAME = 'changed' WHERE Z_PK = 5") }
        ) {
            result, source in
            let title = try Connection(path: source, mode: .readOnly).scalar("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = 5")
            let group = try #require(result.group(.attributeValue, "Book", "name"), "\(result.summary)")
            #expect(group.count == 1 && result.violations.count == 1)
            #expect(group.examples.first?.primaryKey == 5)
            #expect(group.examples.first?.detail == "expected \"\(title?.string ?? "")\", found \"changed\"")
        }
    }

    @Test(arguments: [false, true])
    func aWrongValueTheVerifierEvaluatesIsReported(rowByRow: Bool) throws {
        try Self.verdict(
            rowByRow: rowByRow,
            after: { try Shelf.corrupt($1, "UPDATE ZBOOK SET ZISBN = 'wrong' WHERE Z_PK IN (3, 9)") }
        ) {
            result, _ in
            let group = try #require(result.group(.attributeValue, "Book", "isbn"), "\(result.summary)")
            #expect(group.count == 2 && result.violations.count == 1)
            #expect(group.examples.map(\.primaryKey) == [3, 9])
            #expect(group.examples.first?.detail.hasSuffix("found \"wrong\"") == true)
        }
    }

    @Test(arguments: [false, true])
    func aMissingObjectIsReported(rowByRow: Bool) throws {
        try Self.verdict(rowByRow: rowByRow, after: { try Shelf.corrupt($1, "DELETE FROM ZBOOK WHERE Z_PK = 4") }) {
            result, _ in
            let group = try #require(result.group(.missingObject, "Book"), "\(result.summary)")
            #expect(group.count == 1)
            #expect(group.examples.first?.detail == "Book object 4 should become Book 4; found no object")
        }
    }

    @Test(arguments: [false, true])
    func aWrongForeignKeyIsReported(rowByRow: Bool) throws {
        let move = "UPDATE ZBOOK SET ZAUTHOR = (SELECT MAX(Z_PK) FROM ZAUTHOR) WHERE Z_PK = 7"
        try Self.verdict(rowByRow: rowByRow, after: { try Shelf.corrupt($1, move) }) { result, source in
            let author = try Connection(path: source, mode: .readOnly).scalar(
                "SELECT ZAUTHOR FROM ZBOOK WHERE Z_PK = 7")?.int64
            let moved = try Connection(path: source, mode: .readOnly).scalar("SELECT MAX(Z_PK) FROM ZAUTHOR")?.int64
            try #require(author != nil && author != moved)
            let missing = try #require(result.group(.missingEdge, "Book", "author"), "\(result.summary)")
            let unexpected = try #require(result.group(.unexpectedEdge, "Book", "author"), "\(result.summary)")
            #expect(missing.count == 1 && unexpected.count == 1)
            #expect(missing.examples.first?.detail == "edge 7 → \(author ?? 0) is missing")
            #expect(unexpected.examples.first?.detail == "edge 7 → \(moved ?? 0) has no source")
        }
    }

    /// A REAL in Z_ENT is no entity number, though it reads as one through `sqlite3_column_int64` (2.5 as 2).
    @Test(arguments: [false, true])
    func aFractionalEntityNumberIsReported(rowByRow: Bool) throws {
        try Self.verdict(
            rowByRow: rowByRow, after: { try Shelf.corrupt($1, "UPDATE ZBOOK SET Z_ENT = 2.5 WHERE Z_PK = 6") }
        ) {
            result, _ in
            let group = try #require(result.group(.entityNumber, "Book", "Z_ENT"), "\(result.summary)")
            #expect(group.count == 1)
            #expect(group.examples.first?.detail == "Z_ENT 2.5 is not a concrete entity of ZBOOK")
        }
    }

    /// Checks run on two threads; their findings come out in the order the checks are listed in, as on one.
    @Test func findingsOfBothThreadsKeepTheOrderOfTheChecks() throws {
        try Shelf.withMigratedStores { source, destination in
            try Shelf.corrupt(destination, "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_ENT = 2")
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZNAME = NULL WHERE Z_PK = 2")
            let result = try Shelf.verify(source, destination)
            #expect(
                result.violations.map(\.kind) == [.entityNumber, .attributeValue, .optionality], "\(result.summary)")
        }
    }
}
