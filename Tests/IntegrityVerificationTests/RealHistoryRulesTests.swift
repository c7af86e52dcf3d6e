import Foundation
import IntegrityVerification
import MigrationEngine
import ObjectModel
import PersistentStore
import TestFixtures
import Testing

/// The lightweight rules against the model histories of real apps: which steps Core Data infers, which it
/// refuses, and where the inferred mapping would fail or lose data — each such step being one the app ships a
/// mapping model for. Where a real store exists, the inferred step runs on a copy and the verifier checks it.
@Suite("Lightweight rules on real model histories")
struct RealHistoryRulesTests {
    struct Step: Sendable, CustomStringConvertible {
        let bundle: String
        let from: String
        let to: String
        /// The refused property (`Entity.property`), or nil when the step is inferred.
        let refused: String?
        let needsValue: [String]
        let dataLoss: [String]
        var description: String { "\(from) → \(to)" }
    }

    static let wibosco = "CoreDataMigration_Example.xcdatamodeld"
    static let sampleModel = "coredataplus/SampleModel/SampleModel.xcdatamodeld"
    static let sampleModel3 = "coredataplus/SampleModel3/SampleModel3.xcdatamodeld"
    static let evolution = "corestore-evolution/Advanced.EvolutionDemo.V1.xcdatamodeld"
    static let vsRealm = "coredatavsrealm/LibraryDataModel.xcdatamodeld"

    static let steps: [Step] = [
        // wibosco ships Migration1to2 (hexColor from $source.color): inference would drop every colour.
        Step(
            bundle: wibosco, from: "CoreDataMigration_Example", to: "CoreDataMigration_Example 2", refused: nil,
            needsValue: [], dataLoss: ["Post.color"]),
        // … and Migration2to3, whose policy creates the now required Color of every post. Inferred, hexColor is
        // dropped, but an attribute replaced by a relationship is no likely rename: a removal, flagged by the
        // required Color (needsValue) rather than as dataLoss.
        Step(
            bundle: wibosco, from: "CoreDataMigration_Example 2", to: "CoreDataMigration_Example 3", refused: nil,
            needsValue: ["Post.color"], dataLoss: []),
        Step(
            bundle: wibosco, from: "CoreDataMigration_Example 3", to: "CoreDataMigration_Example 4", refused: nil,
            needsValue: [], dataLoss: []),
        Step(bundle: sampleModel, from: "SampleModel", to: "SampleModel2", refused: nil, needsValue: [], dataLoss: []),
        // CoreDataPlus ships V2toV3 (a policy that turns each car's maker into a Maker object). Inferred, the maker
        // attribute is removed beside a new relationship: no likely rename, so a removal.
        Step(
            bundle: sampleModel, from: "SampleModel2", to: "SampleModel3", refused: nil, needsValue: [],
            dataLoss: []),
        Step(
            bundle: sampleModel3, from: "SampleModel3", to: "SampleModel3_v2", refused: nil, needsValue: [],
            dataLoss: []),
        Step(
            bundle: sampleModel3, from: "SampleModel3_v2", to: "SampleModel3_v3", refused: nil, needsValue: [],
            dataLoss: []),
        // CoreStore ships Advanced.EvolutionDemo.V2.FromV1 (numberOfFlippers from $source.numberOfFlagella).
        Step(
            bundle: evolution, from: "Advanced.EvolutionDemo.V1", to: "Advanced.EvolutionDemo.V2", refused: nil,
            needsValue: [], dataLoss: ["Creature.numberOfFlagella"]),
        // CoreDataVsRealm ships v1_to_v2 (toInt16WithValue:): String → Integer 16 is refused.
        Step(
            bundle: vsRealm, from: "LibraryDataModel", to: "LibraryDataModel v2", refused: "User.bonusPoints",
            needsValue: [], dataLoss: []),
    ]

    static func history(_ bundle: String) throws -> ModelHistory {
        try ModelLoader.load(path: Fixtures.root.appendingPathComponent(bundle).path)
    }

    @Test(arguments: steps)
    func eachRealStepIsDecidedAsCoreDataDecidesIt(_ step: Step) throws {
        let history = try Self.history(step.bundle)
        let source = try history.requireVersion(step.from)
        let destination = try history.requireVersion(step.to)
        do {
            let plan = try MappingInference.plan(from: source, to: destination)
            #expect(step.refused == nil, "inferred: \(plan.changes)")
            func subjects(_ kind: LightweightChange.Kind) -> [String] {
                plan.changes.filter { $0.change == kind }.map { "\($0.entity).\($0.property ?? "")" }.sorted()
            }
            #expect(subjects(.needsValue) == step.needsValue)
            #expect(subjects(.dataLoss) == step.dataLoss)
        } catch {
            let refused = error.problems.map { "\($0.entity).\($0.property ?? "")" }
            #expect(refused == [step.refused].compactMap { $0 }, "\(error)")
        }
    }

    /// Inferred steps on stores Core Data wrote: migrated in place and verified, or, where a post needs a
    /// Color that nothing creates, refused at run time as Core Data's 134110 refuses it.
    @Test(
        arguments: [
            ("stores/CoreDataMigration_Example_1.sqlite", wibosco, "CoreDataMigration_Example 2", nil),
            ("stores/CoreDataMigration_Example_2.sqlite", wibosco, "CoreDataMigration_Example 3", "Post"),
            ("coredataplus/SampleModel/Fixtures/SampleModel_V1.sqlite", sampleModel, "SampleModel2", nil),
            ("coredataplus/SampleModel3/Fixtures/SampleModel3_V1.sqlite", sampleModel3, "SampleModel3_v2", nil),
        ] as [(String, String, String, String?)])
    func realStoresMigrateOrFailAsCoreDataWould(store: String, bundle: String, to: String, failing: String?) throws {
        let history = try Self.history(bundle)
        try Fixtures.withStoreCopy(at: Fixtures.root.appendingPathComponent(store)) { copy in
            let migrated = copy.deletingLastPathComponent().appendingPathComponent("migrated.sqlite").path
            try FileManager.default.copyItem(atPath: copy.path, toPath: migrated)
            if FileManager.default.fileExists(atPath: copy.path + "-wal") {
                try FileManager.default.copyItem(atPath: copy.path + "-wal", toPath: migrated + "-wal")
            }
            let metadata = try Store.metadata(at: migrated)
            let source = try #require(history.version(matching: metadata.versionHashes))
            let destination = try history.requireVersion(to)
            let plan = try MappingInference.plan(from: source, to: destination)
            if let failing {
                #expect {
                    try InPlaceMigration(plan: plan).run(storeAt: migrated)
                } throws: { error in
                    (error as? MigrationError)?.code == .validation && "\(error)".contains("(entity=\(failing), ")
                }
                return
            }
            _ = try InPlaceMigration(plan: plan).run(storeAt: migrated)
            let result = try IntegrityVerifier(source: source, destination: destination)
                .verify(sourceStoreAt: copy.path, destinationStoreAt: migrated)
            #expect(result.passed, "\(result.summary)")
        }
    }
}
