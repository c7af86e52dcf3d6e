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

/// Every real mapping model of the fixtures, with its policies bound (as the app's code provides them) and with
/// them unbound and run as the base `NSEntityMigrationPolicy`; and every real store straight to its model's
/// current version, as Core Data migrates it.
@Suite("Real fixtures on Core Data's path")
struct CoreDataPathFixtureTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios")

    struct Fixture: Sendable, CustomStringConvertible {
        let mapping: String
        let bundle: String
        var description: String { (mapping as NSString).lastPathComponent }
    }

    static let fixtures: [Fixture] = [
        Fixture(mapping: "Mappings/Migration1to2.xcmappingmodel", bundle: "CoreDataMigration_Example.xcdatamodeld"),
        Fixture(mapping: "Mappings/Migration2to3.xcmappingmodel", bundle: "CoreDataMigration_Example.xcdatamodeld"),
        Fixture(
            mapping: "coredataplus/SampleModel/MappingModels/V2toV3.xcmappingmodel",
            bundle: "coredataplus/SampleModel/SampleModel.xcdatamodeld"),
        Fixture(
            mapping: "coredataplus/SampleModel/Fixtures/V2toV3.cdm",
            bundle: "coredataplus/SampleModel/SampleModel.xcdatamodeld"),
        Fixture(
            mapping: "coredatavsrealm/v1 to v2 migration/v1_to_v2.xcmappingmodel",
            bundle: "coredatavsrealm/LibraryDataModel.xcdatamodeld"),
        Fixture(
            mapping: "corestore-evolution/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel",
            bundle: "corestore-evolution/Advanced.EvolutionDemo.V1.xcdatamodeld"),
        Fixture(
            mapping: "corestore-evolution/Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel",
            bundle: "corestore-evolution/Advanced.EvolutionDemo.V1.xcdatamodeld"),
    ]

    /// The policies the apps' code provides, as bindings to built-in policies and registered Swift stand-ins.
    static func bound() throws -> (PolicyBindings, PolicyRegistry) {
        let wibosco = try PolicyBindings.load(
            path: scenarios.appendingPathComponent("policies/CoreDataMigration_Example.yaml").path)
        let bindings = wibosco.merging(
            PolicyBindings([
                "V2to3MakerPolicy": .init(
                    policy: "FindOrCreate",
                    userInfo: [
                        "attribute": "maker", "entity": "Maker", "keyAttribute": "name", "relationship": "createdBy",
                    ])
            ]))
        let registry = PolicyRegistry.builtIn()
        for name in [
            "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy", "Advanced_EvolutionDemo_V1_FromV2MigrationPolicy",
        ] {
            registry.register(name) { BasePolicy() }
        }
        registry.register("CustomMigration") { BasePolicy() }
        registry.register("toInt16WithValue:", for: "CustomMigration") { arguments, _ in
            guard case .string(let text) = arguments.first, let number = Int16(text) else { return .integer(0) }
            return .integer(Int64(number))
        }
        return (bindings, registry)
    }

    /// Migrates a store generated at the mapping model's source version (every optional value set, so that a
    /// policy has what it reads) and verifies it.
    static func migrateAndVerify(
        _ fixture: Fixture, bindings: PolicyBindings, registry: PolicyRegistry, unbound: UnboundPolicies
    ) throws -> (VerificationResult, [UnboundPolicy]) {
        let root = Fixtures.root
        let history = try ModelLoader.load(path: root.appendingPathComponent(fixture.bundle).path)
        let loaded = try MappingModelLoader.load(
            paths: [root.appendingPathComponent(fixture.mapping).path], for: history, bindings: bindings)
        let (models, notSimulated) = unbound.apply(to: loaded, registered: registry.names)
        let model = models[0]
        let source = try history.requireVersion(model.sourceVersion ?? "")
        let destination = try history.requireVersion(model.destinationVersion ?? "")
        return try withTemporaryFolder { folder in
            let from = folder.appendingPathComponent("source.sqlite").path
            let to = folder.appendingPathComponent("destination.sqlite").path
            let dataset = Dataset(seed: 5, nullRatio: 0)
            _ = try StoreGenerator(version: source, dataset: dataset, size: 30).generate(at: from)
            _ = try MigrationManager(source: source, destination: destination, policies: registry)
                .migrate(storeAt: from, to: to, mappingModels: [model])
            let verdict = try IntegrityVerifier(source: source, destination: destination, mappingModels: [model])
                .verify(sourceStoreAt: from, destinationStoreAt: to)
            return (verdict, notSimulated)
        }
    }

    @Test(arguments: fixtures)
    func everyMappingModelMigratesAndVerifiesWithItsPoliciesBound(_ fixture: Fixture) throws {
        let (bindings, registry) = try Self.bound()
        let (verdict, unbound) = try Self.migrateAndVerify(
            fixture, bindings: bindings, registry: registry, unbound: .error)
        #expect(verdict.passed, "\(verdict.violations)")
        #expect(unbound.isEmpty)
    }

    /// Unbound, a policy class is run as the base policy, and named; the declarative rest still migrates and
    /// verifies — except where the destination needs what only the policy makes: wibosco's Migration2to3, whose
    /// policy creates the Color that version 3's Post requires, fails the destination's validation with the
    /// objects counted, as Core Data's base policy would.
    @Test(arguments: fixtures)
    func everyMappingModelMigratesAndVerifiesWithItsPoliciesUnbound(_ fixture: Fixture) throws {
        let registry = PolicyRegistry.builtIn()
        let names = try MappingModelLoader.load(path: Fixtures.root.appendingPathComponent(fixture.mapping).path)
            .entityMappings.compactMap(\.policy)
        do {
            let (verdict, unbound) = try Self.migrateAndVerify(
                fixture, bindings: PolicyBindings(), registry: registry, unbound: .base)
            #expect(!fixture.mapping.hasSuffix("Migration2to3.xcmappingmodel"))
            #expect(verdict.passed, "\(verdict.violations)")
            #expect(Set(unbound.map(\.policyClass)) == Set(names))
            #expect(
                unbound.allSatisfy { $0.message.contains("'\($0.policyClass)'") && $0.message.contains($0.mapping) })
        } catch let error as MigrationError {
            #expect(fixture.mapping.hasSuffix("Migration2to3.xcmappingmodel"), "\(error)")
            #expect(error.code == .validation && "\(error)".contains("Post.color needs at least 1: 30 objects"))
        }
    }

    /// Every real store straight to its model's newest version, as Core Data migrates it — one step, the
    /// mapping model found beside the bundle whose hashes match both ends, else inferred — and verified; or,
    /// where Core Data's inferred step fails (134110), refused with the rows counted and the store untouched.
    @Test(
        arguments: Fixtures.stores.map { ("stores/\($0.file)", "CoreDataMigration_Example.xcdatamodeld") } + [
            (
                "coredataplus/SampleModel/Fixtures/SampleModel_V1.sqlite",
                "coredataplus/SampleModel/SampleModel.xcdatamodeld"
            ),
            (
                "coredataplus/SampleModel/Fixtures/SampleModel_V2.sqlite",
                "coredataplus/SampleModel/SampleModel.xcdatamodeld"
            ),
            (
                "coredataplus/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
                "coredataplus/SampleModel3/SampleModel3.xcdatamodeld"
            ),
        ])
    func everyRealStoreGoesStraightToTheCurrentVersion(_ file: String, _ model: String) throws {
        let (bindings, _) = try Self.bound()
        try Fixtures.withStoreCopy(at: Fixtures.root.appendingPathComponent(file)) { url in
            let bundle = Fixtures.root.appendingPathComponent(model).path
            let history = try ModelLoader.load(path: bundle)
            // The newest version (CoreDataPlus's bundle names its first as current).
            let last = history.versions[history.versions.count - 1].name
            let models = try MappingModelLoader.load(paths: [], for: history, modelPath: bundle, bindings: bindings)
            var migrator = try StoreMigrator(history: history, mappingModels: models)
            // Mapping models found beside the bundle are Core Data's to pick, not a progressive chain.
            migrator.path = .direct
            let plan = try WriteAheadLog.leavingNoSidecars(of: [url.path]) {
                try migrator.requiredMigrations(forStoreAt: url.path, to: last)
            }
            #expect(plan.path == .direct && plan.steps.count <= 1)
            guard let step = plan.steps.first else { return }
            let original = url.deletingLastPathComponent().appendingPathComponent("original.sqlite").path
            try FileManager.default.copyItem(atPath: url.path, toPath: original)
            let before = try Data(contentsOf: URL(fileURLWithPath: original))
            do {
                try migrator.migrateStore(at: url.path, to: last)
            } catch {
                // Version 4's Post.color is a required relationship no inferred step can fill.
                #expect("\(error)".contains("(entity=Post, relationship=color)") && "\(error)".contains("existing"))
                #expect(try Data(contentsOf: url) == before)
                return
            }
            let verdict = try IntegrityVerifier(
                source: try history.requireVersion(step.from), destination: try history.requireVersion(step.to),
                mappingModels: step.kind == .heavyweight ? step.mappingModels : []
            ).verify(sourceStoreAt: original, destinationStoreAt: url.path)
            #expect(verdict.passed, "\(verdict.violations)")
        }
    }
}

/// The base policy: what `NSEntityMigrationPolicy` itself does.
private final class BasePolicy: EntityMigrationPolicy {}

/// `Member.user` ↔ `User.memberships` (to-many) becomes `User.membership` (to-one): Core Data's inverse
/// maintenance leaves one link per user, the member with the highest key, and the migrated store verifies.
@Suite("A narrowed inverse")
struct NarrowedInverseTests {
    static func versions() throws -> (ModelVersion, ModelVersion) {
        func version(_ name: String, _ inverse: Relationship) throws -> ModelVersion {
            try ModelVersion(
                name: name,
                entities: [
                    Entity(
                        name: "User", attributes: [Attribute(name: "name", type: .string)], relationships: [inverse]),
                    Entity(
                        name: "Member", attributes: [Attribute(name: "role", type: .string)],
                        relationships: [
                            Relationship(name: "user", destination: "User", inverse: inverse.name, isOptional: true)
                        ]),
                ])
        }
        return (
            try version(
                "V1", Relationship(name: "memberships", destination: "Member", inverse: "user", isToMany: true)),
            try version(
                "V2", Relationship(name: "membership", destination: "Member", inverse: "user", isOptional: true))
        )
    }

    @Test func oneLinkPerUserIsKeptAndTheStoreVerifies() throws {
        let (v1, v2) = try Self.versions()
        let migrator = try StoreMigrator(history: try ModelHistory(versions: [v1, v2]))
        let plan = try migrator.plan(from: "V1", to: "V2")
        #expect(plan.steps[0].changes.contains { $0.change == .dataLoss && $0.property == "memberships" })
        try Self.migrateKeepingTheLastMember(from: v1, to: v2, with: migrator)
    }

    /// Migrates a store of 40 members, several of them pointing at the same user, from `v1` to `v2`: each user
    /// keeps the member with the highest key, the others lose their user, and the store verifies.
    static func migrateKeepingTheLastMember(
        from v1: ModelVersion, to v2: ModelVersion, with migrator: StoreMigrator
    ) throws {
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let store = folder.appendingPathComponent("v2.sqlite").path
            let dataset = Dataset(
                seed: 3, objects: ["User": 0.25, "Member": 1],
                relationships: ["Member.user": RelationshipFill(fill: 1)])
            _ = try StoreGenerator(version: v1, dataset: dataset, size: 40).generate(at: source)
            let shared = try Connection(path: source, mode: .readOnly).scalar(
                "SELECT COUNT(*) FROM (SELECT ZUSER FROM ZMEMBER WHERE ZUSER IS NOT NULL GROUP BY ZUSER "
                    + "HAVING COUNT(*) > 1)")
            #expect((shared?.int64 ?? 0) > 0, "users with several members")
            try FileManager.default.copyItem(atPath: source, toPath: store)
            try migrator.migrateStore(at: store)
            let connection = try Connection(path: store, mode: .readOnly)
            let links = try connection.rows(
                "SELECT m.Z_PK, m.ZUSER FROM ZMEMBER m WHERE m.ZUSER IS NOT NULL ORDER BY m.ZUSER")
            let expected = try Connection(path: source, mode: .readOnly).rows(
                "SELECT MAX(Z_PK), ZUSER FROM ZMEMBER WHERE ZUSER IS NOT NULL GROUP BY ZUSER ORDER BY ZUSER")
            #expect(links == expected, "the member with the highest key keeps its user")
            let verdict = try IntegrityVerifier(source: v1, destination: v2)
                .verify(sourceStoreAt: source, destinationStoreAt: store)
            #expect(verdict.passed, "\(verdict.violations)")
        }
    }
}
