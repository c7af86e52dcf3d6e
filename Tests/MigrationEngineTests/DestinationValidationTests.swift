import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

@Suite("Destination validation")
struct DestinationValidationTests {
    static func version() throws -> ModelVersion {
        try ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "Shelf", attributes: [Attribute(name: "code", type: .string, isOptional: true)],
                    relationships: [
                        Relationship(name: "books", destination: "Book", inverse: "shelf", isToMany: true, minCount: 2)
                    ],
                    uniquenessConstraints: [["code"]]),
                Entity(
                    name: "Book", relationships: [Relationship(name: "shelf", destination: "Shelf", inverse: "books")]),
            ])
    }

    /// An empty optional to-many is valid whatever its minimum; NULLs are not duplicates of each other.
    @Test func optionalMinimumsAndNullsFollowCoreData() throws {
        try withTemporaryFolder { folder in
            let store = try Store.create(
                at: folder.appendingPathComponent("s.sqlite").path, version: try Self.version())
            // Shelves: 1 empty (valid), 2 with one book (too few), 3 with two books; codes NULL, NULL, "a", "a".
            try store.connection.execute(
                """
                INSERT INTO ZSHELF (Z_PK, Z_ENT, Z_OPT, ZCODE) VALUES (1, 2, 1, NULL), (2, 2, 1, NULL), (3, 2, 1, 'a'),
                    (4, 2, 1, 'a');
                INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZSHELF) VALUES (1, 1, 1, 2), (2, 1, 1, 3), (3, 1, 1, 3),
                    (4, 1, 1, 4), (5, 1, 1, 4);
                """)
            #expect {
                try DestinationValidation(store: store, entities: ["Book", "Shelf"]).check(relationships: true)
            } throws: { error in
                let message = (error as? MigrationError)?.message ?? ""
                return message.contains("Shelf.books needs at least 2: 1 object (Z_PK 2)")
                    && message.contains("Shelf (code) must be unique: 1 object (Z_PK 3)")
                    && !message.contains("Z_PK 1)")
            }
        }
    }

    /// The last pass proves uniqueness by building the unique index: a refused duplicate gives the message the
    /// `GROUP BY` gives (every rule, the duplicates' first keys), and a store without one keeps the index, which
    /// `finishBulkLoad` then finds built.
    @Test(arguments: [false, true])
    func uniqueIndexesProveUniqueness(duplicated: Bool) throws {
        try withTemporaryFolder { folder in
            let store = try Store.create(
                at: folder.appendingPathComponent("s.sqlite").path, version: try Self.version())
            try store.connection.execute(
                """
                INSERT INTO ZSHELF (Z_PK, Z_ENT, Z_OPT, ZCODE) VALUES (1, 2, 1, 'a'), (2, 2, 1, 'b'), (3, 2, 1, NULL),
                    (4, 2, 1, NULL), (5, 2, 1, '\(duplicated ? "b" : "c")'), (6, 2, 1, 'd');
                INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZSHELF) VALUES (1, 1, 1, 1), (2, 1, 1, 1), (3, 1, 1, 2);
                """)
            let validation = DestinationValidation(store: store, entities: ["Book", "Shelf"])
            let indexes = "SELECT COUNT(*) FROM sqlite_master WHERE name = 'Z_Shelf_UNIQUE_code'"
            if duplicated {
                #expect {
                    try validation.check(relationships: true, buildingUniqueIndexes: true)
                } throws: { error in
                    let message = (error as? MigrationError)?.message ?? ""
                    return message.contains("Shelf.books needs at least 2: 1 object (Z_PK 2)")
                        && message.contains("Shelf (code) must be unique: 1 object (Z_PK 2)")
                }
            } else {
                #expect(throws: Never.self) {
                    try validation.check(relationships: false, buildingUniqueIndexes: true)
                }
                #expect(try store.connection.scalar(indexes)?.int64 == 1)
                try store.finishBulkLoad()
                #expect(try store.connection.scalar("PRAGMA integrity_check") == .text("ok"))
                #expect(try store.connection.scalar(indexes)?.int64 == 1)
            }
        }
    }

    /// An index refused for duplicates among another entity's rows of its table: not a duplicate of the
    /// constrained entity's, yet the index cannot be built. Every other broken rule is still reported; with
    /// none, the refusal is thrown as ``Store/finishBulkLoad()`` throws it, with the store's path.
    @Test(arguments: [false, true])
    func anotherEntitysDuplicatesRefuseTheIndex(otherProblems: Bool) throws {
        let version = try ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "Item", isAbstract: true,
                    attributes: [Attribute(name: "code", type: .string, isOptional: true)]),
                Entity(
                    name: "Tool", parent: "Item", attributes: [Attribute(name: "label", type: .string)],
                    uniquenessConstraints: [["code"]]),
                Entity(name: "Part", parent: "Item"),
            ])
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("s.sqlite").path
            let store = try Store.create(at: path, version: version)
            let table = store.layout.table(for: "Tool")
            let code = table.column(for: "code", of: "Tool", version: version)!.name
            let label = table.column(for: "label", of: "Tool", version: version)!.name
            let tool = store.layout.entityNumbers["Tool"]!
            let part = store.layout.entityNumbers["Part"]!
            // Tools: codes a and b, distinct; parts: x twice.
            try store.connection.execute(
                """
                INSERT INTO \(table.name) (Z_PK, Z_ENT, Z_OPT, \(code), \(label)) VALUES
                    (1, \(tool), 1, 'a', \(otherProblems ? "NULL" : "'t'")), (2, \(tool), 1, 'b', 't'),
                    (3, \(part), 1, 'x', NULL), (4, \(part), 1, 'x', NULL);
                """)
            #expect {
                try DestinationValidation(store: store, entities: ["Item", "Part", "Tool"])
                    .check(relationships: true, buildingUniqueIndexes: true)
            } throws: { error in
                if otherProblems {
                    let error = try #require(error as? MigrationError)
                    return error.code == .validation
                        && error.message.contains("Tool.label is required but nil: 1 object (Z_PK 1)")
                        && !error.message.contains("must be unique")
                }
                let error = try #require(error as? StoreError)
                return error.code == .sqlite && error.path == path
                    && error.underlying.map { ResultCode.constraint ~= $0.code } == true
            }
        }
    }
}
