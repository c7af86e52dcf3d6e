import Foundation
import MigrationTesting
import PersistentStore
import Testing

/// Objects with every kind of relationship go in as given, migrate, and read back.
@Suite("Test stores")
struct TestStoreTests {
    static let model = """
        versions:
          - name: V1
            entities:
              - name: Author
                attributes: [{ name: name, type: String }]
                relationships: [{ name: books, destination: Book, inverse: author, toMany: true }]
              - name: Tag
                attributes: [{ name: label, type: String }]
                relationships: [{ name: books, destination: Book, inverse: tags, toMany: true }]
              - name: Book
                attributes: [{ name: title, type: String }, { name: pages, type: Integer 32, default: 100 }]
                relationships:
                  - { name: author, destination: Author, inverse: books }
                  - { name: tags, destination: Tag, inverse: books, toMany: true }
          - name: V2
            entities:
              - name: Author
                attributes: [{ name: name, type: String }]
                relationships: [{ name: books, destination: Book, inverse: author, toMany: true }]
              - name: Tag
                attributes: [{ name: label, type: String }]
                relationships: [{ name: books, destination: Book, inverse: tags, toMany: true }]
              - name: Book
                attributes:
                  - { name: name, type: String, renamingIdentifier: title }
                  - { name: pages, type: Integer 32, default: 100 }
                  - { name: isbn, type: String, optional: true }
                relationships:
                  - { name: author, destination: Author, inverse: books }
                  - { name: tags, destination: Tag, inverse: books, toMany: true }
        """

    static func withModel<R>(_ body: (MigrationTestModel) throws -> R) throws -> R {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID().uuidString).yaml")
        try model.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try body(try MigrationTestModel(model: file.path))
    }

    @Test func relationshipsOfEveryKindGoInMigrateAndReadBack() throws {
        try Self.withModel { model in
            try model.withStore(at: "V1") { store in
                let ada = try store.insert("Author", ["name": .string("Ada")])
                let (swift, sql) = (
                    try store.insert("Tag", ["label": .string("swift")]),
                    try store.insert("Tag", ["label": .string("sql")])
                )
                try store.insert(
                    "Book", ["title": .string("Notes")], relationships: ["author": [ada], "tags": [swift, sql]])
                let loose = try store.insert("Book", ["title": .string("Letters"), "pages": .integer(7)])
                // A to-many kept on the other side: the book's author is set.
                try store.insert("Author", ["name": .string("Grace")], relationships: ["books": [loose]])

                let migration = try store.migrate()

                #expect(
                    migration.passed && migration.steps.count == 1, "\(migration.steps.map(\.verification.violations))")
                #expect(try store.values("Book", keyPath: "name") == [.string("Notes"), .string("Letters")])
                #expect(try store.values("Book", keyPath: "pages") == [.integer(100), .integer(7)])
                #expect(try store.values("Book", keyPath: "isbn") == [nil, nil])
                #expect(try store.values("Book", keyPath: "author.name") == [.string("Ada"), .string("Grace")])
                let opened = try Store.open(at: store.path, version: store.version, readOnly: true)
                #expect(try opened.edgeCounts().filter { $0.value > 0 } == ["Book.author": 2, "Book.tags": 2])
            }
        }
    }

    /// A required value left out goes in as it is (a test may want such a store), and the verifier reports it.
    @Test func aMissingRequiredValueFailsVerification() throws {
        try Self.withModel { model in
            try model.withStore(at: "V1") { store in
                try store.insert("Tag")
                let migration = try store.migrate()
                #expect(!migration.passed)
                let violations = migration.steps.flatMap(\.verification.violations)
                #expect(violations.map { "\($0.entity ?? "").\($0.property ?? "")" } == ["Tag.label"])
            }
        }
    }

    @Test func aRelationshipToTheWrongEntityIsRefused() throws {
        try Self.withModel { model in
            try model.withStore(at: "V1") { store in
                let tag = try store.insert("Tag")
                #expect(throws: MigrationTestError.self) { try store.insert("Book", relationships: ["author": [tag]]) }
                let ada = try store.insert("Author")
                #expect(throws: MigrationTestError.self) {
                    try store.insert("Book", relationships: ["author": [ada, ada]])
                }
            }
        }
    }
}
