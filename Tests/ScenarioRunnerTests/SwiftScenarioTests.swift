import DataGeneration
import Foundation
import Instrumentation
import MigrationEngine
import ScenarioRunner
import TestFixtures
import Testing

/// Scenarios built in Swift, with a dataset made in Swift, run as their files do.
@Suite("Scenarios built in Swift")
struct SwiftScenarioTests {
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios/models")

    /// The library dataset of `Scenarios/datasets/library.yaml`, with an entry for `Book.format`, which only V2
    /// and later have (the chain's first version leaves it out).
    static let datasetText = """
        seed: 42
        objects: { Author: 0.1, Book: 0.9 }
        relationships:
          Author.books: { count: [4, 14] }
        attributes:
          Author.name: { length: [6, 20] }
          Book.title: { length: [10, 40], distinct: 50 }
          Book.format: { nullRatio: 0 }
        stringLength: [8, 24]
        nullRatio: 0.2
        """
    static let dataset = Dataset(seed: 42, stringLength: IntRange(8, 24), nullRatio: 0.2)
        .objects("Author", 0.1).objects("Book", 0.9)
        .relationship("Author.books", count: 4...14)
        .attribute("Author.name", length: 6...20)
        .attribute("Book.title", length: 10...40, distinct: 50)
        .attribute("Book.format", nullRatio: 0)

    /// One repetition of `scenario`'s cell at `size`, run in this process in `folder`; the source store it made
    /// is left there.
    static func run(_ scenario: Scenario, size: Int, in folder: URL) throws -> CellSample {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let spec = CellSpec(
            scenarioFile: scenario.file, scenario: scenario.name, size: size, mode: scenario.modes.all[0])
        return try CellExecution(
            scenario: scenario, spec: spec, heap: UnavailableHeapStatistics(), folder: folder.path
        ).run()
    }

    @Test func aDatasetInCodeGivesTheSameStoreAsItsFile() throws {
        try withTemporaryFolder { folder in
            let datasetFile = try write(Self.datasetText, to: "library.yaml", in: folder)
            let model = Self.models.appendingPathComponent("library-history.yaml").path
            let file = try write(
                """
                name: library-chain-swift
                model: \(model)
                chain: [V1, V2, V3, V4]
                dataset: \(datasetFile)
                sizes: { quick: [600], full: [600] }
                repetitions: { quick: 1, full: 1 }
                """, to: "scenario.yaml", in: folder)
            let fromFile = try ScenarioLoader.load(path: file)
            let inSwift = try Scenario(
                name: "library-chain-swift", model: model, chain: ["V1", "V2", "V3", "V4"], dataset: Self.dataset,
                sizes: [600])
            #expect(try Dataset.load(path: datasetFile) == Self.dataset)
            #expect(inSwift.datasetValue == Self.dataset && inSwift.dataset == nil)
            #expect(inSwift.modes == fromFile.modes && inSwift.modes.path == [.direct])
            #expect(try inSwift.check().keys.sorted { $0.rawValue < $1.rawValue } == [.direct])

            let fileSample = try Self.run(fromFile, size: 600, in: folder.appendingPathComponent("file"))
            let swiftSample = try Self.run(inSwift, size: 600, in: folder.appendingPathComponent("swift"))
            let fileStore = folder.appendingPathComponent("file/source.sqlite").path
            let swiftStore = folder.appendingPathComponent("swift/source.sqlite").path
            #expect(FileManager.default.contentsEqual(atPath: fileStore, andPath: swiftStore))
            #expect(fileSample.objects == 600 && swiftSample.objects == fileSample.objects)
            #expect(swiftSample.edges == fileSample.edges && swiftSample.edges > 0)
            #expect(swiftSample.steps == fileSample.steps && swiftSample.verification == fileSample.verification)
            #expect(swiftSample.verification.passed, "\(swiftSample.verification)")
        }
    }

    /// The dataset value is the scenario's: without it the generator's defaults give another store.
    @Test func theDatasetValueShapesTheStore() throws {
        try withTemporaryFolder { folder in
            let model = Self.models.appendingPathComponent("library-history.yaml").path
            let shaped = try Scenario(
                name: "shaped", model: model, chain: ["V1", "V2"], dataset: Self.dataset, sizes: [200])
            let plain = try Scenario(name: "plain", model: model, chain: ["V1", "V2"], sizes: [200])
            let shapedSample = try Self.run(shaped, size: 200, in: folder.appendingPathComponent("shaped"))
            let plainSample = try Self.run(plain, size: 200, in: folder.appendingPathComponent("plain"))
            #expect(shapedSample.objects == 200 && plainSample.objects == 400)
        }
    }

    @Test(arguments: [
        ("Library", ["V1", "V2"], [10], 1, "'name' must be lowercase letters, digits and dashes, not 'Library'"),
        ("library", ["V1"], [10], 1, "'chain' must list at least two versions, oldest first"),
        ("library", ["V1", "V2"], [0], 1, "'sizes' must list 1 to 100 sizes from 1 to 100000000"),
        ("library", ["V1", "V2"], [10], 0, "'repetitions' must be from 1 to 100"),
    ])
    func aScenarioInSwiftIsRefusedAsItsFileWouldBe(
        name: String, chain: [String], sizes: [Int], repetitions: Int, message: String
    ) {
        #expect {
            _ = try Scenario(
                name: name, model: "library.yaml", chain: chain, sizes: sizes, repetitions: repetitions)
        } throws: { error in
            "\(error)" == "scenario '\(name)' (built in Swift): \(message)"
        }
    }
}
