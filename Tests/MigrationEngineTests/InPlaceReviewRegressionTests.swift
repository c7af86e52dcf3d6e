import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// Reproductions of bugs found in review of the in-place lightweight migration.
@Suite("In-place review regressions")
struct InPlaceReviewRegressionTests {
    /// V1: `Item` with a subentity `Comic`; `<holder>.best` (to-one) and `<holder>.liked` (many-to-many) point at
    /// items. V2: `Comic` is gone, nothing else changes.
    static func versions(holder: String) throws -> (ModelVersion, ModelVersion) {
        let node = Entity(
            name: holder,
            attributes: [Attribute(name: "name", type: .string, isOptional: true)],
            relationships: [
                Relationship(name: "best", destination: "Item", inverse: "bestOf"),
                Relationship(name: "liked", destination: "Item", inverse: "likedBy", isToMany: true),
            ])
        let item = Entity(
            name: "Item",
            attributes: [Attribute(name: "title", type: .string, isOptional: true)],
            relationships: [
                Relationship(name: "bestOf", destination: holder, inverse: "best", isToMany: true),
                Relationship(name: "likedBy", destination: holder, inverse: "liked", isToMany: true),
            ])
        let comic = Entity(
            name: "Comic", parent: "Item", attributes: [Attribute(name: "ink", type: .string, isOptional: true)])
        let book = Entity(
            name: "Book", parent: "Item", attributes: [Attribute(name: "pages", type: .integer32, isOptional: true)])
        return (
            try ModelVersion(name: "V1", entities: [node, item, book, comic]),
            try ModelVersion(name: "V2", entities: [node, item, book])
        )
    }

    /// Objects of a removed subentity are dropped; a foreign key or join row that pointed at one must not be
    /// left pointing at nothing (Core Data's relationship mapping finds no destination for them: nil, no edge).
    /// `Holder` numbers before `Item`, so its table and join table could be kept as they are; `Node` after it.
    @Test(arguments: ["Node", "Holder"])
    func edgesToObjectsOfARemovedSubentityAreDroppedNotLeftDangling(holder: String) throws {
        let (v1, v2) = try Self.versions(holder: holder)
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("store.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(seed: 3), size: 30).generate(at: path)
            let layout = try StoreLayout(version: v1)
            let comic = layout.entityNumbers["Comic"]!
            let table = layout.table(for: holder)
            let best = table.column(for: "best", of: holder, version: v1)!.name
            let join = layout.joinTable(for: "liked", of: holder)!
            let (owner, target) = (
                join.sourceColumn(forRelationship: "liked", of: holder),
                join.targetColumn(forRelationship: "liked", of: holder)
            )
            let connection = try Connection(path: path)
            try connection.execute(
                """
                UPDATE \(table.name) SET \(best) = (SELECT MIN(Z_PK) FROM ZITEM WHERE Z_ENT = \(comic)) WHERE Z_PK <= 10;
                INSERT OR IGNORE INTO \(join.name) (\(owner), \(target))
                SELECT n.Z_PK, i.Z_PK FROM \(table.name) n, ZITEM i WHERE i.Z_ENT = \(comic) AND n.Z_PK <= 5;
                """)
            let keptEdges = try connection.scalar(
                "SELECT COUNT(*) FROM \(table.name) WHERE \(best) IN (SELECT Z_PK FROM ZITEM WHERE Z_ENT <> \(comic))")
            let keptJoinRows = try connection.scalar(
                "SELECT COUNT(*) FROM \(join.name) WHERE \(target) IN (SELECT Z_PK FROM ZITEM WHERE Z_ENT <> \(comic))")
            let plan = try MappingInference.plan(from: v1, to: v2)
            _ = try InPlaceMigration(plan: plan).run(storeAt: path)
            let store = try Store.open(at: path, version: v2)
            let after = store.layout.joinTable(for: "liked", of: holder)!
            let afterTarget = after.targetColumn(forRelationship: "liked", of: holder)
            let dangling = try store.connection.scalar(
                "SELECT COUNT(*) FROM \(table.name) WHERE \(best) IS NOT NULL AND \(best) NOT IN (SELECT Z_PK FROM ZITEM)"
            )
            #expect(dangling == .integer(0))
            let danglingJoin = try store.connection.scalar(
                "SELECT COUNT(*) FROM \(after.name) WHERE \(afterTarget) NOT IN (SELECT Z_PK FROM ZITEM)")
            #expect(danglingJoin == .integer(0))
            let edges = try store.connection.scalar("SELECT COUNT(*) FROM \(table.name) WHERE \(best) IS NOT NULL")
            #expect(edges == keptEdges)
            #expect(try store.connection.scalar("SELECT COUNT(*) FROM \(after.name)") == keptJoinRows)
        }
    }
}

extension InPlaceReviewRegressionTests {
    /// `Tag.statuses` is kept, but its inverse changes from `Status.tag` (now an attribute) to a new `Status.mentions`.
    /// The edges of the kept to-many live in the new to-one's foreign key: the in-place step left it empty, losing
    /// every edge (the verifier reported each one missing), where Core Data's relationship mapping keeps them.
    @Test func aKeptToManyWhoseInverseIsNewKeepsItsEdges() throws {
        let tag = Entity(
            name: "Tag", attributes: [Attribute(name: "name", type: .string, isOptional: true)],
            relationships: [Relationship(name: "statuses", destination: "Status", inverse: "tag", isToMany: true)])
        let status = Entity(
            name: "Status", attributes: [Attribute(name: "mentions", type: .string, isOptional: true)],
            relationships: [Relationship(name: "tag", destination: "Tag", inverse: "statuses")])
        var newTag = tag
        newTag.relationships[0].inverse = "mentions"
        let newStatus = Entity(
            name: "Status", attributes: [Attribute(name: "tag", type: .string, isOptional: true)],
            relationships: [Relationship(name: "mentions", destination: "Tag", inverse: "statuses")])
        let v1 = try ModelVersion(name: "V1", entities: [status, tag])
        let v2 = try ModelVersion(name: "V2", entities: [newStatus, newTag])
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("store.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(seed: 3), size: 30).generate(at: path)
            let edges = try Connection(path: path, mode: .readOnly)
                .rows("SELECT Z_PK, ZTAG FROM ZSTATUS WHERE ZTAG IS NOT NULL ORDER BY Z_PK")
            #expect(!edges.isEmpty)
            let plan = try MappingInference.plan(from: v1, to: v2)
            let added = plan.changes.first { $0.entity == "Status" && $0.property == "mentions" && $0.change == .added }
            #expect(added?.detail == "new, the inverse of 'Tag.statuses': existing objects keep its edges")
            _ = try InPlaceMigration(plan: plan).run(storeAt: path)
            let store = try Store.open(at: path, version: v2)
            #expect(
                try store.connection.rows(
                    "SELECT Z_PK, ZMENTIONS FROM ZSTATUS WHERE ZMENTIONS IS NOT NULL ORDER BY Z_PK") == edges)
        }
    }
}

extension InPlaceReviewRegressionTests {
    /// A uniqueness constraint added while existing objects share a value: the step failed with SQLite's
    /// "UNIQUE constraint failed … CREATE UNIQUE INDEX …" naming the working file; it names the entity and the
    /// properties, as the required-value check does.
    @Test func aNewUniquenessConstraintBrokenByExistingObjectsNamesEntityAndProperties() throws {
        let person = Entity(name: "Person", attributes: [Attribute(name: "name", type: .string, isOptional: true)])
        var unique = person
        unique.uniquenessConstraints = [["name"]]
        let (v1, v2) = (
            try ModelVersion(name: "V1", entities: [person]), try ModelVersion(name: "V2", entities: [unique])
        )
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("store.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(seed: 3), size: 10).generate(at: path)
            try Connection(path: path).execute("UPDATE ZPERSON SET ZNAME = 'same' WHERE Z_PK <= 3")
            let error = #expect(throws: MigrationError.self) {
                try InPlaceMigration(plan: try MappingInference.plan(from: v1, to: v2)).run(storeAt: path)
            }
            #expect(error?.code == .validation)
            #expect(error?.message.contains("(entity=Person, constraint=name)") == true, "\(String(describing: error))")
        }
    }
}
