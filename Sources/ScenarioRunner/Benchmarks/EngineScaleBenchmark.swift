public import Foundation
import PersistentStore
import ReportModel

/// `benchmark engine --scale`: the streaming custom transform and its copy floor at 100,000, 1,000,000 and
/// 10,000,000 objects, with the fitted exponent of time against size (1 is linear).
public struct EngineScaleBenchmark: Sendable {
    /// The sizes measured.
    public static let sizes = [100_000, 1_000_000, 10_000_000]

    /// Repetitions of each measurement.
    public var repetitions: Int
    /// A scratch folder for the stores.
    public var folder: URL

    /// A benchmark repeating each measurement `repetitions` times.
    public init(repetitions: Int, folder: URL) {
        self.repetitions = repetitions
        self.folder = folder
    }

    /// Runs every repetition through `launch`, telling `progress` what starts.
    public func run(launch: BenchmarkLauncher, progress: (String) -> Void = { _ in }) throws -> EngineScaleReport {
        // Every size's source first; then each repetition runs every size, one after the other, so that a slow
        // spell of the shared machine falls on one repetition of each size rather than on every repetition of
        // one size, and the growth is taken per repetition (see ``EngineScaleReport``).
        var sources: [Int: String] = [:]
        defer { for source in sources.values { Store.remove(at: source) } }
        for size in Self.sizes {
            let source = folder.appendingPathComponent("scale-\(size).sqlite").path
            _ = try launch(EngineBenchmark.generate(EngineBenchmark.dataset, size: size, output: source))
            sources[size] = source
        }
        let output = folder.appendingPathComponent("scale-out.sqlite").path
        let floorStore = folder.appendingPathComponent("scale-floor.sqlite").path
        var cells: [Int: [String: [BenchmarkSample]]] = [:]
        for repetition in 1...repetitions {
            for size in Self.sizes {
                progress(
                    "benchmark engine --scale: run \(repetition) of \(repetitions), size \(BenchmarkFormat.grouped(size))"
                )
                cells[size, default: [:]]["floor copy", default: []].append(
                    try launch(
                        .floorSQL(script: EngineBenchmark.floor("copy"), store: floorStore, attach: sources[size])))
                Store.remove(at: floorStore)
                cells[size, default: [:]]["streaming", default: []].append(
                    try launch(EngineBenchmark.migration(sources[size]!, .streaming, output: output)))
                Store.remove(at: output)
            }
        }
        return EngineScaleReport(
            results: Self.sizes.map { EngineSizeResult(size: $0, cells: cells[$0]!.mapValues(BenchmarkCell.init)) })
    }
}

/// The scale run's figures, the fitted exponent, and the targets of issue 16: streaming time 1,000,000 →
/// 10,000,000 at most 11× (a timing: the times at 10,000,000 against 11 × those at 1,000,000 of the same
/// repetitions) and its peak heap at most 1.25× (memory).
public struct EngineScaleReport: Sendable, Hashable, Codable {
    /// Each size's steps, smallest first.
    public var results: [EngineSizeResult]
    /// The slope of log(time) against log(size), by least squares over the medians.
    public var exponent: Double?
    /// The floor's own growth 1,000,000 → 10,000,000 (median of paired ratios): how much the machine alone
    /// slows at the larger size, which the streaming target cannot tell from the engine.
    public var floorGrowth: Double?
    /// The targets, judged (see ``BenchmarkTarget``).
    public var targets: [BenchmarkTarget]

    /// The report of `results`, with its targets judged.
    public init(results: [EngineSizeResult]) {
        self.results = results
        exponent = Self.slope(
            results.compactMap { result in
                result.cells["streaming"].map { (log(Double(result.size)), log($0.seconds.median)) }
            })
        let bySize = Dictionary(uniqueKeysWithValues: results.map { ($0.size, $0) })
        let million = bySize[1_000_000]?.cells
        let tenMillion = bySize[10_000_000]?.cells
        floorGrowth = tenMillion?["floor copy"].flatMap { larger in
            million?["floor copy"].flatMap { larger.seconds.pairedRatio(over: $0.seconds)?.median }
        }
        var targets: [BenchmarkTarget] = []
        if let million = million?["streaming"], let tenMillion = tenMillion?["streaming"] {
            targets.append(
                .timing("streaming time 1,000,000 → 10,000,000", times: tenMillion, reference: million, limit: 11))
            targets.append(
                .memory(
                    "streaming peak heap 1,000,000 → 10,000,000",
                    median: tenMillion.peakHeapBytes.flatMap { ten in
                        million.peakHeapBytes.map { ten.median / $0.median }
                    },
                    limit: 1.25, isRatio: true))
        }
        self.targets = targets
    }

    /// The least-squares slope through `points`; nil for fewer than two distinct x values.
    public static func slope(_ points: [(x: Double, y: Double)]) -> Double? {
        guard points.count >= 2 else { return nil }
        let meanX = points.map(\.x).reduce(0, +) / Double(points.count)
        let meanY = points.map(\.y).reduce(0, +) / Double(points.count)
        let spread = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        guard spread > 0 else { return nil }
        return points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) } / spread
    }

    /// The table `benchmark engine --scale` prints.
    public func table() -> String {
        var lines = EngineSizeResult.table(
            results, order: ["floor copy", "streaming"], instructions: EngineSizeResult.showsInstructions(results))
        lines.append("")
        lines.append(
            "fitted exponent of streaming time against size: " + (exponent.map { String(format: "%.3f", $0) } ?? "—"))
        if let floorGrowth {
            lines.append(String(format: "the floor's own time 1,000,000 → 10,000,000: %.2f×", floorGrowth))
        }
        let overFloor = results.compactMap { result in
            result.cells["streaming"].flatMap { cell in
                result.cells["floor copy"].flatMap { cell.seconds.pairedRatio(over: $0.seconds) }
            }.map { "\(BenchmarkFormat.ratio($0.median)) at \(BenchmarkFormat.grouped(result.size))" }
        }
        if !overFloor.isEmpty { lines.append("streaming against its floor: " + overFloor.joined(separator: ", ")) }
        lines += targets.map(\.line)
        return lines.joined(separator: "\n")
    }
}
