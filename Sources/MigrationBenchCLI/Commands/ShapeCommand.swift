import ArgumentParser
import DataGeneration
import Foundation
import ObjectModel

/// `migration-bench shape`: a dataset file that describes a store's shape and holds none of its values.
struct ShapeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shape",
        abstract: "Write a dataset file that describes a store's shape, without any of its data.",
        discussion: """
            Reads the store read-only (its -wal too, which is neither written nor folded in) and writes objects \
            per entity; per attribute its nil share, quantiles of numbers (rounded to two significant digits) or \
            of string and binary lengths, its share of distinct values and, for booleans and small integer \
            enumerations, the frequencies; per to-one its fill, per to-many its fan-out quantiles, its share of \
            empty and for a many-to-many the share of shared destinations. `generate --dataset <file> --size <the \
            store's objects>` makes a store shaped like it; a larger size scales it. Without --model, the model is \
            the first .xcdatamodeld beside the store or in its parent folder whose versions the store fits.
            """)

    @Argument(help: ArgumentHelp("The store file (Core Data's or this tool's).", valueName: "store"))
    var store: String

    @Option(name: .long, help: ArgumentHelp("The store's model (default: found beside the store).", valueName: "path"))
    var model: String?

    @Option(name: .long, parsing: .upToNextOption, help: ModelOptions.orderHelp)
    var order: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("Where to write the dataset (default: standard output).", valueName: "file"))
    var output: String?

    @Option(name: .long, help: "The seed written into the dataset.")
    var seed: UInt64 = 1

    @Flag(name: .long, help: "Write the dataset as JSON instead of YAML.")
    var json = false

    func run() throws {
        try reportingInputErrors {
            let shape = try Self.read(store: store, model: model, order: order)
            let dataset = shape.dataset(seed: seed)
            let header = [
                "The shape of a store of \(shape.totalObjects) objects at version '\(shape.version.name)', written by "
                    + "'migration-bench shape': no stored value, only counts and distributions.",
                "generate --version '\(shape.version.name)' --size \(shape.totalObjects) --dataset <this file> makes "
                    + "a store shaped like it; a larger --size scales it.",
            ]
            let text = json ? try dataset.shapeFileJSON() : dataset.shapeFileText(header: header)
            if let output {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw InputError("\(output): cannot write the dataset: \(error.localizedDescription)")
                }
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }

    /// The shape of `store` at the version of `model` (or of the model found beside it) that its hashes match.
    static func read(store: String, model: String?, order: [String] = []) throws -> StoreShape {
        guard FileManager.default.fileExists(atPath: store) else { throw InputError("\(store): no such file") }
        if let model {
            let history = try ModelLoader.load(path: model, order: order.isEmpty ? nil : order)
            return try StoreShape.read(path: store, history: history)
        }
        let folder = URL(fileURLWithPath: store).deletingLastPathComponent()
        var tried: [String] = []
        for place in [folder, folder.deletingLastPathComponent()] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: place.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".xcdatamodeld") {
                let path = place.appendingPathComponent(name).path
                tried.append(path)
                guard let history = try? ModelLoader.load(path: path) else { continue }
                if let shape = try? StoreShape.read(path: store, history: history) { return shape }
            }
        }
        throw InputError(
            "\(store): no model given (--model) and "
                + (tried.isEmpty
                    ? "no .xcdatamodeld beside the store or in its parent folder"
                    : "none of \(tried.count) model bundle(s) beside it fits its entity hashes"))
    }
}
