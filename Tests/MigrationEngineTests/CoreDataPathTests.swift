import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// A history whose second version is hash-identical to the first but sets a stray renaming identifier on an
/// entity (Wire 2.47.0's `Conversation`, lightweight.md (g)), and whose third adds an attribute.
enum StrayIdentifier {
    static let author = Library.author
    static let book = Library.book

    static func v1() throws -> ModelVersion { try Library.v1() }

    /// V1 with a renaming identifier on `Author` that names nothing: hash-identical to V1.
    static func v2() throws -> ModelVersion {
        var author = Self.author
        author.renamingIdentifier = "Writer"
        return try ModelVersion(name: "V2", entities: [author, book])
    }

    /// V2 with an optional `Author.country`.
    static func v3() throws -> ModelVersion {
        var author = Self.author
        author.attributes.append(Attribute(name: "country", type: .string, isOptional: true))
        return try ModelVersion(name: "V3", entities: [author, book])
    }

    static func history() throws -> ModelHistory { try ModelHistory(versions: [v1(), v2(), v3()]) }

    static func authors(_ path: String) throws -> Int64? {
        try Connection(path: path, mode: .readOnly).scalar("SELECT COUNT(*) FROM ZAUTHOR")?.int64
    }
}

@Suite("Core Data's path")
struct CoreDataPathTests {
    @Test func theHashIdenticalVersionsAreOne() throws {
        let history = try StrayIdentifier.history()
        #expect(try StrayIdentifier.v1().versionHashes == StrayIdentifier.v2().versionHashes)
        #expect(history.areIdentical("V1", "V2") && !history.areIdentical("V2", "V3"))
        #expect(history.identicalVersions(to: try StrayIdentifier.v2()).map(\.name) == ["V1", "V2"])
        let hashes = try StrayIdentifier.v1().versionHashes
        #expect(history.version(matching: hashes, named: "V2")?.name == "V2")
        #expect(history.version(matching: hashes, named: "V3")?.name == "V1", "V3's hashes differ")
        #expect(history.version(matching: hashes, named: nil)?.name == "V1")
    }

    /// By default a store goes to the current version in one step, inferred from the oldest of the versions
    /// with its hashes, and keeps every author; walking the chain infers V2 → V3, where the stray identifier
    /// pairs Author with nothing and drops them all, so every book's required author is missing.
    @Test func theDefaultPathIsOneStepAndKeepsWhatTheChainDrops() throws {
        try withTemporaryFolder { folder in
            let history = try StrayIdentifier.history()
            let migrator = try StoreMigrator(history: history)
            #expect(migrator.chosenPath.path == .direct)
            let plan = try migrator.plan(from: "V1", to: "V3")
            #expect(plan.steps.map(\.name) == ["V1 → V3"] && plan.path == .direct)
            #expect(plan.pathReason.contains("Core Data"))
            #expect(!plan.steps[0].changes.contains { $0.change == .dataLoss })
            // A store whose metadata names V2 is the same version: its step starts from V1 too.
            #expect(try migrator.plan(from: "V2", to: "V3").steps.map(\.name) == ["V1 → V3"])

            for (name, version) in [("v1.sqlite", try StrayIdentifier.v1()), ("v2.sqlite", try StrayIdentifier.v2())] {
                let store = folder.appendingPathComponent(name).path
                _ = try StoreGenerator(version: version, dataset: Dataset(seed: 3), size: 20).generate(at: store)
                let authors = try StrayIdentifier.authors(store)
                #expect((authors ?? 0) > 0)
                let outcome = try migrator.migrateStore(at: store)
                #expect(outcome.steps.count == 1)
                #expect(try migrator.version(ofStoreAt: store).name == "V3")
                #expect(try StrayIdentifier.authors(store) == authors, "\(name): every author kept")
            }

            var chained = migrator
            chained.path = .chained
            let walk = try chained.plan(from: "V1", to: "V3")
            #expect(walk.steps.map(\.name) == ["V2 → V3"], "no step between hash-identical versions")
            #expect(walk.steps[0].changes.contains { $0.change == .dataLoss && $0.entity == "Author" })
            let store = folder.appendingPathComponent("walk.sqlite").path
            _ = try StoreGenerator(version: try StrayIdentifier.v1(), dataset: Dataset(seed: 3), size: 20)
                .generate(at: store)
            // Every book's required author is gone with the authors: the walk fails where Core Data passes.
            #expect {
                try chained.migrateStore(at: store)
            } throws: { error in
                "\(error)".contains("mandatory destination relationship (entity=Book, relationship=author)")
            }
        }
    }

    /// Migrating to a version whose hashes equal the store's runs nothing and leaves the store as it was.
    @Test func aTargetWithTheStoresHashesNeedsNoStep() throws {
        try withTemporaryFolder { folder in
            let migrator = try StoreMigrator(history: try StrayIdentifier.history())
            let store = folder.appendingPathComponent("v1.sqlite").path
            _ = try StoreGenerator(version: try StrayIdentifier.v1(), dataset: Dataset(seed: 3), size: 5)
                .generate(at: store)
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            #expect(try migrator.plan(from: "V1", to: "V2").isEmpty)
            var chained = migrator
            chained.path = .chained
            #expect(try chained.plan(from: "V1", to: "V2").isEmpty)
            #expect(try migrator.migrateStore(at: store, to: "V2").steps.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        }
    }

    /// A mapping model whose hashes match both ends runs as the single step; one for a consecutive step does
    /// not (Core Data looks for the store's version and the target's only), and mapping models that each
    /// cover one consecutive step make the automatic path progressive.
    @Test func theMappingModelOfBothEndsRunsAndOthersAreForProgressiveMigrations() throws {
        let history = try ThreeVersions.history(labelIsRequired: false)
        var direct = try ThreeVersions.mapping()
        direct.sourceVersion = "V1"
        let straight = try StoreMigrator(history: history, mappingModels: [direct])
        #expect(straight.chosenPath.path == .direct)
        #expect(try straight.plan(from: "V1", to: "V3").steps.map(\.kind) == [.heavyweight])
        #expect(try straight.plan(from: "V2", to: "V3").steps.map(\.kind) == [.lightweight])

        let stepwise = try StoreMigrator(history: history, mappingModels: [try ThreeVersions.mapping()])
        #expect(stepwise.chosenPath.path == .chained)
        #expect(try stepwise.plan(from: "V1", to: "V3").steps.map(\.kind) == [.lightweight, .heavyweight])
        var coreData = stepwise
        coreData.path = .direct
        #expect(try coreData.plan(from: "V1", to: "V3").steps.map(\.name) == ["V1 → V3"])
        #expect(try coreData.plan(from: "V1", to: "V3").steps[0].kind == .lightweight)
    }
}
