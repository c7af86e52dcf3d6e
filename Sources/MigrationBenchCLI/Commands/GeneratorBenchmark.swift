import ArgumentParser
import Foundation
import PersistentStore

/// `migration-bench benchmark generator`: generation speed and memory against the raw-insert floor.
struct GeneratorBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generator",
        abstract: "Measure store generation against the raw-insert floor, in fresh child processes.",
        discussion: """
            For each size and repetition, one child process runs 'generate' (timed from creating the file to \
            the last sync, peak heap from jemalloc) and another runs 'benchmark floor-insert' on the result: the \
            same rows inserted through bare prepared statements in one transaction. Runs alternate, and medians \
            are reported; the floor ratio is the median of each run over the floor run right after it. Targets: at least 500,000 objects/s and at most 1.5× the floor at the largest size; \
            peak heap at the largest size at most 1.5× the peak at the smallest. \
            --gate gates on the two measured against the floor and the smaller store; objects/s depends on \
            the machine and is reported only.
            """)

    @Option(name: .long, help: "The model (default: Scenarios/models/library.yaml).")
    var model = "Scenarios/models/library.yaml"

    @Option(name: .long, help: "The dataset (default: Scenarios/datasets/library.yaml).")
    var dataset = "Scenarios/datasets/library.yaml"

    @Option(name: .long, help: "The model version to generate (default: V1, which the default dataset describes).")
    var version = "V1"

    @OptionGroup var benchmark: BenchmarkOptions

    func run() throws {
        try reportingInputErrors {
            let sizes = benchmark.resolvedSizes
            let repetitions = benchmark.resolvedRepetitions
            let folder = try benchmark.makeScratchFolder()
            defer { benchmark.removeScratchFolder(folder) }

            var results: [SizeResult] = []
            for size in sizes {
                var engine: [Double] = []
                var floor: [Double] = []
                var heap: [Int] = []
                var objects = 0
                for repetition in 1...repetitions {
                    printError(
                        "benchmark generator: size \(ProgressBar.grouped(size)), run \(repetition) of \(repetitions)")
                    let store = folder.appendingPathComponent("generated.sqlite").path
                    let copy = folder.appendingPathComponent("floor.sqlite").path
                    let generated = try ChildProcess.json([
                        "generate", "--model", model, "--version", version, "--dataset", dataset, "--size",
                        String(size),
                        "--output", store, "--overwrite", "--json",
                    ])
                    engine.append(generated["seconds"] as? Double ?? .nan)
                    if let peak = generated["peakHeapBytes"] as? Int { heap.append(peak) }
                    objects = (generated["objects"] as? [String: Int])?.values.reduce(0, +) ?? 0
                    let floorRun = try ChildProcess.json([
                        "benchmark", "floor-insert", "--source", store, "--output", copy,
                    ])
                    floor.append(floorRun["seconds"] as? Double ?? .nan)
                    for path in [store, copy] { Store.remove(at: path) }
                }
                results.append(
                    SizeResult(
                        size: size, objects: objects, engineSeconds: Summary(engine), floorSeconds: Summary(floor),
                        peakHeapBytes: heap.isEmpty ? nil : Summary(heap.map(Double.init))))
            }
            let report = GeneratorBenchmarkReport(results: results)
            print(report.table())
            try benchmark.write(report)
            if benchmark.gate && !report.relativeTargetsMet { throw ExitCode(3) }
        }
    }
}

/// Median, minimum and maximum of repeated measurements.
struct Summary: Codable {
    let median: Double
    let min: Double
    let max: Double
    let samples: [Double]

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        self.samples = samples
    }

    /// The median of each sample over the sample of `base` taken in the same run, right before or after it. Each
    /// pair shares the machine's state of the moment (page cache, the other core's load), which drifts on a
    /// shared machine; pairing keeps a slow spell on one side from deciding the ratio, as a ratio of two
    /// medians would. Nil when the samples do not pair up.
    func pairedRatio(over base: Summary) -> Double? {
        guard samples.count == base.samples.count, !samples.isEmpty else { return nil }
        return Summary(zip(samples, base.samples).map { $0 / $1 }).median
    }
}

struct SizeResult: Codable {
    let size: Int
    let objects: Int
    let engineSeconds: Summary
    let floorSeconds: Summary
    let peakHeapBytes: Summary?

    var objectsPerSecond: Double { Double(objects) / engineSeconds.median }

    /// The median of each run's time over the floor run made right after it (see ``Summary/pairedRatio(over:)``).
    var floorRatio: Double { engineSeconds.pairedRatio(over: floorSeconds) ?? .nan }
}

struct GeneratorBenchmarkReport: Codable {
    struct Target: Codable {
        let name: String
        let limit: String
        let measured: String
        let met: Bool?
    }

    let results: [SizeResult]
    let targets: [Target]

    init(results: [SizeResult]) {
        self.results = results
        var targets: [Target] = []
        if let largest = results.last {
            targets.append(
                Target(
                    name: "objects per second at \(largest.objects) objects", limit: "≥ 500,000",
                    measured: ProgressBar.grouped(Int(largest.objectsPerSecond)),
                    met: largest.objectsPerSecond >= 500_000))
            targets.append(
                Target(
                    name: "time against the floor at \(largest.objects) objects", limit: "≤ 1.5×",
                    measured: String(format: "%.2f×", largest.floorRatio), met: largest.floorRatio <= 1.5))
        }
        if let smallest = results.first, let largest = results.last, results.count > 1 {
            if let small = smallest.peakHeapBytes?.median, let large = largest.peakHeapBytes?.median {
                let growth = large / small
                targets.append(
                    Target(
                        name: "peak heap growth \(smallest.objects) → \(largest.objects) objects", limit: "≤ 1.5×",
                        measured: String(
                            format: "%.2f× (%@ → %@)", growth, Self.mebibytes(small), Self.mebibytes(large)),
                        met: growth <= 1.5))
            } else {
                targets.append(
                    Target(
                        name: "peak heap growth", limit: "≤ 1.5×",
                        measured: "unavailable (jemalloc is not the allocator)",
                        met: nil))
            }
        }
        self.targets = targets
    }

    /// The targets that compare against something measured in the same run: floor ratio and memory growth.
    var relativeTargetsMet: Bool {
        targets.filter { !$0.name.hasPrefix("objects per second") }.allSatisfy { $0.met ?? true }
    }

    func table() -> String {
        var lines = [
            "size        objects     engine s (min–max)     floor s (min–max)      ratio   objects/s    peak heap"
        ]
        for result in results {
            let heap = result.peakHeapBytes.map { Self.mebibytes($0.median) } ?? "unavailable"
            lines.append(
                String(
                    format: "%-11d %-11d %6.3f (%.3f–%.3f)   %6.3f (%.3f–%.3f)   %5.2f×  %@ %@",
                    result.size, result.objects, result.engineSeconds.median, result.engineSeconds.min,
                    result.engineSeconds.max, result.floorSeconds.median, result.floorSeconds.min,
                    result.floorSeconds.max, result.floorRatio,
                    padded(ProgressBar.grouped(Int(result.objectsPerSecond)), 12), heap)
            )
        }
        lines.append("")
        for target in targets {
            let verdict = target.met.map { $0 ? "met" : "MISSED" } ?? "not measured"
            lines.append(
                "\(verdict.padding(toLength: 12, withPad: " ", startingAt: 0)) \(target.name): \(target.measured) (target \(target.limit))"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func mebibytes(_ bytes: Double) -> String { String(format: "%.1f MiB", bytes / 1_048_576) }
}
