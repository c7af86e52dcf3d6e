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
    /// Seconds of each generation.
    public var engineSeconds: Statistic
    /// Seconds of each floor run, right after its generation.
    public var floorSeconds: Statistic
    /// The generation's peak heap, or nil when jemalloc is not the allocator.
    public var peakHeapBytes: Statistic?

    /// The figures of `generated` and `floor`, one of each per repetition.
    public init(size: Int, generated: [BenchmarkSample], floor: [BenchmarkSample]) {
        self.size = size
        objects = generated.last?.objectCount ?? 0
        engineSeconds = Statistic(samples: generated.map(\.seconds))
        floorSeconds = Statistic(samples: floor.map(\.seconds))
        let heaps = generated.compactMap(\.peakHeapBytes)
        peakHeapBytes = heaps.count == generated.count ? Statistic(samples: heaps.map(Double.init)) : nil
    }

    /// Objects per second at the median time.
    public var objectsPerSecond: Double { Double(objects) / engineSeconds.median }

    /// The median of each generation's time over the floor run made right after it.
    public var floorRatio: Double { engineSeconds.pairedRatio(over: floorSeconds)?.median ?? .nan }
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
                    "time against the floor at \(objects) objects", times: largest.engineSeconds,
                    reference: largest.floorSeconds, limit: 1.5))
        }
        if let smallest = results.first, let largest = results.last, results.count > 1 {
            let small = smallest.peakHeapBytes?.median
            let large = largest.peakHeapBytes?.median
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
        var lines = [
            "size        objects     engine s (min–max)     floor s (min–max)      ratio   objects/s    peak heap"
        ]
        for result in results {
            let heap = result.peakHeapBytes.map { BenchmarkFormat.mebibytes($0.median) } ?? "unavailable"
            lines.append(
                String(
                    format: "%-11d %-11d %6.3f (%.3f–%.3f)   %6.3f (%.3f–%.3f)   %5.2f×  %@ %@",
                    result.size, result.objects, result.engineSeconds.median, result.engineSeconds.min,
                    result.engineSeconds.max, result.floorSeconds.median, result.floorSeconds.min,
                    result.floorSeconds.max, result.floorRatio,
                    BenchmarkFormat.padded(BenchmarkFormat.grouped(Int(result.objectsPerSecond)), 12), heap))
        }
        lines.append("")
        lines += targets.map(\.line)
        return lines.joined(separator: "\n")
    }
}
