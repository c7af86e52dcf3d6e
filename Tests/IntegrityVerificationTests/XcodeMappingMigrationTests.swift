import DataGeneration
import Foundation
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import IntegrityVerification

/// Real stores migrated with the apps' own Xcode mapping models, each step checked by the verifier.
struct XcodeMappingMigrationTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios")

    /// wibosco's store at version 1 → 4: Migration1to2, Migration2to3 with its Post2ToPost3MigrationPolicy bound
    /// to the built-in split (the scenario catalog's binding file), and an inferred last step.
    @Test(arguments: StorageMode.allCases)
    func wiboscoReachesVersionFourWithItsOwnMappingModels(storage: StorageMode) throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let bindings = try PolicyBindings.load(
            path: Self.scenarios.appendingPathComponent("policies/CoreDataMigration_Example.yaml").path)
        let models = try MappingModelLoader.load(
            paths: ["Migration1to2", "Migration2to3"].map {
                Fixtures.mappingModels.appendingPathComponent("\($0).xcmappingmodel").path
            }, for: history, bindings: bindings)
        let versions = history.versions
        #expect(models.map(\.sourceVersion) == [versions[0].name, versions[1].name])
        try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { url in
            let folder = url.deletingLastPathComponent()
            var current = url.path
            for (step, model) in models.enumerated() {
                let next = folder.appendingPathComponent("v\(step + 2).sqlite").path
                _ = try MigrationManager(
                    source: versions[step], destination: versions[step + 1], options: MigrationOptions(storage: storage)
                ).migrate(storeAt: current, to: next, mappingModels: [model])
                let verifier = try IntegrityVerifier(
                    source: versions[step], destination: versions[step + 1], mappingModels: [model])
                let verdict = try verifier.verify(sourceStoreAt: current, destinationStoreAt: next)
                #expect(verdict.passed, "step \(step + 1): \(verdict.violations)")
                // Objects compared in ranges of 50 keys, as a large store's are: the same verdict.
                #expect(
                    try verifier.verify(sourceStoreAt: current, destinationStoreAt: next, rowsPerRange: 50) == verdict)
                current = next
            }
            let last = folder.appendingPathComponent("v4.sqlite").path
            try FileManager.default.copyItem(atPath: current, toPath: last)
            _ = try InPlaceMigration(plan: try MappingInference.plan(from: versions[2], to: versions[3])).run(
                storeAt: last)
            let verdict = try IntegrityVerifier(source: versions[2], destination: versions[3])
                .verify(sourceStoreAt: current, destinationStoreAt: last)
            #expect(verdict.passed, "step 3: \(verdict.violations)")
            let colors = try Connection(path: last, mode: .readOnly).rows(
                "SELECT count(*) FROM ZPOST p JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR")
            #expect(colors == [[.integer(1001)]], "every post got its own Color")
        }
    }

    /// Without the binding, the app's policy class is an error before any object is touched, naming the
    /// mapping and the class.
    @Test func anUnboundPolicyClassFailsBeforeTheMigrationStarts() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let model = try MappingModelLoader.load(
            paths: [Fixtures.mappingModels.appendingPathComponent("Migration2to3.xcmappingmodel").path], for: history)
        let migrator = try StoreMigrator(history: history, mappingModels: model)
        try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { url in
            let before = try Data(contentsOf: url)
            #expect {
                try migrator.migrateStore(at: url.path)
            } throws: { error in
                let text = "\(error)"
                return text.contains("mapping 'PostToPost'") && text.contains("'Post2ToPost3MigrationPolicy'")
            }
            #expect(try Data(contentsOf: url) == before)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).count == 1)
        }
    }

    /// CoreDataPlus's V2 store (three-level inheritance, uniqueness constraints) → V3 with its `V2toV3` mapping
    /// model, its V2to3MakerPolicy bound to the built-in find-or-create: one Maker per maker name, shared by
    /// cars, sports cars and luxury cars alike (Maker.name is unique).
    @Test(arguments: ["MappingModels/V2toV3.xcmappingmodel", "Fixtures/V2toV3.cdm"])
    func coreDataPlusReachesV3WithItsOwnMappingModel(file: String) throws {
        let folder = Fixtures.coreDataPlus.appendingPathComponent("SampleModel")
        let history = try ModelLoader.load(path: folder.appendingPathComponent("SampleModel.xcdatamodeld").path)
        let bindings = PolicyBindings([
            "V2to3MakerPolicy": .init(
                policy: "FindOrCreate",
                userInfo: [
                    "attribute": "maker", "entity": "Maker", "keyAttribute": "name", "relationship": "createdBy",
                ])
        ])
        let mapping = try MappingModelLoader.load(
            paths: [folder.appendingPathComponent(file).path], for: history, bindings: bindings)[0]
        let (v2, v3) = (try history.requireVersion("SampleModel2"), try history.requireVersion("SampleModel3"))
        #expect(mapping.sourceVersion == v2.name && mapping.destinationVersion == v3.name)
        try Fixtures.withStoreCopy(at: folder.appendingPathComponent("Fixtures/SampleModel_V2.sqlite")) { url in
            let destination = url.deletingLastPathComponent().appendingPathComponent("v3.sqlite").path
            _ = try MigrationManager(source: v2, destination: v3).migrate(
                storeAt: url.path, to: destination, mappingModels: [mapping])
            let verifier = try IntegrityVerifier(source: v2, destination: v3, mappingModels: [mapping])
            let verdict = try verifier.verify(sourceStoreAt: url.path, destinationStoreAt: destination)
            #expect(verdict.passed, "\(verdict.violations)")
            #expect(
                try verifier.verify(sourceStoreAt: url.path, destinationStoreAt: destination, rowsPerRange: 7)
                    == verdict)
            let before = try Connection(path: url.path, mode: .readOnly)
                .rows("SELECT ZNUMBERPLATE, ZMAKER FROM ZCAR ORDER BY ZNUMBERPLATE")
            let after = try Connection(path: destination, mode: .readOnly).rows(
                "SELECT c.ZNUMBERPLATE, m.ZNAME FROM ZCAR c LEFT JOIN ZMAKER m ON m.Z_PK = c.ZCREATEDBY "
                    + "ORDER BY c.ZNUMBERPLATE")
            #expect(before.count == 125 && after == before)
            let makers = try Connection(path: destination, mode: .readOnly)
                .rows("SELECT count(*), count(DISTINCT ZNAME) FROM ZMAKER")
            #expect(makers == [[.integer(10), .integer(10)]])
        }
    }

    /// CoreDataVsRealm's String → Integer 16 conversion: `FUNCTION($entityPolicy, "toInt16WithValue:", …)`
    /// answered by a function registered for its CustomMigration policy class; unregistered, the selector is
    /// refused before anything runs.
    @Test func coreDataVsRealmConvertsWithARegisteredFunction() throws {
        let history = try ModelLoader.load(
            path: Fixtures.coreDataVsRealm.appendingPathComponent("LibraryDataModel.xcdatamodeld").path)
        let mapping = try MappingModelLoader.load(
            paths: [
                Fixtures.coreDataVsRealm.appendingPathComponent("v1 to v2 migration/v1_to_v2.xcmappingmodel").path
            ], for: history)[0]
        let (v1, v2) = (history.versions[0], history.versions[1])
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let dataset = Dataset(seed: 7)
            _ = try StoreGenerator(version: v1, dataset: dataset, size: 200).generate(at: source)
            let connection = try Connection(path: source)
            try connection.execute("UPDATE ZUSER SET ZBONUSPOINTS = CAST(Z_PK * 7 AS TEXT) WHERE Z_PK % 3 != 0")

            let unregistered = PolicyRegistry.builtIn()
            unregistered.register("CustomMigration") { DefaultPolicyStandIn() }
            #expect {
                _ = try MigrationManager(source: v1, destination: v2, policies: unregistered).compile([mapping])
            } throws: { error in
                let text = "\(error)"
                return text.contains("mapping 'UserToUser'") && text.contains("'CustomMigration'")
                    && text.contains("'toInt16WithValue:'")
            }

            let registry = PolicyRegistry.builtIn()
            registry.register("toInt16WithValue:", for: "CustomMigration") { arguments, _ in
                guard case .string(let text) = arguments.first, let number = Int16(text) else { return .integer(0) }
                return .integer(Int64(number))
            }
            let destination = folder.appendingPathComponent("v2.sqlite").path
            _ = try MigrationManager(source: v1, destination: v2, policies: registry)
                .migrate(storeAt: source, to: destination, mappingModels: [mapping])
            let before = try Connection(path: source, mode: .readOnly)
                .rows("SELECT Z_PK, ZBONUSPOINTS FROM ZUSER ORDER BY Z_PK")
            let after = try Connection(path: destination, mode: .readOnly)
                .rows("SELECT Z_PK, ZBONUSPOINTS FROM ZUSER ORDER BY Z_PK")
            #expect(before.count == after.count && !after.isEmpty)
            for (old, new) in zip(before, after) {
                let expected = old[1].string.flatMap { Int16($0) }.map(Int64.init) ?? 0
                #expect(new[1] == .integer(expected), "user \(old[0]): \(old[1]) → \(new[1])")
            }
            let verdict = try IntegrityVerifier(source: v1, destination: v2, mappingModels: [mapping])
                .verify(sourceStoreAt: source, destinationStoreAt: destination)
            #expect(verdict.violations.isEmpty, "\(verdict.violations)")
        }
    }
}

/// A policy that states it answers no selector, as the app's class would without its `@objc` method.
private final class DefaultPolicyStandIn: EntityMigrationPolicy {
    var answeredSelectors: Set<String>? { [] }
}
