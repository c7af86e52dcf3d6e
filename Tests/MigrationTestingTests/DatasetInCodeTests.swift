import DataGeneration
import Foundation
import MigrationTesting
import TestFixtures
import Testing

/// Datasets made in Swift, accepted where a dataset file is; one dataset for every version of a history.
@Suite("Datasets in code")
struct DatasetInCodeTests {
    /// Every post has a colour: its `color` attribute at version 1, its `hexColor` at version 2 (at versions 3
    /// and 4 `Post.color` is a required relationship, which the entry for the attribute does not concern).
    static let everyPostColoured = Dataset(seed: 3)
        .attribute("Post.color", nullRatio: 0)
        .attribute("Post.hexColor", nullRatio: 0, length: 7...7)

    static func withFolder<R>(_ body: (URL) throws -> R) throws -> R {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dataset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test func aDatasetInCodeMakesTheSameStoreAsItsFile() throws {
        let model = try MigrationTestModel(model: Fixtures.modelBundle.path)
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("dataset.yaml").path
            try """
            seed: 11
            objects: { Post: 2, Color: 2 }
            relationships:
              Post.color: { fill: 1 }
            attributes:
              Post.postID: { length: [4, 6], distinct: 3 }
              Post.hexColor: { nullRatio: 0 }
            nullRatio: 0.3
            """.write(toFile: file, atomically: true, encoding: .utf8)
            let inCode = Dataset(seed: 11, nullRatio: 0.3)
                .objects("Post", 2).objects("Color", 2)
                .relationship("Post.color", fill: 1)
                .attribute("Post.postID", length: 4...6, distinct: 3)
                .attribute("Post.hexColor", nullRatio: 0)
            let loaded = try Dataset.load(path: file)
            #expect(inCode == loaded)
            for version in ["CoreDataMigration_Example 2", "CoreDataMigration_Example 4"] {
                let fromFile = folder.appendingPathComponent("file.sqlite").path
                let fromCode = folder.appendingPathComponent("code.sqlite").path
                _ = try model.generateStore(at: fromFile, version: version, size: 30, dataset: Dataset.load(path: file))
                _ = try model.generateStore(at: fromCode, version: version, size: 30, dataset: inCode)
                #expect(FileManager.default.contentsEqual(atPath: fromFile, andPath: fromCode))
                #expect(try Data(contentsOf: URL(fileURLWithPath: fromFile)).count > 0)
                try FileManager.default.removeItem(atPath: fromFile)
                try FileManager.default.removeItem(atPath: fromCode)
            }
        }
    }

    /// An entry applies to the versions that have its property; before, version 1 refused `Post.hexColor`.
    @Test func anEntryAppliesToTheVersionsThatHaveItsProperty() throws {
        let model = try MigrationTestModel(model: Fixtures.modelBundle.path)
        try model.withGeneratedStore(at: "CoreDataMigration_Example", size: 50, dataset: Self.everyPostColoured) {
            store throws in
            #expect(try store.values("Post", keyPath: "color").allSatisfy { $0 != nil })
        }
        try model.withGeneratedStore(at: "CoreDataMigration_Example 2", size: 50, dataset: Self.everyPostColoured) {
            store throws in
            let colours = try store.values("Post", keyPath: "hexColor")
            #expect(
                colours.count == 50
                    && colours.allSatisfy { if case .string(let hex)? = $0 { hex.count == 7 } else { false } })
        }
        try model.withGeneratedStore(at: "CoreDataMigration_Example 4", size: 50, dataset: Self.everyPostColoured) {
            store throws in
            #expect(try store.count("Post") == 50)
        }
    }

    @Test func aNameInNoVersionIsStillRefused() throws {
        let model = try MigrationTestModel(model: Fixtures.modelBundle.path)
        #expect {
            try model.withGeneratedStore(
                at: "CoreDataMigration_Example 2", size: 5, dataset: Dataset().attribute("Post.hexx", nullRatio: 0)
            ) { _ in }
        } throws: { error in
            "\(error)"
                == "dataset key 'attributes.Post.hexx': names 'Post.hexx', which is not an attribute of version "
                + "'CoreDataMigration_Example 2'"
        }
    }

    /// The case: `check` on the README's setup, with every post given a colour in code, is clean;
    /// without it, generated posts without a colour stop version 3.
    @Test func checkTakesADatasetInCode() throws {
        let model = try MigrationTestModel(model: Fixtures.modelBundle.path, bindings: ExampleMigrationTests.bindings)
        let clean = try model.check(sizes: [20], dataset: Self.everyPostColoured)
        #expect(clean.errors.isEmpty, "\(clean)")
        // Every step of the app's step-by-step path passes; Core Data's single step from versions 1 and 2 fails,
        // which pathsDiffer warnings say.
        let differing = Set(clean.findings.filter { $0.code == "pathsDiffer" }.compactMap(\.from))
        #expect(!clean.steps.isEmpty && clean.steps.allSatisfy { $0.outcome == .passed || differing.contains($0.from) })
        let uncoloured = try model.check(sizes: [20])
        #expect(uncoloured.errors.map(\.code) == ["migrationFailed"], "\(uncoloured)")
    }
}
