import DataGeneration
import Foundation
import Instrumentation
import MappingModel
import MigrationEngine
import ObjectModel
import ReportModel
import ScenarioRunner
import TestFixtures
import Testing

/// Each finding of `check`, provoked by a small model history written for it.
@Suite("check findings")
struct ModelCheckerTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        /// The entities of each version, as YAML lines under `entities:`.
        let versions: [String]
        /// A YAML mapping file, if any.
        var mapping: String?
        var maxStepSeconds: Double?
        /// Versions whose store takes a step (nil: every one before the last; a version hash-identical to an
        /// earlier one takes none of its own).
        var storeVersions: Int?
        let findings: [String]
        let exitCode: Int
        var description: String { name }
    }

    static func book(_ attributes: String) -> String {
        "      - name: Book\n        attributes: [\(attributes)]\n"
    }

    /// An Author with `name` (and `more` attributes) and its books, with a renaming identifier if given.
    static func author(_ renamingIdentifier: String?, _ more: String) -> String {
        "      - name: Author\n" + (renamingIdentifier.map { "        renamingIdentifier: \($0)\n" } ?? "")
            + "        attributes: [{ name: name, type: String }\(more)]\n"
            + "        relationships: [{ name: books, destination: Book, inverse: author, toMany: true }]\n"
    }

    /// A Book with a title and its required author.
    static func bookWithAuthor() -> String {
        book("{ name: title, type: String }")
            + "        relationships: [{ name: author, destination: Author, inverse: books }]\n"
    }

    static let cases: [Case] = [
        Case(
            name: "clean",
            versions: [
                book("{ name: title, type: String }"),
                book(
                    "{ name: title, type: String }, "
                        + "{ name: isbn, type: String, optional: true }"),
            ], findings: [], exitCode: 0),
        Case(
            name: "a new required value without default",
            versions: [
                book("{ name: title, type: String }"),
                book("{ name: title, type: String }, { name: isbn, type: String }"),
            ],
            findings: ["error needsValue V1 → V2 Book.isbn"], exitCode: 2),
        Case(
            name: "a rename without renaming identifier",
            versions: [
                book("{ name: title, type: String }"), book("{ name: bookTitle, type: String, optional: true }"),
            ],
            findings: ["error dataLoss V1 → V2 Book.title"], exitCode: 2),
        Case(
            name: "a deliberate removal beside an unrelated addition",
            versions: [book("{ name: title, type: String }"), book("{ name: isbn, type: String, optional: true }")],
            findings: [], exitCode: 0),
        Case(
            name: "an incompatible type change",
            versions: [book("{ name: pages, type: String }"), book("{ name: pages, type: Integer 16 }")],
            findings: ["error needsMappingModel V1 → V2 Book.pages"], exitCode: 2),
        Case(
            name: "identical versions",
            versions: [book("{ name: title, type: String }"), book("{ name: title, type: String, default: x }")],
            findings: ["warning identicalVersionHashes V1 → V2"], exitCode: 0),
        Case(
            name: "identical versions, the later renaming",
            versions: [
                book("{ name: title, type: String }"),
                book("{ name: title, type: String, renamingIdentifier: heading }"),
            ], findings: ["warning identicalVersionHashes V1 → V2 Book.title"], exitCode: 0),
        // Wire 2.47.0's case (lightweight.md (g)): an intermediate version, hash-identical to the one before it,
        // sets a renaming identifier on an entity by mistake. Core Data migrates a store of either from the first,
        // keeps every author and the step passes: a warning, no error.
        Case(
            name: "identical versions, a stray entity renaming identifier between",
            versions: [
                author(nil, "") + bookWithAuthor(), author("Writer", "") + bookWithAuthor(),
                author(nil, ", { name: country, type: String, optional: true }") + bookWithAuthor(),
            ], storeVersions: 1, findings: ["warning identicalVersionHashes V1 → V2 Author"], exitCode: 0),
        Case(
            name: "a mapping model that skips a version",
            versions: [
                book("{ name: title, type: String }"), book("{ name: title, type: String, optional: true }"),
                book(
                    "{ name: title, type: String, optional: true }, { name: pages, type: Integer 32, optional: true }"),
            ],
            mapping: """
                sourceVersion: V1
                destinationVersion: V3
                entityMappings: [{ kind: copy, source: Book, destination: Book, attributes: { title: $source.title } }]
                """, findings: ["warning mappingModelSkipsVersions V1 → V3"], exitCode: 0),
        Case(
            name: "a step over its time budget",
            versions: [book("{ name: title, type: String }"), book("{ name: title, type: String, optional: true }")],
            maxStepSeconds: 0, findings: ["error overTimeBudget V1 → V2"], exitCode: 3),
    ]

    static func lines(_ check: ModelCheck) -> [String] {
        check.findings.map {
            [$0.severity.rawValue, $0.code, $0.steps, $0.subject].filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    static func withFolder<R>(_ body: (URL) throws -> R) throws -> R {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// Writes a model file in `folder` whose versions V1, V2, … have `versions`' entities (YAML lines).
    static func writeModel(_ versions: [String], in folder: URL) throws -> URL {
        let model = folder.appendingPathComponent("model.yaml")
        let text = versions.enumerated().map { "  - name: V\($0.offset + 1)\n    entities:\n\($0.element)" }
        try ("versions:\n" + text.joined()).write(to: model, atomically: true, encoding: .utf8)
        return model
    }

    static func run(_ checker: ModelChecker, in folder: URL) throws -> ModelChecker.Outcome {
        try checker.run(heap: UnavailableHeapStatistics(), folder: folder.appendingPathComponent("work").path)
    }

    @Test(arguments: cases)
    func eachFindingIsReportedWhereItIs(_ example: Case) throws {
        try Self.withFolder { folder in
            let model = try Self.writeModel(example.versions, in: folder)
            var options = ModelChecker.Options()
            options.sizes = [30]
            options.maxStepSeconds = example.maxStepSeconds
            if let mapping = example.mapping {
                let mappings = folder.appendingPathComponent("mappings")
                try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
                try mapping.write(to: mappings.appendingPathComponent("v1-v3.yaml"), atomically: true, encoding: .utf8)
                options.mappings = [mappings.path]  // a folder stands for the mapping files in it
            }
            let checker = try ModelChecker(
                modelPath: model.path, history: try ModelLoader.load(path: model.path), options: options)
            let outcome = try Self.run(checker, in: folder)
            #expect(Self.lines(outcome.check) == example.findings, "\(outcome.check.findings.map(\.message))")
            let verdict = Verdict.decide(cells: outcome.cells, findings: outcome.check.findings)
            #expect(verdict.exitCode == example.exitCode)
            // Every version's store takes one step, straight to the current version.
            let versions = example.storeVersions ?? example.versions.count - 1
            #expect(outcome.check.steps.count { $0.origin == $0.from } == versions)
            #expect(example.exitCode != 0 || outcome.check.steps.allSatisfy { $0.outcome == .passed })
            // A step that ran, failed or not, is a migration's time, not the check's own overhead: the migrations'
            // seconds are exactly their steps' seconds.
            #expect(outcome.check.steps.filter { $0.outcome == .failed }.allSatisfy { $0.seconds != nil })
            let stepsSeconds = outcome.check.steps.compactMap(\.seconds).reduce(0, +)
            #expect(abs(outcome.stepSeconds - stepsSeconds) < 1e-9, "\(outcome.stepSeconds) vs \(stepsSeconds)")
        }
    }

    /// A stale Xcode mapping model given for another model: Core Data would skip it.
    @Test func aMappingModelForOtherVersionsIsStale() throws {
        try Self.withFolder { folder in
            let bundle = Fixtures.coreDataPlus.appendingPathComponent("SampleModel3/SampleModel3.xcdatamodeld").path
            var options = ModelChecker.Options()
            options.sizes = [10]
            options.target = "SampleModel3_v2"
            options.mappings = [Fixtures.mappingModels.appendingPathComponent("Migration1to2.xcmappingmodel").path]
            let checker = try ModelChecker(
                modelPath: bundle, history: try ModelLoader.load(path: bundle), options: options)
            let check = try Self.run(checker, in: folder).check
            #expect(check.findings.map(\.code) == ["staleMappingModel"])
            #expect(check.findings.first?.message.contains("Migration1to2") == true)
            #expect(check.steps.map(\.outcome) == [.passed])
        }
    }

    /// A step whose store the verifier rejects: the mapping names the built-in AssignNewIdentifier, but the
    /// registry runs a policy under that name that assigns nothing, so no migrated book has its identifier.
    @Test func aStoreThatFailsVerificationIsAnError() throws {
        try Self.withFolder { folder in
            let model = try Self.writeModel(
                [
                    Self.book("{ name: title, type: String }"),
                    Self.book("{ name: title, type: String }, { name: code, type: UUID, optional: true }"),
                ], in: folder)
            let mapping = folder.appendingPathComponent("v1-v2.yaml")
            try """
            sourceVersion: V1
            destinationVersion: V2
            entityMappings:
              - kind: custom
                source: Book
                destination: Book
                policy: AssignNewIdentifier
                userInfo: { attribute: code }
                attributes: { title: $source.title }
            """.write(to: mapping, atomically: true, encoding: .utf8)
            var options = ModelChecker.Options()
            options.sizes = [30]
            options.mappings = [mapping.path]
            options.policies.register("AssignNewIdentifier") { LazyPolicy() }
            let checker = try ModelChecker(
                modelPath: model.path, history: try ModelLoader.load(path: model.path), options: options)
            let outcome = try Self.run(checker, in: folder)
            #expect(Self.lines(outcome.check) == ["error verificationFailed V1 → V2 Book.code"])
            #expect(outcome.check.steps.map(\.outcome) == [.integrityFailure])
            #expect(Verdict.decide(cells: outcome.cells, findings: outcome.check.findings).exitCode == 2)
        }
    }

    /// A needsValue step fails on a generated store whenever objects lack the value: version 2 adds a required
    /// `Book.isbn` without default, so the check's own step fails at migration time with the books counted
    /// (Core Data's 134110), while a store without books migrates and verifies. The finding is about devices,
    /// whose stores hold books: an error either way.
    @Test(arguments: [30, 0])
    func aNeedsValueStepFailsWhereObjectsLackTheValue(books: Int) throws {
        try Self.withFolder { folder in
            let model = try Self.writeModel(
                [
                    Self.book("{ name: title, type: String }"),
                    Self.book("{ name: title, type: String }, { name: isbn, type: String }"),
                ], in: folder)
            var options = ModelChecker.Options()
            options.sizes = [30]
            options.datasetValue = Dataset(objects: ["Book": books == 0 ? 0 : 1])
            let checker = try ModelChecker(
                modelPath: model.path, history: try ModelLoader.load(path: model.path), options: options)
            let check = try Self.run(checker, in: folder).check
            #expect(Self.lines(check) == ["error needsValue V1 → V2 Book.isbn"])
            let step = try #require(check.steps.first)
            if books == 0 {
                #expect(step.outcome == .passed, "\(step.failure ?? "")")
            } else {
                #expect(step.outcome == .failed)
                #expect(
                    step.failure?.contains("(entity=Book, attribute=isbn): 30 existing object(s) have none") == true,
                    "\(step.failure ?? "")")
            }
        }
    }

    @Test func aStoreAtTheTargetNeedsNoStep() throws {
        try Self.withFolder { folder in
            let bundle = Fixtures.modelBundle.path
            var options = ModelChecker.Options()
            options.sizes = [10]
            options.target = "CoreDataMigration_Example"
            let checker = try ModelChecker(
                modelPath: bundle, history: try ModelLoader.load(path: bundle), options: options)
            let outcome = try Self.run(checker, in: folder)
            #expect(outcome.check.steps.isEmpty && outcome.cells.isEmpty && outcome.check.findings.isEmpty)
        }
    }
}

/// A policy that leaves the identifier its mapping says it assigns unset.
private final class LazyPolicy: EntityMigrationPolicy {}
