import Foundation
import MigrationTesting
import TestFixtures
import Testing

/// `check` on the real model histories of the fixtures, findings asserted exactly: each app's bundle as it is
/// (its mapping models found beside it by hash), then with the policies its mapping models name bound or
/// registered, as the app's own code provides them.
@Suite("check on real models")
struct FixtureCheckTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let bundle: @Sendable () -> URL
        let target: String?
        let policies: @Sendable () -> PolicyRegistry
        let bindings: PolicyBindings
        /// A dataset's YAML text, if the stores are shaped.
        var dataset: String?
        let findings: [String]
        var description: String { name }
    }

    /// A finding as one line: `error needsMappingModel A → B User.bonusPoints`.
    static func lines(_ check: ModelCheck) -> [String] {
        check.findings.map {
            [$0.severity.rawValue, $0.code, $0.steps, $0.subject].filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    static let wibosco = "CoreDataMigration_Example"
    static let plus: @Sendable () -> URL = {
        Fixtures.coreDataPlus.appendingPathComponent("SampleModel/SampleModel.xcdatamodeld")
    }
    static let plus3: @Sendable () -> URL = {
        Fixtures.coreDataPlus.appendingPathComponent("SampleModel3/SampleModel3.xcdatamodeld")
    }
    static let evolution: @Sendable () -> URL = {
        Fixtures.coreStoreEvolution.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld")
    }
    static let realm: @Sendable () -> URL = {
        Fixtures.coreDataVsRealm.appendingPathComponent("LibraryDataModel.xcdatamodeld")
    }
    static let evolutionPolicy = "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy"

    /// Core Data's own path for wibosco's stores: no mapping model from version 1 or 2 straight to 4, so the
    /// step is inferred, and version 4's required `Post.color` (a relationship where version 1 had a `color`
    /// attribute) fails on every post. The app migrates step by step (its mapping models cover one consecutive
    /// step each), so these are warnings: the progressive steps are the app's path.
    static let wiboscoDirect = [
        "warning dataLoss \(wibosco) → \(wibosco) 4 Post.color",
        "warning needsValue \(wibosco) → \(wibosco) 4 Post.color",
        "warning needsValue \(wibosco) 2 → \(wibosco) 4 Post.color",
    ]

    static let cases: [Case] = [
        // The policy class of Migration2to3 is the app's Swift code: unbound, the step cannot run.
        Case(
            name: "wibosco", bundle: { Fixtures.modelBundle }, target: nil, policies: { .builtIn() },
            bindings: PolicyBindings(),
            findings: ["error invalidMappingModel \(wibosco) 2 → \(wibosco) 3"] + wiboscoDirect),
        // Bound, it creates a Color for each post with a colour; a post without one (generated stores hold
        // some) breaks version 3's required Post.color.
        Case(
            name: "wibosco, policy bound", bundle: { Fixtures.modelBundle }, target: nil, policies: { .builtIn() },
            bindings: ExampleMigrationTests.bindings,
            findings: ["error migrationFailed \(wibosco) 2 → \(wibosco) 3"] + wiboscoDirect),
        // With every post given a colour, every store reaches version 4 step by step and verifies clean, where
        // Core Data's single step fails: the two paths differ.
        Case(
            name: "wibosco, policy bound, every post coloured", bundle: { Fixtures.modelBundle }, target: nil,
            policies: { .builtIn() }, bindings: ExampleMigrationTests.bindings, dataset: "nullRatio: 0\n",
            findings: wiboscoDirect + [
                "warning pathsDiffer \(wibosco) → \(wibosco) 4", "warning pathsDiffer \(wibosco) 2 → \(wibosco) 4",
            ]),
        // Core Data's path from SampleModel to SampleModel3 is inferred and passes; the progressive walk stops
        // at the mapping model whose policy is unbound.
        Case(
            name: "CoreDataPlus", bundle: plus, target: "SampleModel3", policies: { .builtIn() },
            bindings: PolicyBindings(),
            findings: [
                "error invalidMappingModel SampleModel2 → SampleModel3",
                "warning pathsDiffer SampleModel → SampleModel3",
            ]),
        Case(
            name: "CoreDataPlus, policy bound", bundle: plus, target: "SampleModel3", policies: { .builtIn() },
            bindings: PolicyBindings([
                "V2to3MakerPolicy": .init(
                    policy: "FindOrCreate",
                    userInfo: [
                        "attribute": "maker", "entity": "Maker", "keyAttribute": "name", "relationship": "createdBy",
                    ])
            ]), findings: []),
        Case(
            name: "CoreDataPlus SampleModel3", bundle: plus3, target: "SampleModel3_v3", policies: { .builtIn() },
            bindings: PolicyBindings(), findings: []),
        // CoreStore's demo also migrates back down: its V2 → V1 mapping model is never run going up.
        Case(
            name: "CoreStore EvolutionDemo", bundle: evolution, target: "Advanced.EvolutionDemo.V2",
            policies: { .builtIn() }, bindings: PolicyBindings(),
            findings: [
                "error invalidMappingModel Advanced.EvolutionDemo.V1 → Advanced.EvolutionDemo.V2",
                "warning backwardMappingModel Advanced.EvolutionDemo.V2 → Advanced.EvolutionDemo.V1",
            ]),
        Case(
            name: "CoreStore EvolutionDemo, policy registered", bundle: evolution, target: "Advanced.EvolutionDemo.V2",
            policies: {
                let registry = PolicyRegistry.builtIn()
                registry.register(evolutionPolicy) { PlainPolicy() }
                return registry
            }, bindings: PolicyBindings(),
            findings: ["warning backwardMappingModel Advanced.EvolutionDemo.V2 → Advanced.EvolutionDemo.V1"]),
        Case(
            name: "CoreDataVsRealm", bundle: realm, target: "LibraryDataModel v2", policies: { .builtIn() },
            bindings: PolicyBindings(), findings: ["error invalidMappingModel LibraryDataModel → LibraryDataModel v2"]),
        // With the app's toInt16WithValue: registered, its String → Integer 16 mapping model makes it clean.
        Case(
            name: "CoreDataVsRealm, function registered", bundle: realm, target: "LibraryDataModel v2",
            policies: {
                let registry = PolicyRegistry.builtIn()
                registry.register("toInt16WithValue:", for: "CustomMigration") { arguments, _ in
                    guard case .string(let text) = arguments.first, let number = Int16(text) else {
                        return .integer(0)
                    }
                    return .integer(Int64(number))
                }
                return registry
            }, bindings: PolicyBindings(), findings: []),
    ]

    @Test(arguments: cases)
    func findingsAreExactly(_ example: Case) throws {
        let model = try MigrationTestModel(
            model: example.bundle().path, policies: example.policies(), bindings: example.bindings)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataset = folder.appendingPathComponent("dataset.yaml")
        try example.dataset?.write(to: dataset, atomically: true, encoding: .utf8)
        let check = try model.check(sizes: [20], to: example.target, dataset: example.dataset.map { _ in dataset.path })
        #expect(Self.lines(check) == example.findings, "\(check.findings.map(\.message))")
        #expect(!check.steps.isEmpty)
        if !example.findings.contains(where: { $0.hasPrefix("error") }) {
            // Without errors, every step run passes, but for those a pathsDiffer warning names.
            let differing = Set(check.findings.filter { $0.code == "pathsDiffer" }.compactMap(\.from))
            #expect(check.steps.allSatisfy { $0.outcome == .passed || differing.contains($0.from) })
        }
    }

    /// The bundle alone, without the mapping model beside it: Core Data refuses String → Integer 16.
    @Test func coreDataVsRealmWithoutItsMappingModelNeedsOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("LibraryDataModel.xcdatamodeld")
        try FileManager.default.copyItem(at: Self.realm(), to: bundle)
        let check = try MigrationTestModel(model: bundle.path).check(sizes: [20], to: "LibraryDataModel v2")
        #expect(
            Self.lines(check) == ["error needsMappingModel LibraryDataModel → LibraryDataModel v2 User.bonusPoints"])
        #expect(check.steps.map(\.outcome) == [.refused])
    }
}

/// A policy with Core Data's default behaviour, standing in for an app's class that only overrides what the
/// mapping model does not need.
private final class PlainPolicy: EntityMigrationPolicy {}
