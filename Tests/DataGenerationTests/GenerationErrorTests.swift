import DataGeneration
import Foundation
import ObjectModel
import TestFixtures
import Testing

@Suite("Generation errors")
struct GenerationErrorTests {
    /// A dataset that cannot be generated, and the names its error message must contain.
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let version: String
        let dataset: Dataset
        let names: [String]

        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "unknown entity", version: "Catalogue", dataset: Dataset(objects: ["Magazine": 1]),
            names: ["Magazine"]),
        Case(label: "abstract entity", version: "Catalogue", dataset: Dataset(objects: ["Item": 1]), names: ["Item"]),
        Case(
            label: "unknown relationship", version: "Catalogue",
            dataset: Dataset(relationships: ["Book.authors": RelationshipFill(fill: 1)]), names: ["Book.authors"]),
        Case(
            label: "unknown attribute", version: "Catalogue",
            dataset: Dataset(attributes: ["Shelf.colour": AttributeFill(nullRatio: 0)]), names: ["Shelf.colour"]),
        Case(
            label: "relationship under attributes", version: "Catalogue",
            dataset: Dataset(attributes: ["Book.chapters": AttributeFill(nullRatio: 0)]), names: ["Book.chapters"]),
        Case(
            label: "fill below 1 on a required to-one", version: "Catalogue",
            dataset: Dataset(relationships: ["Item.shelf": RelationshipFill(fill: 0.5)]), names: ["Item.shelf"]),
        Case(
            label: "fill above 1", version: "Catalogue",
            dataset: Dataset(relationships: ["Shelf.neighbour": RelationshipFill(fill: 1.5)]),
            names: ["Shelf.neighbour"]),
        Case(
            label: "impossible one-to-one", version: "CoreDataMigration_Example 4",
            dataset: Dataset(objects: ["Color": 0.5]), names: ["Post.color", "Color"]),
        Case(
            label: "required destination without objects", version: "Catalogue",
            dataset: Dataset(objects: ["Shelf": 0]), names: ["Item.shelf", "Shelf"]),
        Case(
            label: "too few children for a minimum count", version: "Catalogue",
            dataset: Dataset(objects: ["Chapter": 0.5]), names: ["Book.chapters", "Chapter"]),
        Case(
            label: "too many children for a maximum count", version: "Catalogue",
            dataset: Dataset(objects: ["Chapter": 6.5]), names: ["Chapter.book", "Book"]),
        Case(
            label: "negative objects", version: "Catalogue", dataset: Dataset(objects: ["Tag": -1]), names: ["Tag"]),
    ]

    @Test(arguments: cases)
    func unsatisfiableDatasetsAreNamed(_ failure: Case) throws {
        let version = try TestModels.version(failure.version)
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("store.sqlite").path
            #expect {
                try StoreGenerator(version: version, dataset: failure.dataset, size: 100).generate(at: path)
            } throws: { error in
                let message = try #require(error as? GenerationError).message
                return failure.names.allSatisfy { message.contains($0) }
            }
        }
    }

    /// `StoreGenerator.init` promises to throw for what "cannot be satisfied", so that nothing is written;
    /// a failed generation must not leave a store behind at the caller's path.
    @Test(arguments: cases)
    func aFailedGenerationLeavesNoFile(_ failure: Case) throws {
        let version = try TestModels.version(failure.version)
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("store.sqlite").path
            #expect(throws: GenerationError.self, "StoreGenerator.init accepts it") {
                try StoreGenerator(version: version, dataset: failure.dataset, size: 100)
            }
            _ = try? StoreGenerator(version: version, dataset: failure.dataset, size: 100).generate(at: path)
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            #expect(leftovers.isEmpty, "left behind: \(leftovers)")
        }
    }

    @Test func aNegativeSizeIsRefused() throws {
        #expect(throws: GenerationError.self) { try StoreGenerator(version: try SampleModels.catalogue(), size: -1) }
    }
}
