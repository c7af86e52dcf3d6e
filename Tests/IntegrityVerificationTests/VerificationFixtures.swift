import DataGeneration
import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures

/// A small library model whose V1 → V2 step renames `Book.title` to `name` and adds `Book.isbn`, with an ordered
/// one-to-many, a many-to-many with a maximum count, a one-to-one and a uniqueness constraint.
enum Shelf {
    static func entities(renamed: Bool) -> [Entity] {
        let author = Entity(
            name: "Author",
            attributes: [
                Attribute(name: "name", type: .string), Attribute(name: "born", type: .date, isOptional: true),
            ],
            relationships: [
                Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true, isOrdered: true),
                Relationship(name: "tags", destination: "Tag", inverse: "authors", isToMany: true, maxCount: 3),
            ])
        var bookAttributes = [
            Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32, isOptional: true),
        ]
        if renamed {
            bookAttributes = [
                Attribute(name: "name", type: .string, renamingIdentifier: "title"),
                Attribute(name: "pages", type: .integer32, isOptional: true),
                Attribute(name: "isbn", type: .string, isOptional: true),
            ]
        }
        let book = Entity(
            name: "Book", attributes: bookAttributes,
            relationships: [
                Relationship(name: "author", destination: "Author", inverse: "books", isOptional: false),
                Relationship(name: "cover", destination: "Cover", inverse: "book"),
            ])
        let cover = Entity(
            name: "Cover", attributes: [Attribute(name: "color", type: .string)],
            relationships: [Relationship(name: "book", destination: "Book", inverse: "cover")])
        let tag = Entity(
            name: "Tag", attributes: [Attribute(name: "label", type: .string)],
            relationships: [Relationship(name: "authors", destination: "Author", inverse: "tags", isToMany: true)],
            uniquenessConstraints: [["label"]])
        return [author, book, cover, tag]
    }

    static func v1() throws -> ModelVersion { try ModelVersion(name: "V1", entities: entities(renamed: false)) }
    static func v2() throws -> ModelVersion { try ModelVersion(name: "V2", entities: entities(renamed: true)) }

    /// Generates a V1 store at `path`.
    static func makeStore(at path: String, size: Int = 120) throws {
        let dataset = Dataset(
            seed: 5, objects: ["Author": 0.25, "Book": 1, "Cover": 0.5, "Tag": 0.2],
            relationships: [
                "Author.tags": RelationshipFill(count: IntRange(0, 3)), "Book.cover": RelationshipFill(fill: 0.5),
            ],
            attributes: ["Tag.label": AttributeFill(nullRatio: 0, length: IntRange(20, 24))])
        _ = try StoreGenerator(version: try v1(), dataset: dataset, size: size).generate(at: path)
    }

    /// Migrates a fresh V1 store with the engine into `v2.sqlite` in a temporary folder, then calls `body`.
    static func withMigratedStores<R>(
        storage: StorageMode = .streaming,
        mappings: [MappingModel] = [],
        _ body: (_ source: String, _ destination: String) throws -> R
    ) throws -> R {
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let destination = folder.appendingPathComponent("v2.sqlite").path
            try makeStore(at: source)
            let models = try mappings.isEmpty ? [MappingInference.infer(from: try v1(), to: try v2())] : mappings
            _ = try MigrationManager(
                source: try v1(), destination: try v2(), options: MigrationOptions(storage: storage)
            )
            .migrate(storeAt: source, to: destination, mappingModels: models)
            return try body(source, destination)
        }
    }

    /// Verifies `destination` against `source` with the inferred correspondence.
    static func verify(
        _ source: String, _ destination: String, mappings: [MappingModel] = []
    ) throws
        -> VerificationResult
    {
        let verifier = try IntegrityVerifier(source: try v1(), destination: try v2(), mappingModels: mappings)
        return try verifier.verify(sourceStoreAt: source, destinationStoreAt: destination)
    }

    /// Runs `sql` on the store at `path`, outside the verifier.
    static func corrupt(_ path: String, _ sql: String) throws {
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute(sql)
    }
}
