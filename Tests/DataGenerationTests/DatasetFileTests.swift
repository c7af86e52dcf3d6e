import DataGeneration
import Foundation
import TestFixtures
import Testing

/// Dataset files are checked before anything is generated: unknown keys, values of the wrong shape, keys the
/// model lacks, counts past the model's maximum and values past the documented bounds are each an error that
/// names the file, the line and the key.
@Suite("Dataset files")
struct DatasetFileTests {
    /// A dataset file's text and what its error must mention besides the file (`:line:`, the key).
    static let refused: [(label: String, text: String, mentions: [String])] = [
        ("misspelt top-level key", "seed: 3\nstringLenght: [1, 5]\n", [":2:", "stringLenght"]),
        ("misspelt fan-out key", "relationships:\n  Book.chapters: { cuont: [1, 2] }\n", [":2:", "cuont"]),
        ("misspelt entity", "objects:\n  Chapter: 2\n  Bok: 1\n", [":3:", "objects.Bok"]),
        (
            "misspelt relationship", "relationships:\n  Book.chapter: { count: 2 }\n",
            [":2:", "relationships.Book.chapter"]
        ),
        (
            "more children than the maximum count", "seed: 1\nrelationships:\n  Book.chapters: { count: [2, 9] }\n",
            [":3:", "relationships.Book.chapters", "maximum count of 6"]
        ),
        ("string length of 10^12", "stringLength: 1000000000000\n", [":1:", "stringLength"]),
        ("binary length of 10^15", "binaryLength: [1, 1000000000000000]\n", [":1:", "binaryLength"]),
        ("attribute length of 10^12", "attributes:\n  Book.isbn: { length: 1000000000000 }\n", [":2:", "Book.isbn"]),
        ("fan-out of 10^12", "relationships:\n  Shelf.items: { count: 1000000000000 }\n", [":2:", "Shelf.items"]),
        ("multiple of 10^12", "objects:\n  Tag: 1000000000000\n", [":2:", "objects.Tag"]),
        ("count on a to-one", "relationships:\n  Shelf.neighbour: { count: 2 }\n", [":2:", "Shelf.neighbour"]),
        ("a null ratio of 2", "seed: 1\nnullRatio: 2\n", [":2:", "nullRatio"]),
        ("a negative seed", "seed: -4\n", [":1:", "seed"]),
        ("a count that is not a range", "relationships:\n  Book.chapters: { count: [3, 1] }\n", [":2:", "count"]),
    ]

    @Test(arguments: refused)
    func isRefusedNamingFileLineAndKey(label: String, text: String, mentions: [String]) throws {
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("dataset.yaml").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let store = folder.appendingPathComponent("store.sqlite").path
            let error = #expect(throws: GenerationError.self) {
                let dataset = try Dataset.load(path: path)
                _ = try StoreGenerator(version: try SampleModels.catalogue(), dataset: dataset, size: 10)
                    .generate(at: store)
            }
            let message = error?.message ?? ""
            #expect(message.hasPrefix(path), "\(message)")
            for mention in mentions { #expect(message.contains(mention), "\(message) does not mention \(mention)") }
            #expect(!FileManager.default.fileExists(atPath: store))
        }
    }

    /// Sizes past the bound, and sizes whose multiples would ask for more objects than the bound, are refused
    /// before anything runs (10^12 ran until killed).
    @Test(arguments: [(1_000_000_000_000, 1.0), (100_000_000, 20.0)])
    func hugeStoresAreRefused(size: Int, multiple: Double) throws {
        #expect(throws: GenerationError.self) {
            try StoreGenerator(
                version: try SampleModels.catalogue(), dataset: Dataset(objects: ["Tag": multiple]), size: size)
        }
    }

    @Test func aWellFormedFileLoadsEveryKey() throws {
        let text = """
            seed: 9
            objects: { Tag: 0.5 }
            relationships:
              Book.chapters: { count: [1, 6] }
              Shelf.neighbour: { fill: 0.5 }
            attributes:
              Book.isbn: { length: [5, 9], nullRatio: 0, distinct: 4 }
            stringLength: 3
            binaryLength: [1, 2]
            nullRatio: 0.25
            """
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("dataset.yaml").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let dataset = try Dataset.load(path: path)
            let expected = Dataset(
                seed: 9, objects: ["Tag": 0.5],
                relationships: [
                    "Book.chapters": RelationshipFill(count: IntRange(1, 6)),
                    "Shelf.neighbour": RelationshipFill(fill: 0.5),
                ],
                attributes: ["Book.isbn": AttributeFill(nullRatio: 0, length: IntRange(5, 9), distinct: 4)],
                stringLength: IntRange(3, 3), binaryLength: IntRange(1, 2), nullRatio: 0.25)
            #expect(dataset == expected)
            _ = try StoreGenerator(version: try SampleModels.catalogue(), dataset: dataset, size: 10)
        }
    }
}
