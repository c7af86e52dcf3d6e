public import Foundation
import PersistentStore
public import ReportModel

/// `benchmark generator`: store generation against the raw-insert floor, each repetition of each in a fresh
/// child process, alternating; the floor ratio is the median of each generation over the floor right after it.
///
/// Targets, at the largest size: at least 500,000 objects/s (the machine's: shown, not gated), at most 1.5× the
/// floor (a timing), and a peak heap at most 1.5× the smallest size's (memory). See ``BenchmarkTarget``.
public struct GeneratorBenchmark: Sendable {
    /// The model file.
    public var model: String
    /// The dataset file.
    public var dataset: String
    /// The model version generated.
    public var version: String
    /// Store sizes, smallest first.
    public var sizes: [Int]
    /// Repetitions of each measurement.
    public var repetitions: Int
    /// A scratch folder for the stores.
    public var folder: URL

    /// A benchmark of `sizes`, each measured `repetitions` times.
    public init(model: String, dataset: String, version: String, sizes: [Int], repetitions: Int, folder: URL) {
        self.model = model
        self.dataset = dataset
        self.version = version
        self.sizes = sizes
        self.repetitions = repetitions
        self.folder = folder
    }

    /// Runs every repetition through `launch`, telling `progress` what starts.
    public func run(launch: BenchmarkLauncher, progress: (String) -> Void = { _ in }) throws -> GeneratorBenchmarkReport
    {
        var results: [GeneratorSizeResult] = []
        let store = folder.appendingPathComponent("generated.sqlite").path
        let copy = folder.appendingPathComponent("floor.sqlite").path
        for size in sizes {
            var generated: [BenchmarkSample] = []
            var floor: [BenchmarkSample] = []
            for repetition in 1...repetitions {
                progress(
                    "benchmark generator: size \(BenchmarkFormat.grouped(size)), run \(repetition) of \(repetitions)")
                generated.append(
                    try launch(
                        .generate(model: model, version: version, dataset: dataset, size: size, output: store)))
                floor.append(try launch(.floorInsert(source: store, output: copy)))
                for path in [store, copy] { Store.remove(at: path) }
            }
            results.append(GeneratorSizeResult(size: size, generated: generated, floor: floor))
        }
        return GeneratorBenchmarkReport(results: results)
    }
}

/// One size's generations and floors.
public struct GeneratorSizeResult: Sendable, Hashable, Codable {
    /// Objects asked for.
    public var size: Int
    /// Objects made (the dataset's multiples of `size`).
    public var objects: Int
    /// Each generation's time, peak heap and instructions.
    public var generation: BenchmarkCell
    /// Each floor run's, right after its generation.
    public var floor: BenchmarkCell

    /// The figures of `generated` and `floor`, one of each per repetition.
    public init(size: Int, generated: [BenchmarkSample], floor: [BenchmarkSample]) {
        self.size = size
        objects = generated.last?.objectCount ?? 0
        generation = BenchmarkCell(generated)
        self.floor = BenchmarkCell(floor)
    }

    /// Objects per second at the median time.
    public var objectsPerSecond: Double { Double(objects) / generation.seconds.median }

    /// The median of each generation's time over the floor run made right after it.
    public var floorRatio: Double { generation.seconds.pairedRatio(over: floor.seconds)?.median ?? .nan }
}

/// What `benchmark generator` measured, and its targets.
public struct GeneratorBenchmarkReport: Sendable, Hashable, Codable {
    /// Each size's figures, smallest first.
    public var results: [GeneratorSizeResult]
    /// The targets, judged (see ``BenchmarkTarget``).
    public var targets: [BenchmarkTarget]

    /// The report of `results`, with its targets judged.
    public init(results: [GeneratorSizeResult]) {
        self.results = results
        var targets: [BenchmarkTarget] = []
        if let largest = results.last {
            let objects = BenchmarkFormat.grouped(largest.objects)
            targets.append(
                .reported(
                    "objects per second at \(objects) objects", measured: largest.objectsPerSecond, atLeast: 500_000))
            targets.append(
                .timing(
                    "time against the floor at \(objects) objects", times: largest.generation,
                    reference: largest.floor, limit: 1.5))
        }
        if let smallest = results.first, let largest = results.last, results.count > 1 {
            let small = smallest.generation.peakHeapBytes?.median
            let large = largest.generation.peakHeapBytes?.median
            var growth = BenchmarkTarget.memory(
                "peak heap growth \(BenchmarkFormat.grouped(smallest.objects)) → "
                    + "\(BenchmarkFormat.grouped(largest.objects)) objects",
                median: small.flatMap { small in large.map { $0 / small } }, limit: 1.5, isRatio: true)
            if let small, let large {
                growth.measured +=
                    " (\(BenchmarkFormat.mebibytes(small)) → \(BenchmarkFormat.mebibytes(large)))"
            }
            targets.append(growth)
        }
        self.targets = targets
    }

    /// The table `benchmark generator` prints.
    public func table() -> String {
        let counted = results.contains { $0.generation.instructions != nil || $0.generation.underValgrind == true }
        var lines = [
            "size        objects     engine s (min–max)     floor s (min–max)      ratio   objects/s    peak heap"
                + (counted ? "     instructions (floor)" : "")
        ]
        for result in results {
            let engine = result.generation.seconds
            let floor = result.floor.seconds
            let heap = result.generation.peakHeapBytes.map { BenchmarkFormat.mebibytes($0.median) } ?? "unavailable"
            var line = String(
                format: "%-11d %-11d %6.3f (%.3f–%.3f)   %6.3f (%.3f–%.3f)   %5.2f×  %@ %@",
                result.size, result.objects, engine.median, engine.min, engine.max, floor.median, floor.min, floor.max,
                result.floorRatio, BenchmarkFormat.padded(BenchmarkFormat.grouped(Int(result.objectsPerSecond)), 12),
                counted ? BenchmarkFormat.padded(heap, 12) : heap)
            if counted {
                let count = { (cell: BenchmarkCell) in
                    cell.instructions.map { BenchmarkFormat.grouped(Int($0.median)) } ?? "unavailable"
                }
                line += " \(count(result.generation)) (\(count(result.floor)))"
            }
            lines.append(line)
        }
        lines.append("")
        lines += targets.map(\.line)
        return lines.joined(separator: "\n")
    }
}
