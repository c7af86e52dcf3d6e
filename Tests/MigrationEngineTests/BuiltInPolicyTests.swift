import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

@Suite("Built-in policies")
struct BuiltInPolicyTests {
    /// The real Core Data store of version 2 → version 3: `hexColor` moves into a new Color per post.
    @Test(arguments: StorageMode.allCases)
    func splitAttributeIntoEntityOnTheRealStore(storage: StorageMode) throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let (v2, v3) = (history.versions[1], history.versions[2])
        let mapping = MappingModel(
            name: "V2toV3",
            entityMappings: [
                EntityMapping(
                    name: "PostToPost", kind: .custom, sourceEntity: "Post", destinationEntity: "Post",
                    sourceEntityVersionHash: v2.versionHashes["Post"],
                    destinationEntityVersionHash: v3.versionHashes["Post"],
                    attributeMappings: [
                        PropertyMapping(name: "date", valueExpression: "$source.date"),
                        PropertyMapping(name: "postID", valueExpression: "$source.postID"),
                    ],
                    policy: "SplitAttributeIntoEntity",
                    userInfo: [
                        "attribute": "hexColor", "entity": "Color", "targetAttribute": "hex", "relationship": "color",
                        "identifierAttribute": "colorID",
                    ])
            ])
        try Fixtures.withStoreCopy("CoreDataMigration_Example_2.sqlite") { url in
            let destination = url.deletingLastPathComponent().appendingPathComponent("v3.sqlite").path
            let report = try MigrationManager(source: v2, destination: v3, options: MigrationOptions(storage: storage))
                .migrate(storeAt: url.path, to: destination, mappingModels: [mapping])
            #expect(report.objects == ["Post": 5979, "Color": 5979])
            let before = try Connection(path: url.path, mode: .readOnly)
                .rows("SELECT Z_PK, ZDATE, ZPOSTID, ZHEXCOLOR FROM ZPOST ORDER BY Z_PK")
            let after = try Connection(path: destination, mode: .readOnly)
            let rows = try after.rows(
                "SELECT p.Z_PK, p.ZDATE, p.ZPOSTID, c.ZHEX, c.ZPOST, c.ZCOLORID FROM ZPOST p "
                    + "JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR ORDER BY p.Z_PK")
            #expect(rows.map { Array($0[0...3]) } == before)
            #expect(rows.allSatisfy { $0[4] == $0[0] }, "the inverse Color.post agrees")
            #expect(Set(rows.compactMap { $0[5].string }).count == 5979)
            #expect(try StoreInspection.inspect(path: destination).matchingVersion(in: history)?.name == v3.name)
        }
    }

    static func customBookMapping(
        policy: String, userInfo: [String: String], to destination: ModelVersion
    ) throws
        -> MappingModel
    {
        var model = try MappingInference.infer(from: try Library.v1(), to: destination)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].policy = policy
        model.entityMappings[index].kind = .custom
        model.entityMappings[index].userInfo = userInfo
        return model
    }

    static func version(book attributes: [Attribute]) throws -> ModelVersion {
        var book = Library.book
        book.attributes = attributes
        return try ModelVersion(name: "V2", entities: [Library.author, book])
    }

    @Test func assignNewIdentifierGivesEveryObjectItsOwnUUID() throws {
        let v2 = try Self.version(
            book: Library.book.attributes + [Attribute(name: "uuid", type: .uuid, isOptional: true)])
        let model = try Self.customBookMapping(policy: "AssignNewIdentifier", userInfo: ["attribute": "uuid"], to: v2)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 100)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            _ = try MigrationManager(source: try Library.v1(), destination: v2).migrate(
                storeAt: source, to: destination, mappingModels: [model])
            let ids = try Connection(path: destination, mode: .readOnly).rows("SELECT ZUUID FROM ZBOOK")
            #expect(ids.count == 100 && Set(ids.compactMap { $0[0].bytes }).count == 100)
            #expect(ids.allSatisfy { $0[0].bytes?.count == 16 })
        }
    }

    @Test func dropAllRowsMigratesNone() throws {
        var book = Library.book
        book.relationships[0].isOptional = true
        let v2 = try ModelVersion(name: "V2", entities: [Library.author, book])
        let model = try Self.customBookMapping(policy: "DropAllRows", userInfo: [:], to: v2)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 40)
            let report = try MigrationManager(source: try Library.v1(), destination: v2).migrate(
                storeAt: source, to: folder.appendingPathComponent("v2.sqlite").path, mappingModels: [model])
            #expect(report.objects == ["Author": 10, "Book": 0])
        }
    }

    @Test func convertTypeTurnsNumbersIntoText() throws {
        let text = try Self.version(book: [
            Attribute(name: "title", type: .string), Attribute(name: "pages", type: .string, isOptional: true),
            Attribute(name: "genre", type: .string, isOptional: true),
        ])
        var model = try MappingInference.infer(from: try Library.v1(), to: try Library.v1())
        model.destinationVersion = nil
        for index in model.entityMappings.indices {
            let entity = model.entityMappings[index].destinationEntity ?? ""
            model.entityMappings[index].destinationEntityVersionHash = text.versionHashes[entity]
            if entity == "Book" {
                model.entityMappings[index].policy = "ConvertType"
                model.entityMappings[index].kind = .custom
                model.entityMappings[index].userInfo = ["attribute": "pages"]
                model.entityMappings[index].attributeMappings.removeAll { $0.name == "pages" }
            }
        }
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 50)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            _ = try MigrationManager(source: try Library.v1(), destination: text).migrate(
                storeAt: source, to: destination, mappingModels: [model])
            let before = try Connection(path: source, mode: .readOnly).rows("SELECT ZPAGES FROM ZBOOK ORDER BY Z_PK")
            let after = try Connection(path: destination, mode: .readOnly).rows(
                "SELECT ZPAGES FROM ZBOOK ORDER BY Z_PK")
            #expect(before.count == 50)
            #expect(before.map { $0[0].int64.map(String.init) } == after.map { $0[0].string })
        }
    }

    @Test(arguments: [
        (ExpressionValue.string("42"), AttributeType.integer32, ExpressionValue.integer(42)),
        (.string("YES"), .boolean, .boolean(true)),
        (.string("2001-01-01T00:01:00Z"), .date, .date(60)),
        (.integer(7), .string, .string("7")),
        (.string("1.25"), .double, .double(1.25)),
    ])
    func conversions(value: ExpressionValue, type: AttributeType, expected: ExpressionValue) throws {
        #expect(try ConvertTypePolicy.convert(value, to: type) == expected)
    }

    @Test func unknownPolicyIsRefusedBeforeAnythingRuns() throws {
        let model = try Self.customBookMapping(policy: "NoSuchPolicy", userInfo: [:], to: try Library.v1())
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 10)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            #expect(throws: MappingError.self) {
                try MigrationManager(source: try Library.v1(), destination: try Library.v1())
                    .migrate(storeAt: source, to: destination, mappingModels: [model])
            }
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
    }
}
