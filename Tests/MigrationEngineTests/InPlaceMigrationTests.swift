import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

@Suite("In-place lightweight migration")
struct InPlaceMigrationTests {
    /// Generates `source` at `size`, migrates a copy in place to `destination`, and hands `check` the store
    /// before (a read-only connection to an untouched copy), the store after, and the progress reported.
    func migrate(
        _ source: ModelVersion,
        to destination: ModelVersion,
        size: Int = 500,
        check: (_ before: Connection, _ after: Store, _ progress: [(Int, Int)]) throws -> Void
    ) throws {
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("store.sqlite").path
            let copy = folder.appendingPathComponent("before.sqlite").path
            _ = try StoreGenerator(version: source, dataset: Dataset(seed: 3), size: size).generate(at: path)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            var progress: [(Int, Int)] = []
            let plan = try MappingInference.plan(from: source, to: destination)
            _ = try InPlaceMigration(plan: plan).run(storeAt: path) { progress.append(($0, $1)) }
            try check(
                try Connection(path: copy, mode: .readOnly), try Store.open(at: path, version: destination), progress)
        }
    }

    @Test func renameAndAddKeepEveryRowAndKey() throws {
        var book = SmallLibrary.book
        book.attributes = [
            Attribute(name: "name", type: .string, renamingIdentifier: "title"),
            Attribute(name: "pages", type: .integer32, isOptional: true),
            Attribute(name: "isbn", type: .string, defaultValue: .string("unknown")),
        ]
        let v1 = try ModelVersion(name: "V1", entities: [SmallLibrary.author, SmallLibrary.book])
        let v2 = try ModelVersion(name: "V2", entities: [SmallLibrary.author, book])
        try migrate(v1, to: v2) { before, after, progress in
            let old = try before.rows("SELECT Z_PK, ZTITLE, ZPAGES, ZAUTHOR FROM ZBOOK ORDER BY Z_PK")
            let new = try after.connection.rows("SELECT Z_PK, ZNAME, ZPAGES, ZAUTHOR, ZISBN FROM ZBOOK ORDER BY Z_PK")
            #expect(old.count == 500 && new.count == 500)
            #expect(old.map { Array($0[0...3]) } == new.map { Array($0[0...3]) })
            #expect(new.allSatisfy { $0[4] == .text("unknown") })
            #expect(try after.objectCounts() == ["Author": 500, "Book": 500])
            #expect(try Store.metadata(at: after.path).versionHashes == v2.versionHashes)
            #expect(progress.last.map { $0.0 == $0.1 && $0.1 == 1000 } == true)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.0 <= $1.0 })
        }
    }

    @Test func toOneBecomesManyToManyWithEveryEdge() throws {
        var book = SmallLibrary.book
        book.relationships = [
            Relationship(
                name: "authors", destination: "Author", inverse: "books", isToMany: true, renamingIdentifier: "author")
        ]
        var author = SmallLibrary.author
        author.relationships = [Relationship(name: "books", destination: "Book", inverse: "authors", isToMany: true)]
        let v1 = try ModelVersion(name: "V1", entities: [SmallLibrary.author, SmallLibrary.book])
        let v2 = try ModelVersion(name: "V2", entities: [author, book])
        try migrate(v1, to: v2) { before, after, _ in
            let edges = try before.rows("SELECT Z_PK, ZAUTHOR FROM ZBOOK WHERE ZAUTHOR IS NOT NULL ORDER BY 1, 2")
            let join = try #require(after.layout.joinTable(for: "authors", of: "Book"))
            let bookColumn = join.sourceColumn(forRelationship: "authors", of: "Book")
            let authorColumn = join.targetColumn(forRelationship: "authors", of: "Book")
            let migrated = try after.connection.rows(
                "SELECT \(quoted(bookColumn)), \(quoted(authorColumn)) FROM \(quoted(join.name)) ORDER BY 1, 2")
            #expect(!edges.isEmpty && edges == migrated)
        }
    }

    @Test func unorderedBecomesOrderedNumberingEachList() throws {
        var author = SmallLibrary.author
        author.relationships = [
            Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true, isOrdered: true)
        ]
        let v1 = try ModelVersion(name: "V1", entities: [SmallLibrary.author, SmallLibrary.book])
        let v2 = try ModelVersion(name: "V2", entities: [author, SmallLibrary.book])
        try migrate(v1, to: v2) { _, after, _ in
            let rows = try after.connection.rows(
                "SELECT ZAUTHOR, COUNT(*), MIN(Z_FOK_AUTHOR), MAX(Z_FOK_AUTHOR) FROM ZBOOK GROUP BY ZAUTHOR")
            #expect(!rows.isEmpty)
            for row in rows where row[0] != .null {
                #expect(row[2] == .integer(1) && row[3] == row[1])
            }
        }
    }

    /// The real Core Data store of version 3 migrates to version 4 (which adds `hide`) and is placed there.
    @Test func realStoreMigratesFromVersion3To4() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let plan = try MappingInference.plan(from: history.versions[2], to: history.versions[3])
        try Fixtures.withStoreCopy("CoreDataMigration_Example_3.sqlite") { url in
            let before = try Connection(path: url.path, mode: .readOnly)
                .rows("SELECT Z_PK, ZCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK")
            let result = try InPlaceMigration(plan: plan).run(storeAt: url.path)
            #expect(result.objects == 7995 * 2)
            let inspection = try StoreInspection.inspect(path: url.path)
            #expect(inspection.matchingVersion(in: history)?.name == "CoreDataMigration_Example 4")
            let after = try Connection(path: url.path, mode: .readOnly)
            #expect(try after.rows("SELECT Z_PK, ZCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK") == before)
            #expect(try after.scalar("SELECT COUNT(*) FROM ZPOST WHERE ZHIDE = 0")?.int64 == 7995)
            #expect(try after.scalar("PRAGMA integrity_check")?.string == "ok")
        }
    }

    @Test func aStoreAtAnotherVersionIsRefusedUntouched() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let plan = try MappingInference.plan(from: history.versions[2], to: history.versions[3])
        try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { url in
            let before = try Data(contentsOf: url)
            #expect(throws: StoreError.self) { try InPlaceMigration(plan: plan).run(storeAt: url.path) }
            #expect(try Data(contentsOf: url) == before)
        }
    }

    /// A many-to-many whose join table does not change is left in place, not copied row by row.
    @Test func anUnchangedJoinTableIsKeptAsItIs() throws {
        let course = { (extra: [Attribute]) in
            Entity(
                name: "Course", attributes: [Attribute(name: "title", type: .string)] + extra,
                relationships: [
                    Relationship(name: "students", destination: "Student", inverse: "courses", isToMany: true)
                ])
        }
        let student = Entity(
            name: "Student", attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "courses", destination: "Course", inverse: "students", isToMany: true)])
        let v1 = try ModelVersion(name: "V1", entities: [course([]), student])
        let v2 = try ModelVersion(
            name: "V2", entities: [course([Attribute(name: "room", type: .string, isOptional: true)]), student])
        let layout = try StoreLayout(version: v2)
        let join = try #require(layout.joinTables.first?.name)
        let plan = try MappingInference.plan(from: v1, to: v2)
        #expect(
            InPlaceMigration(plan: plan).unchangedJoinTables(source: try StoreLayout(version: v1), destination: layout)
                == [join])
        try migrate(v1, to: v2, size: 300) { before, after, _ in
            let query = "SELECT * FROM \(quoted(join)) ORDER BY 1, 2"
            let rows = try before.rows(query)
            #expect(!rows.isEmpty)
            #expect(try after.connection.rows(query) == rows)
            let rootPage = "SELECT rootpage FROM sqlite_master WHERE name = '\(join)'"
            #expect(
                try after.connection.scalar(rootPage) == (try before.scalar(rootPage)), "the join table was rebuilt")
        }
    }
}
