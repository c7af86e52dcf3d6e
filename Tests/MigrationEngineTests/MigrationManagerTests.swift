import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

@Suite("Migration manager", .serialized)
struct MigrationManagerTests {
    /// The mapping V1 → V2: inferred for authors, custom for books (title → name, a code from expressions,
    /// genres merged into Genre objects by the FindOrCreate policy).
    static func mapping() throws -> MappingModel {
        let v1 = try Library.v1()
        var book = try Library.v2().entity(named: "Book")!
        book.relationships.removeAll { $0.name == "genre" }
        book.attributes.removeAll { $0.name == "code" }
        // Infer against a V2 without Genre, then add what the custom step does.
        let plain = try ModelVersion(name: "V2", entities: [Library.author, book])
        var model = try MappingInference.infer(from: v1, to: plain)
        let v2 = try Library.v2()
        for index in model.entityMappings.indices {
            let entity = model.entityMappings[index].destinationEntity ?? ""
            model.entityMappings[index].destinationEntityVersionHash = v2.versionHashes[entity]
        }
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].kind = .custom
        model.entityMappings[index].policy = "FindOrCreate"
        model.entityMappings[index].userInfo = [
            "attribute": "genre", "entity": "Genre", "keyAttribute": "label", "relationship": "genre",
        ]
        model.entityMappings[index].attributeMappings.append(
            PropertyMapping(
                name: "code",
                valueExpression: #"uppercase(substring($source.title, 0, 3)) + "-" + string($source.pages)"#))
        return model
    }

    /// ``mapping()`` with its Author mapping custom, run by the policy registered as `policy`.
    static func mapping(authorsBy policy: String) throws -> MappingModel {
        var model = try mapping()
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Author" }!
        model.entityMappings[index].policy = policy
        model.entityMappings[index].kind = .custom
        return model
    }

    func run(
        _ models: [MappingModel],
        options: MigrationOptions = MigrationOptions(),
        policies: PolicyRegistry = .builtIn(),
        size: Int = 200,
        check: (_ source: String, _ destination: String, _ report: MigrationManager.Report) throws -> Void
    ) throws {
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: size)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            let manager = MigrationManager(
                source: try Library.v1(), destination: try Library.v2(), policies: policies, options: options)
            let report = try manager.migrate(storeAt: source, to: destination, mappingModels: models)
            try check(source, destination, report)
        }
    }

    @Test(arguments: StorageMode.allCases)
    func customStepMigratesEveryObjectAndEdge(storage: StorageMode) throws {
        try run([try Self.mapping()], options: MigrationOptions(storage: storage)) { source, destination, report in
            let before = try Connection(path: source, mode: .readOnly)
            let after = try Connection(path: destination, mode: .readOnly)
            #expect(report.objects == ["Author": 50, "Book": 200, "Genre": 5])
            let old = try before.rows("SELECT Z_PK, ZTITLE, ZPAGES, ZAUTHOR, ZGENRE FROM ZBOOK ORDER BY 1")
            let new = try after.rows(
                "SELECT b.Z_PK, b.ZNAME, b.ZPAGES, b.ZAUTHOR, g.ZLABEL, b.ZCODE FROM ZBOOK b "
                    + "LEFT JOIN ZGENRE g ON g.Z_PK = b.ZGENRE ORDER BY 1")
            #expect(old.count == new.count)
            for (was, now) in zip(old, new) {
                #expect(Array(was[0...4]) == Array(now[0...4]))
                let title = was[1].string ?? ""
                let pages = was[2].int64.map(String.init)
                #expect(now[5].string == pages.map { String(title.prefix(3)).uppercased() + "-" + $0 })
            }
            #expect(try Store.metadata(at: destination).versionHashes == (try Library.v2()).versionHashes)
            #expect(try after.scalar("PRAGMA integrity_check")?.string == "ok")
        }
    }

    @Test func inMemoryAndStreamingGiveIdenticalStores() throws {
        var dumps: [[String: [[SQLiteValue]]]] = []
        for storage in StorageMode.allCases {
            try run([try Self.mapping()], options: MigrationOptions(storage: storage)) { _, destination, _ in
                dumps.append(try Library.dump(destination))
            }
        }
        #expect(dumps.count == 2 && dumps[0] == dumps[1])
    }

    @Test func inferredStepMatchesTheInPlaceStep() throws {
        var book = try Library.v2().entity(named: "Book")!
        book.relationships.removeAll { $0.name == "genre" }
        let plain = try ModelVersion(name: "V2", entities: [Library.author, book])
        let plan = try MappingInference.plan(from: try Library.v1(), to: plain)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder)
            let copy = folder.appendingPathComponent("inplace.sqlite").path
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            _ = try InPlaceMigration(plan: plan).run(storeAt: copy)
            let migrated = folder.appendingPathComponent("engine.sqlite").path
            _ = try MigrationManager(source: try Library.v1(), destination: plain)
                .migrate(storeAt: source, to: migrated, mappingModels: [plan.mappingModel])
            let engine = try Library.dump(migrated)
            let inPlace = try Library.dump(copy)
            #expect(engine["ZBOOK"] == inPlace["ZBOOK"] && engine["ZAUTHOR"] == inPlace["ZAUTHOR"])
            #expect(engine["ZBOOK"]?.count == 200)
        }
    }

    @Test func callbacksRunInCoreDataOrder() throws {
        RecordingPolicy.log = []
        let policies = PolicyRegistry.builtIn()
        policies.register("Recorder") { RecordingPolicy() }
        var model = try Self.mapping()
        for index in model.entityMappings.indices where model.entityMappings[index].policy == nil {
            model.entityMappings[index].policy = "Recorder"
        }
        let names = model.entityMappings.filter { $0.policy == "Recorder" }.map(\.name)
        #expect(names == ["AuthorToAuthor"])
        try run([model], policies: policies, size: 8) { _, _, _ in
            let expected =
                [
                    "begin AuthorToAuthor", "create AuthorToAuthor", "create AuthorToAuthor",
                    "endInstances AuthorToAuthor",
                ]
                + ["relate AuthorToAuthor", "relate AuthorToAuthor", "endRelationships AuthorToAuthor"]
                + ["validate AuthorToAuthor", "end AuthorToAuthor"]
            #expect(RecordingPolicy.log == expected)
        }
    }

    @Test func oneSourceMayHaveSeveralDestinations() throws {
        let policies = PolicyRegistry.builtIn()
        policies.register("Twin") { TwinPolicy() }
        let model = try Self.mapping(authorsBy: "Twin")
        // Twins have no books; Author.books is optional, so the migration stays valid.
        try run([model], policies: policies, size: 8) { _, _, report in
            #expect(report.objects["Author"] == 4)
        }
    }

    /// In streaming storage, a to-many read of the destination sees the rows held for the current source object,
    /// as a to-one read does. (In-memory storage writes no row before the pass saves; neither read sees them.)
    @Test func policiesReadTheToManyRelationshipsOfObjectsTheyJustMade() throws {
        let policies = PolicyRegistry.builtIn()
        policies.register("AuthorWithBook") { AuthorWithBookPolicy() }
        let model = try Self.mapping(authorsBy: "AuthorWithBook")
        try run([model], options: MigrationOptions(storage: .streaming), policies: policies, size: 8) { _, _, report in
            #expect(report.objects["Author"] == 2)
            #expect(report.objects["Book"] == 10)
        }
    }

    /// Relationships across passes resolve, or stay empty as Core Data leaves them. A mapping's name is unique
    /// only within its mapping model: passes that repeat one (`repeatsName`) each migrate their own objects alike.
    @Test(arguments: [CrossPassRelationships.resolve, .coreData], [false, true])
    func multiPassResolvesRelationshipsAcrossPasses(mode: CrossPassRelationships, repeatsName: Bool) throws {
        // Book.author is optional in this destination, so that Core Data's behaviour can complete.
        var book = Library.book
        book.relationships[0].isOptional = true
        let v2 = try ModelVersion(name: "V2", entities: [Library.author, book])
        let passes = PassSplit.perEntity(try MappingInference.infer(from: try Library.v1(), to: v2)).map { pass in
            var pass = pass
            if repeatsName { pass.entityMappings[0].name = "Copy" }
            return pass
        }
        #expect(passes.count == 2)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 40)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            let report = try MigrationManager(
                source: try Library.v1(), destination: v2, options: MigrationOptions(crossPassRelationships: mode)
            ).migrate(storeAt: source, to: destination, mappingModels: passes)
            #expect(report.passes == 2)
            let counts = try Store.open(at: source, version: try Library.v1(), readOnly: true).objectCounts()
            #expect(report.objects["Author"] == counts["Author"] && report.objects["Book"] == counts["Book"])
            let linked = try Connection(path: destination, mode: .readOnly)
                .scalar("SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL")?.int64
            #expect(linked == (mode == .resolve ? 40 : 0))
        }
    }

    @Test func brokenRulesFailValidationAndLeaveNoDestination() throws {
        var model = try Self.mapping()
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].attributeMappings.removeAll { $0.name == "name" }
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 20)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            #expect {
                try MigrationManager(source: try Library.v1(), destination: try Library.v2())
                    .migrate(storeAt: source, to: destination, mappingModels: [model])
            } throws: { error in
                let error = try #require(error as? MigrationError)
                return error.code == .validation && error.message.contains("Book.name is required but nil: 20 objects")
                    && error.stage == .validate
            }
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
    }

    /// Duplicates of a uniqueness constraint, met by the last pass building its unique index, fail the migration
    /// at validation with the duplicates' message and leave no destination.
    @Test func duplicatesFailValidationAndLeaveNoDestination() throws {
        let v1 = try ModelVersion(name: "V1", entities: [SmallLibrary.author, SmallLibrary.book])
        var book = SmallLibrary.book
        book.uniquenessConstraints = [["title"]]
        let v2 = try ModelVersion(name: "V2", entities: [SmallLibrary.author, book])
        var model = try MappingInference.infer(from: v1, to: v2)
        let books = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        let title = model.entityMappings[books].attributeMappings.firstIndex { $0.name == "title" }!
        model.entityMappings[books].attributeMappings[title].valueExpression = #""same""#
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let dataset = Dataset(seed: 3, objects: ["Author": 0.25, "Book": 1])
            _ = try StoreGenerator(version: v1, dataset: dataset, size: 20).generate(at: source)
            let destination = folder.appendingPathComponent("v2.sqlite").path
            #expect {
                try MigrationManager(source: v1, destination: v2).migrate(
                    storeAt: source, to: destination, mappingModels: [model])
            } throws: { error in
                let error = try #require(error as? MigrationError)
                return error.code == .validation && error.stage == .validate
                    && error.message.contains("Book (title) must be unique: 1 object (Z_PK 1)")
            }
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
    }

    @Test func cancellationRemovesTheDestinationAndLeavesTheSource() throws {
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 20_000)
            let before = try Data(contentsOf: URL(fileURLWithPath: source))
            let destination = folder.appendingPathComponent("v2.sqlite").path
            var fractions: [Double] = []
            #expect {
                try MigrationManager(source: try Library.v1(), destination: try Library.v2()).migrate(
                    storeAt: source, to: destination, mappingModels: [try Self.mapping()],
                    progress: { fractions.append($0.fractionCompleted) },
                    shouldCancel: { (fractions.last ?? 0) > 0.3 })
            } throws: { error in
                (error as? MigrationError)?.code == .cancelled
            }
            #expect(!FileManager.default.fileExists(atPath: destination))
            #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
            #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test func progressNeverGoesBackAndEndsComplete() throws {
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 20_000)
            var seen: [MigrationProgress] = []
            _ = try MigrationManager(source: try Library.v1(), destination: try Library.v2()).migrate(
                storeAt: source, to: folder.appendingPathComponent("v2.sqlite").path,
                mappingModels: [try Self.mapping()], progress: { seen.append($0) })
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed })
            #expect(seen.last?.fractionCompleted == 1)
            #expect(seen.last?.localizedDescription == "100% completed")
            #expect(seen.contains { $0.localizedAdditionalDescription.hasPrefix("pass 1 of 1: creating objects") })
        }
    }
}
