import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

/// The key join that reads every row because one attribute is evaluated by the verifier itself (Book.isbn
/// from an expression): it reads only that attribute's column with each row and reads a row again, whole,
/// when SQL finds it different. Each damage below would go unseen if either read were skipped.
@Suite("Row-by-row key join")
struct RowByRowJoinTests {
    /// Shelf's inferred mapping, with Book.isbn made from the title and page count by an expression.
    static func mapping() throws -> MappingModel {
        var mapping = try MappingInference.infer(from: try Shelf.v1(), to: try Shelf.v2())
        let index = mapping.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        mapping.entityMappings[index].attributeMappings.removeAll { $0.name == "isbn" }
        mapping.entityMappings[index].attributeMappings.append(
            PropertyMapping(name: "isbn", valueExpression: #"$source.title + "/" + string($source.pages)"#))
        return mapping
    }

    /// Migrates with ``mapping()``, checks the clean store passes, applies `damage`, and hands over the verdict.
    static func verdict(
        after damage: (_ source: String, _ destination: String) throws -> Void,
        _ body: (_ result: VerificationResult, _ source: String) throws -> Void
    ) throws {
        let mapping = try mapping()
        try Shelf.withMigratedStores(mappings: [mapping]) { source, destination in
            let clean = try Shelf.verify(source, destination, mappings: [mapping])
            #expect(clean.passed && clean.notChecked == [], "\(clean.summary)")
            try damage(source, destination)
            try body(try Shelf.verify(source, destination, mappings: [mapping]), source)
        }
    }

    @Test func aWrongValueThatSQLComparesIsReported() throws {
        try Self.verdict(after: { try Shelf.corrupt($1, "UPDATE ZBOOK SET ZNAME = 'changed' WHERE Z_PK = 5") }) {
            result, source in
            let title = try Connection(path: source, mode: .readOnly).scalar("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = 5")
            let group = try #require(result.group(.attributeValue, "Book", "name"), "\(result.summary)")
            #expect(group.count == 1 && result.violations.count == 1)
            #expect(group.examples.first?.primaryKey == 5)
            #expect(group.examples.first?.detail == "expected \"\(title?.string ?? "")\", found \"changed\"")
        }
    }

    @Test func aWrongValueTheVerifierEvaluatesIsReported() throws {
        try Self.verdict(after: { try Shelf.corrupt($1, "UPDATE ZBOOK SET ZISBN = 'wrong' WHERE Z_PK IN (3, 9)") }) {
            result, _ in
            let group = try #require(result.group(.attributeValue, "Book", "isbn"), "\(result.summary)")
            #expect(group.count == 2 && result.violations.count == 1)
            #expect(group.examples.map(\.primaryKey) == [3, 9])
            #expect(group.examples.first?.detail.hasSuffix("found \"wrong\"") == true)
        }
    }

    @Test func aMissingObjectIsReported() throws {
        try Self.verdict(after: { try Shelf.corrupt($1, "DELETE FROM ZBOOK WHERE Z_PK = 4") }) { result, _ in
            let group = try #require(result.group(.missingObject, "Book"), "\(result.summary)")
            #expect(group.count == 1)
            #expect(group.examples.first?.detail == "Book object 4 should become Book 4; found no object")
        }
    }

    @Test func aWrongForeignKeyIsReported() throws {
        let move = "UPDATE ZBOOK SET ZAUTHOR = (SELECT MAX(Z_PK) FROM ZAUTHOR) WHERE Z_PK = 7"
        try Self.verdict(after: { try Shelf.corrupt($1, move) }) { result, source in
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
