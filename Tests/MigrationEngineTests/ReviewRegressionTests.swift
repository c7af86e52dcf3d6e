import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

@Suite("Review regressions", .serialized)
struct ReviewRegressionTests {
    // T1: multi-pass, the FK side's mapping runs in an earlier pass than its target's.
    @Test func multiPassFKSideFirstLosesEdges() throws {
        var book = Library.book
        book.relationships[0].isOptional = true
        let v2 = try ModelVersion(name: "V2", entities: [Library.author, book])
        var model = try MappingInference.infer(from: try Library.v1(), to: v2)
        model.entityMappings.reverse()  // Book first, then Author
        let passes = PassSplit.perEntity(model)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 40)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            _ = try MigrationManager(source: try Library.v1(), destination: v2)
                .migrate(storeAt: source, to: destination, mappingModels: passes)
            let linked = try Connection(path: destination, mode: .readOnly)
                .scalar("SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL")?.int64
            #expect(linked == 40)
        }
    }

    // T2: two default mappings from the same source entity into the same destination entity.
    @Test(arguments: StorageMode.allCases)
    func twoMappingsSameSourceSameTable(storage: StorageMode) throws {
        let v1 = try Library.v1()
        var model = try MappingInference.infer(from: v1, to: v1)
        var copy = model.entityMappings.first { $0.destinationEntity == "Author" }!
        copy.name = "AuthorToAuthorAgain"
        copy.relationshipMappings = []
        model.entityMappings.append(copy)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 40)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            do {
                let report = try MigrationManager(
                    source: v1, destination: v1, options: MigrationOptions(storage: storage)
                )
                .migrate(storeAt: source, to: destination, mappingModels: [model])
                #expect(report.objects["Author"] == 20)
            } catch {
                Issue.record("threw \(error)")
            }
        }
    }

    // T3: ordered to-many whose destination has subentities, migrated by the engine.
    static func orderedModel() throws -> ModelVersion {
        try ModelVersion(
            name: "O",
            entities: [
                Entity(
                    name: "Owner", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        Relationship(
                            name: "items", destination: "Item", inverse: "owner", isToMany: true, isOrdered: true)
                    ]),
                Entity(
                    name: "Item", isAbstract: true, attributes: [Attribute(name: "title", type: .string)],
                    relationships: [Relationship(name: "owner", destination: "Owner", inverse: "items")]),
                Entity(
                    name: "Disc", parent: "Item",
                    attributes: [Attribute(name: "size", type: .integer32, isOptional: true)]),
                Entity(
                    name: "Tape", parent: "Item",
                    attributes: [Attribute(name: "length", type: .integer32, isOptional: true)]),
            ])
    }

    @Test func orderedToManyWithSubentityChildren() throws {
        let v = try Self.orderedModel()
        let model = try MappingInference.infer(from: v, to: v)
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            _ = try StoreGenerator(
                version: v, dataset: Dataset(seed: 3, objects: ["Owner": 0.2, "Disc": 0.93, "Tape": 1]), size: 50
            ).generate(at: source)
            try Connection(path: source, mode: .readWrite).execute(
                "UPDATE ZITEM SET ZOWNER = 1, Z_FOK_OWNER = 1000 - Z_PK")
            let destination = folder.appendingPathComponent("d.sqlite").path
            _ = try MigrationManager(source: v, destination: v).migrate(
                storeAt: source, to: destination, mappingModels: [model])
            let q =
                "SELECT ZOWNER, Z_FOK_OWNER, COUNT(*) FROM ZITEM WHERE ZOWNER IS NOT NULL GROUP BY 1, 2 HAVING COUNT(*) > 1"
            let dstDup = try Connection(path: destination, mode: .readOnly).rows(q).count
            let order = "SELECT Z_PK FROM ZITEM WHERE ZOWNER IS NOT NULL ORDER BY ZOWNER, Z_FOK_OWNER, Z_PK"
            let srcOrder = try Connection(path: source, mode: .readOnly).rows(order)
            let dstOrder = try Connection(path: destination, mode: .readOnly).rows(order)
            let mixed = try Connection(path: source, mode: .readOnly).rows(
                "SELECT ZOWNER FROM ZITEM WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING COUNT(DISTINCT Z_ENT) > 1")
            #expect(!mixed.isEmpty, "the case needs one owner with children of both subentities")
            #expect(dstDup == 0)
            #expect(srcOrder == dstOrder)
        }
    }

    // T4: many-to-many with the same relationship name on both sides.
    static func sameNameModel() throws -> ModelVersion {
        try ModelVersion(
            name: "S",
            entities: [
                Entity(
                    name: "Alpha", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [Relationship(name: "links", destination: "Beta", inverse: "links", isToMany: true)]),
                Entity(
                    name: "Beta", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [Relationship(name: "links", destination: "Alpha", inverse: "links", isToMany: true)]
                ),
            ])
    }

    @Test(arguments: StorageMode.allCases)
    func sameNamedManyToMany(storage: StorageMode) throws {
        let v = try Self.sameNameModel()
        let layout = try StoreLayout(version: v)
        let join = layout.joinTables[0]
        #expect(join.sourceColumn(forRelationship: "links", of: "Beta") == join.destinationColumn)
        let model = try MappingInference.infer(from: v, to: v)
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            _ = try StoreGenerator(version: v, dataset: Dataset(seed: 3), size: 30).generate(at: source)
            let destination = folder.appendingPathComponent("d.sqlite").path
            do {
                _ = try MigrationManager(source: v, destination: v, options: MigrationOptions(storage: storage))
                    .migrate(storeAt: source, to: destination, mappingModels: [model])
                let q = "SELECT * FROM \(quoted(join.name)) ORDER BY 1, 2"
                let a = try Connection(path: source, mode: .readOnly).rows(q)
                let b = try Connection(path: destination, mode: .readOnly).rows(q)
                #expect(a == b)
            } catch {
                Issue.record("T4 threw \(error)")
            }
        }
    }

    // T5: optional → required with a default (inferred as lightweight).
    @Test func optionalToRequiredWithDefault() throws {
        let v1 = try Library.v1()
        var author = Library.author
        author.attributes[1] = Attribute(name: "born", type: .date, isOptional: false, defaultValue: .date(0))
        let v2 = try ModelVersion(name: "V2", entities: [author, Library.book])
        let plan = try MappingInference.plan(from: v1, to: v2)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 200)
            let nulls = try Connection(path: source, mode: .readOnly).scalar(
                "SELECT COUNT(*) FROM ZAUTHOR WHERE ZBORN IS NULL")?.int64
            let copy = folder.appendingPathComponent("inplace.sqlite").path
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            _ = try InPlaceMigration(plan: plan).run(storeAt: copy)
            let after = try Connection(path: copy, mode: .readOnly).scalar(
                "SELECT COUNT(*) FROM ZAUTHOR WHERE ZBORN IS NULL")?.int64
            #expect((nulls ?? 0) > 0, "the case needs authors without a birth date")
            #expect(after == 0)
            do {
                _ = try MigrationManager(source: v1, destination: v2).migrate(
                    storeAt: source, to: folder.appendingPathComponent("e.sqlite").path,
                    mappingModels: [plan.mappingModel])
            } catch {
                Issue.record("T5 engine threw")
            }
        }
    }

    // T6: add an inverse to an inverse-less to-many.
    @Test func addInverseInPlace() throws {
        let v1 = try ModelVersion(
            name: "V1",
            entities: [
                Entity(
                    name: "Author", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [Relationship(name: "books", destination: "Book", isToMany: true)]),
                Entity(name: "Book", attributes: [Attribute(name: "title", type: .string)]),
            ])
        let v2 = try ModelVersion(
            name: "V2",
            entities: [
                Entity(
                    name: "Author", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true)]
                ),
                Entity(
                    name: "Book", attributes: [Attribute(name: "title", type: .string)],
                    relationships: [Relationship(name: "author", destination: "Author", inverse: "books")]),
            ])
        let plan = try MappingInference.plan(from: v1, to: v2)
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            // each book at most one author so that it fits a one-to-many
            _ = try StoreGenerator(
                version: v1,
                dataset: Dataset(seed: 3, relationships: ["Author.books": RelationshipFill(count: IntRange(1, 1))]),
                size: 30
            ).generate(at: source)
            // A book two authors held can keep only one of them as its to-one: count the books that had any.
            let books = try StoreLayout(version: v1).joinTables[0].destinationColumn
            let srcEdges = try Connection(path: source, mode: .readOnly).scalar(
                "SELECT COUNT(DISTINCT \(quoted(books))) FROM Z_1BOOKS")?.int64
            let copy = folder.appendingPathComponent("inplace.sqlite").path
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            _ = try InPlaceMigration(plan: plan).run(storeAt: copy)
            let inPlace = try Connection(path: copy, mode: .readOnly).scalar(
                "SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL")?.int64
            let engine = folder.appendingPathComponent("e.sqlite").path
            var engineEdges: Int64? = nil
            do {
                _ = try MigrationManager(source: v1, destination: v2).migrate(
                    storeAt: source, to: engine, mappingModels: [plan.mappingModel])
                engineEdges = try Connection(path: engine, mode: .readOnly).scalar(
                    "SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL")?.int64
            } catch { Issue.record("the engine threw \(error)") }
            #expect(inPlace == srcEdges)
            #expect(engineEdges == srcEdges, "the engine keeps the same edges as the in-place step")
        }
    }

    // T7: self-inverse one-to-one in the generator.
    @Test func selfInverseOneToOne() throws {
        let v = try ModelVersion(
            name: "P",
            entities: [
                Entity(
                    name: "Person", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [Relationship(name: "spouse", destination: "Person", inverse: "spouse")])
            ])
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            _ = try StoreGenerator(version: v, dataset: Dataset(seed: 3), size: 20).generate(at: source)
            let broken = try Connection(path: source, mode: .readOnly).scalar(
                "SELECT COUNT(*) FROM ZPERSON a JOIN ZPERSON b ON b.Z_PK = a.ZSPOUSE WHERE b.ZSPOUSE IS NOT a.Z_PK")?
                .int64
            #expect(broken == 0)
        }
    }

    // T8: many-to-many ordered on both sides, in place: the inverse order.
    @Test func bothSidesOrderedInPlace() throws {
        let v1 = try SampleModels.playlists(listsOrdered: true)
        var list = v1.entity(named: "List")!
        list.attributes.append(Attribute(name: "note", type: .string, isOptional: true))
        let v2 = try ModelVersion(name: "V2", entities: [list, v1.entity(named: "Song")!])
        let plan = try MappingInference.plan(from: v1, to: v2)
        let join = try StoreLayout(version: v1).joinTables[0]
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(seed: 3), size: 30).generate(at: source)
            // Reverse each song's list order.
            let w = try Connection(path: source, mode: .readWrite)
            let inv = join.inverseOrderColumn!
            try w.execute("UPDATE \(quoted(join.name)) SET \(quoted(inv)) = 1000 - \(quoted(inv))")
            let q =
                "SELECT \(quoted(join.destinationColumn)), \(quoted(join.ownerColumn)) FROM \(quoted(join.name)) ORDER BY 1, \(quoted(inv))"
            let before = try w.rows(q)
            _ = try InPlaceMigration(plan: plan).run(storeAt: source)
            let after = try Connection(path: source, mode: .readOnly).rows(q)
            #expect(before == after)
        }
    }

    // T9: a concrete entity made abstract, table kept by ALTER TABLE.
    @Test func madeAbstractInPlace() throws {
        let item = Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)])
        let book = Entity(
            name: "Book", parent: "Item", attributes: [Attribute(name: "pages", type: .integer32, isOptional: true)])
        let v1 = try ModelVersion(name: "V1", entities: [item, book])
        var abstractItem = item
        abstractItem.isAbstract = true
        let v2 = try ModelVersion(name: "V2", entities: [abstractItem, book])
        let plan = try MappingInference.plan(from: v1, to: v2)
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(seed: 3), size: 10).generate(at: source)
            _ = try InPlaceMigration(plan: plan).run(storeAt: source)
            let left = try Connection(path: source, mode: .readOnly).scalar(
                "SELECT COUNT(*) FROM ZITEM WHERE Z_ENT = 1")?.int64
            #expect(left == 0)
        }
    }

    // T10: unordered -> ordered, children of two subentities, in place.
    @Test func newlyOrderedSubentitiesInPlace() throws {
        var o = try Self.orderedModel().entities
        let v2 = try ModelVersion(name: "V2", entities: o)
        o[o.firstIndex { $0.name == "Owner" }!].relationships[0].isOrdered = false
        let v1 = try ModelVersion(name: "V1", entities: o)
        let plan = try MappingInference.plan(from: v1, to: v2)
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            _ = try StoreGenerator(
                version: v1, dataset: Dataset(seed: 3, objects: ["Owner": 0.2, "Disc": 1, "Tape": 1]), size: 50
            ).generate(at: source)
            try Connection(path: source, mode: .readWrite).execute("UPDATE ZITEM SET ZOWNER = 1")
            _ = try InPlaceMigration(plan: plan).run(storeAt: source)
            let dup = try Connection(path: source, mode: .readOnly).rows(
                "SELECT ZOWNER, Z_FOK_OWNER FROM ZITEM GROUP BY 1, 2 HAVING COUNT(*) > 1"
            ).count
            #expect(dup == 0)
        }
    }

    // T3b: ordered one-to-many, one child entity, source order not primary-key order.
    @Test func orderedOrderLostByEngine() throws {
        var o = try Self.orderedModel().entities
        o.removeAll { $0.name == "Tape" }
        let v = try ModelVersion(name: "O", entities: o)
        let model = try MappingInference.infer(from: v, to: v)
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("s.sqlite").path
            _ = try StoreGenerator(version: v, dataset: Dataset(seed: 3, objects: ["Owner": 0.2, "Disc": 1]), size: 50)
                .generate(at: source)
            try Connection(path: source, mode: .readWrite).execute("UPDATE ZITEM SET Z_FOK_OWNER = 1000 - Z_PK")
            let destination = folder.appendingPathComponent("d.sqlite").path
            _ = try MigrationManager(source: v, destination: v).migrate(
                storeAt: source, to: destination, mappingModels: [model])
            let order = "SELECT Z_PK FROM ZITEM WHERE ZOWNER IS NOT NULL ORDER BY ZOWNER, Z_FOK_OWNER, Z_PK"
            let a = try Connection(path: source, mode: .readOnly).rows(order)
            let b = try Connection(path: destination, mode: .readOnly).rows(order)
            #expect(a == b)
        }
    }
}
