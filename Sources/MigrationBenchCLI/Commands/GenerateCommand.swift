import ArgumentParser
import DataGeneration
import Foundation
import Instrumentation
import ObjectModel
import PersistentStore
import Yams

/// `migration-bench generate`: a synthetic store at any model version and size.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a synthetic store of any size at any model version.",
        discussion: """
            Without --dataset every concrete entity gets SIZE objects, relationships are filled as the model \
            allows, and optional values are nil one time in ten. The same seed, version and size always give \
            the same content. The store is written beside OUTPUT and moved into place only when complete.
            """)

    @OptionGroup var modelOptions: ModelOptions

    @Option(name: .long, help: "The model version (default: the model's current version).")
    var version: String?

    @Option(name: .long, help: "The size that the dataset's per-entity multiples apply to.")
    var size: Int

    @Option(name: .long, help: "The seed (default: the dataset's seed, or 1).")
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("A dataset description (YAML or JSON; see the README).", valueName: "file"))
    var dataset: String?

    @Option(name: .long, help: ArgumentHelp("Where to write the store.", valueName: "store"))
    var output: String

    @Flag(name: .long, help: "Replace OUTPUT if it exists.")
    var overwrite = false

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard (0...InputLimits.size).contains(size) else {
            throw ValidationError("--size must be from 0 to \(InputLimits.size)")
        }
    }

    func run() throws {
        try reportingInputErrors {
            let history = try modelOptions.load()
            let modelVersion =
                try version.map { name throws(ModelError) in try history.requireVersion(name) }
                ?? history.currentVersion
            var description = try dataset.map(Self.loadDataset) ?? Dataset()
            if let seed { description.seed = seed }
            let generator = try StoreGenerator(
                version: modelVersion, dataset: description.applying(to: modelVersion, in: history), size: size)

            let manager = FileManager.default
            if manager.fileExists(atPath: output) && !overwrite {
                throw InputError("\(output): a file already exists here; use --overwrite to replace it")
            }
            let partial = output + ".partial-\(UUID().uuidString.prefix(8))"
            let sidecars = ["", "-wal", "-shm", "-journal"].map { partial + $0 }
            sidecars.forEach(Interruption.remove(onInterruption:))
            defer {
                Store.remove(at: partial)
                sidecars.forEach(Interruption.keep)
            }

            let heap = currentHeapStatistics()
            heap.resetThreadPeak()
            let bar = ProgressBar(label: "generate")
            let counter = InstructionCounter()
            counter.beginPhase()
            let result = try generator.generate(at: partial) { done, total in
                bar.update(done: done, total: total, unit: "objects")
            }
            let instructions = counter.endPhase()
            bar.finish()
            let peak = heap.threadPeakBytes()
            if overwrite { Store.remove(at: output) }
            try manager.moveItem(atPath: partial, toPath: output)

            var report = GenerateReport(result: result, peakHeapBytes: peak, usage: .current())
            report.instructions = instructions
            report.instructionsUnavailable = counter.unavailableReason
            if json {
                try printJSON(report)
            } else {
                print("\(output): version '\(result.version)', seed \(result.seed)")
                for (entity, count) in result.objects.sorted(by: { $0.key < $1.key }) {
                    print("  \(entity): \(ProgressBar.grouped(count)) objects")
                }
                for (relationship, count) in result.relationships.sorted(by: { $0.key < $1.key }) {
                    print("  \(relationship): \(ProgressBar.grouped(count)) edges")
                }
                let rate = result.seconds > 0 ? Double(result.totalObjects) / result.seconds : 0
                print(String(format: "  %.2f s, %@ objects/s", result.seconds, ProgressBar.grouped(Int(rate))))
            }
        }
    }

    static func loadDataset(_ path: String) throws -> Dataset {
        try Dataset.load(path: path)
    }
}

/// The JSON of `generate --json`.
struct GenerateReport: Encodable {
    let version: String
    let seed: UInt64
    let objects: [String: Int]
    let relationships: [String: Int]
    let seconds: Double
    /// The peak heap of the generating thread, from jemalloc; null when jemalloc is not the allocator.
    let peakHeapBytes: Int?
    let maxResidentBytes: Int
    /// The generation's instructions (the hardware counter), absent when not counted.
    var instructions: Int?
    /// Why ``instructions`` is absent, when the counter knows (under callgrind the parent reads them).
    var instructionsUnavailable: String?
    /// Objects in all: what a benchmark reads (``BenchmarkSample/objectCount``).
    var objectCount: Int { objects.values.reduce(0, +) }

    init(result: GenerationResult, peakHeapBytes: Int?, usage: ResourceUsage) {
        version = result.version
        seed = result.seed
        objects = result.objects
        relationships = result.relationships
        seconds = result.seconds
        self.peakHeapBytes = peakHeapBytes
        maxResidentBytes = usage.maxResidentBytes
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(seed, forKey: .seed)
        try container.encode(objects, forKey: .objects)
        try container.encode(relationships, forKey: .relationships)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(peakHeapBytes, forKey: .peakHeapBytes)
        try container.encode(maxResidentBytes, forKey: .maxResidentBytes)
        try container.encode(objectCount, forKey: .objectCount)
        try container.encodeIfPresent(instructions, forKey: .instructions)
        try container.encodeIfPresent(instructionsUnavailable, forKey: .instructionsUnavailable)
    }

    enum CodingKeys: String, CodingKey {
        case version, seed, objects, relationships, seconds, peakHeapBytes, maxResidentBytes, objectCount
        case instructions, instructionsUnavailable
    }
}

/// The heap statistics of this process: jemalloc's when it serves malloc, else "unavailable".
func currentHeapStatistics() -> any HeapStatistics {
    JemallocHeap.make() ?? UnavailableHeapStatistics()
}
