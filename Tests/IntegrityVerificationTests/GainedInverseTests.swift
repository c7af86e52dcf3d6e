import DataGeneration
import Foundation
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import IntegrityVerification

/// A relationship without inverse that gains a to-one inverse is narrowed as a to-many inverse made to-one is
/// (`NarrowedInverseTests`): `Author.books`, kept in a join table, gains `Book.author`, and a book several authors
/// held keeps one of them, the one with the highest key; `Member.user` (to-one) gains `User.member` (to-one), and a
/// user several members pointed at keeps one. This follows the engine's narrowed-inverse rule; lightweight.md has
/// no measured evidence of what Core Data does here.
@Suite("A gained to-one inverse")
struct GainedInverseTests {
    static func authorsAndBooks() throws -> (ModelVersion, ModelVersion) {
        func version(_ name: String, inverse: Bool) throws -> ModelVersion {
            let author = Relationship(name: "author", destination: "Author", inverse: "books", isOptional: true)
            return try ModelVersion(
                name: name,
                entities: [
                    Entity(
                        name: "Author", attributes: [Attribute(name: "name", type: .string)],
                        relationships: [
                            Relationship(
                                name: "books", destination: "Book", inverse: inverse ? "author" : nil, isToMany: true)
                        ]),
                    Entity(
                        name: "Book", attributes: [Attribute(name: "title", type: .string)],
                        relationships: inverse ? [author] : []),
                ])
        }
        return (try version("V1", inverse: false), try version("V2", inverse: true))
    }

    /// The source's join table of `Author.books` and its (author, book) columns.
    static func joinTable(_ version: ModelVersion) throws -> (table: String, author: String, book: String) {
        let join = try #require(try StoreLayout(version: version).joinTable(for: "books", of: "Author"))
        return (
            join.name, join.sourceColumn(forRelationship: "books", of: "Author"),
            join.targetColumn(forRelationship: "books", of: "Author")
        )
    }

    @Test func aBookSeveralAuthorsHeldKeepsTheLastAndTheStoreVerifies() throws {
        let (v1, v2) = try Self.authorsAndBooks()
        let migrator = try StoreMigrator(history: try ModelHistory(versions: [v1, v2]))
        let plan = try migrator.plan(from: "V1", to: "V2")
        let loss = plan.steps[0].changes.filter { $0.change == .dataLoss }
        #expect(loss.map { "\($0.entity).\($0.property ?? "")" } == ["Book.author"])
        #expect(loss.first?.detail.contains("'Author.books'") == true, "\(loss)")
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let store = folder.appendingPathComponent("v2.sqlite").path
            let dataset = Dataset(
                seed: 5, objects: ["Author": 0.5, "Book": 1],
                relationships: ["Author.books": RelationshipFill(count: IntRange(2, 5))])
            _ = try StoreGenerator(version: v1, dataset: dataset, size: 40).generate(at: source)
            let original = try Connection(path: source, mode: .readOnly)
            let join = try Self.joinTable(v1)
            let shared = try original.scalar(
                "SELECT COUNT(*) FROM (SELECT \(join.book) FROM \(join.table) GROUP BY \(join.book) "
                    + "HAVING COUNT(*) > 1)")
            #expect((shared?.int64 ?? 0) > 0, "books in several authors' sets")
            try FileManager.default.copyItem(atPath: source, toPath: store)
            try migrator.migrateStore(at: store)
            let expected = try original.rows(
                "SELECT \(join.book), MAX(\(join.author)) FROM \(join.table) GROUP BY \(join.book) "
                    + "ORDER BY \(join.book)")
            let links = try Connection(path: store, mode: .readOnly).rows(
                "SELECT Z_PK, ZAUTHOR FROM ZBOOK WHERE ZAUTHOR IS NOT NULL ORDER BY Z_PK")
            #expect(links == expected, "each book keeps the author with the highest key")
            let verifier = try IntegrityVerifier(source: v1, destination: v2)
            let verdict = try verifier.verify(sourceStoreAt: source, destinationStoreAt: store)
            #expect(verdict.passed, "\(verdict.violations)")

            // Another of its authors kept, or the link dropped: both caught.
            let book = try #require(
                try original.scalar(
                    "SELECT \(join.book) FROM \(join.table) GROUP BY \(join.book) HAVING COUNT(*) > 1 LIMIT 1")?.int64)
            let other = try #require(
                try original.scalar("SELECT MIN(\(join.author)) FROM \(join.table) WHERE \(join.book) = \(book)")?.int64
            )
            for tampering in ["ZAUTHOR = \(other)", "ZAUTHOR = NULL"] {
                let copy = folder.appendingPathComponent("tampered-\(UUID()).sqlite").path
                try FileManager.default.copyItem(atPath: store, toPath: copy)
                try Connection(path: copy).execute("UPDATE ZBOOK SET \(tampering) WHERE Z_PK = \(book)")
                let wrong = try verifier.verify(sourceStoreAt: source, destinationStoreAt: copy)
                #expect(!wrong.passed, "\(tampering)")
                #expect(wrong.violations.contains { $0.kind == .missingEdge && $0.property == "books" }, "\(tampering)")
            }
        }
    }

    @Test func aUserSeveralMembersPointedAtKeepsTheLastAndTheStoreVerifies() throws {
        func version(_ name: String, inverse: Bool) throws -> ModelVersion {
            try ModelVersion(
                name: name,
                entities: [
                    Entity(
                        name: "User", attributes: [Attribute(name: "name", type: .string)],
                        relationships: inverse
                            ? [Relationship(name: "member", destination: "Member", inverse: "user", isOptional: true)]
                            : []),
                    Entity(
                        name: "Member", attributes: [Attribute(name: "role", type: .string)],
                        relationships: [
                            Relationship(
                                name: "user", destination: "User", inverse: inverse ? "member" : nil, isOptional: true)
                        ]),
                ])
        }
        let (v1, v2) = (try version("V1", inverse: false), try version("V2", inverse: true))
        let migrator = try StoreMigrator(history: try ModelHistory(versions: [v1, v2]))
        let plan = try migrator.plan(from: "V1", to: "V2")
        #expect(
            plan.steps[0].changes.filter { $0.change == .dataLoss }.map { "\($0.entity).\($0.property ?? "")" }
                == ["User.member"])
        try NarrowedInverseTests.migrateKeepingTheLastMember(from: v1, to: v2, with: migrator)
    }
}
