import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures

@testable import MigrationEngine

/// The smallest library model: authors and books, a one-to-many between them, nothing else.
enum SmallLibrary {
    static let author = Entity(
        name: "Author",
        attributes: [Attribute(name: "name", type: .string)],
        relationships: [Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true)])
    static let book = Entity(
        name: "Book",
        attributes: [
            Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32, isOptional: true),
        ],
        relationships: [Relationship(name: "author", destination: "Author", inverse: "books")])
}

/// Small models and helpers shared by the engine tests.
enum Library {
    static let author = Entity(
        name: "Author",
        attributes: [Attribute(name: "name", type: .string), Attribute(name: "born", type: .date, isOptional: true)],
        relationships: [Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true)])
    static let book = Entity(
        name: "Book",
        attributes: [
            Attribute(name: "title", type: .string),
            Attribute(name: "pages", type: .integer32, isOptional: true),
            Attribute(name: "genre", type: .string, isOptional: true),
        ],
        relationships: [Relationship(name: "author", destination: "Author", inverse: "books", isOptional: false)])

    static func v1() throws -> ModelVersion { try ModelVersion(name: "V1", entities: [author, book]) }

    /// V2: `Book.title` renamed `name`, `Book.code` added, and genres split out into a `Genre` entity.
    static func v2() throws -> ModelVersion {
        var book = Self.book
        book.attributes = [
            Attribute(name: "name", type: .string, renamingIdentifier: "title"),
            Attribute(name: "pages", type: .integer32, isOptional: true),
            Attribute(name: "code", type: .string, isOptional: true),
        ]
        book.relationships.append(Relationship(name: "genre", destination: "Genre", inverse: "books"))
        let genre = Entity(
            name: "Genre", attributes: [Attribute(name: "label", type: .string)],
            relationships: [Relationship(name: "books", destination: "Book", inverse: "genre", isToMany: true)])
        return try ModelVersion(name: "V2", entities: [author, book, genre])
    }

    /// Generates a V1 store in `folder`: a quarter as many authors as books, genres from a few values.
    static func makeStore(in folder: URL, size: Int = 200, distinctGenres: Int = 5) throws -> String {
        let path = folder.appendingPathComponent("v1.sqlite").path
        let dataset = Dataset(
            seed: 11, objects: ["Author": 0.25, "Book": 1],
            attributes: ["Book.genre": AttributeFill(nullRatio: 0, distinct: distinctGenres)])
        _ = try StoreGenerator(version: try v1(), dataset: dataset, size: size).generate(at: path)
        return path
    }

    /// Every row of every table of the store but the metadata, for comparing stores.
    static func dump(_ path: String) throws -> [String: [[SQLiteValue]]] {
        let connection = try Connection(path: path, mode: .readOnly)
        var tables: [String: [[SQLiteValue]]] = [:]
        for table in try connection.tableNames() where table != "Z_METADATA" {
            let order = try connection.columns(of: table).count > 1 ? "1, 2" : "1"
            tables[table] = try connection.rows("SELECT * FROM \(quoted(table)) ORDER BY \(order)")
        }
        return tables
    }
}

/// Records every policy callback, in order.
final class RecordingPolicy: EntityMigrationPolicy {
    nonisolated(unsafe) static var log: [String] = []

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        Self.log.append("begin \(mapping.name)")
    }
    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        Self.log.append("create \(mapping.name)")
        try session.createDestinationInstance(for: source, mapping: mapping)
    }
    func endInstanceCreation(_ mapping: EntityMapping, in session: MigrationSession) throws {
        Self.log.append("endInstances \(mapping.name)")
    }
    func createRelationships(for destination: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        Self.log.append("relate \(mapping.name)")
        try session.createRelationships(for: destination, mapping: mapping)
    }
    func endRelationshipCreation(_ mapping: EntityMapping, in session: MigrationSession) throws {
        Self.log.append("endRelationships \(mapping.name)")
    }
    func performCustomValidation(_ mapping: EntityMapping, in session: MigrationSession) throws {
        Self.log.append("validate \(mapping.name)")
    }
    func end(_ mapping: EntityMapping, in session: MigrationSession) throws { Self.log.append("end \(mapping.name)") }
}

/// Makes two destination objects per source object, to test one-to-many associations.
final class TwinPolicy: EntityMigrationPolicy {
    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let first = try session.createDestinationInstance(for: source, mapping: mapping)
        let second = try session.createDestinationInstance(entity: mapping.destinationEntity!)
        try session.setValue(.string("twin"), forKey: "name", of: second)
        try session.associate(source: source, destination: second, mapping: mapping)
        let found = session.destinationInstances(forEntityMapping: mapping.name, sourceInstances: [source])
        let back = session.sourceInstances(forEntityMapping: mapping.name, destinationInstances: [second])
        guard found == [first, second], back == [source] else {
            throw MigrationError(.policy, "associations lost: \(found), \(back)")
        }
    }
}

/// Makes each author with a book of its own, then reads the author's books back within the same source object:
/// a policy sees the rows it made before they are in the store.
final class AuthorWithBookPolicy: EntityMigrationPolicy {
    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let author = try session.createDestinationInstance(for: source, mapping: mapping)
        let book = try session.createDestinationInstance(entity: "Book")
        try session.setValue(.string("Own book"), forKey: "name", of: book)
        try session.setValue(.object(author), forKey: "author", of: book)
        let books = try session.value(of: author, keyPath: ["books"])
        guard books == .objects([book]) else {
            throw MigrationError(.policy, "the author's books read \(books), not the book just made")
        }
    }
}
