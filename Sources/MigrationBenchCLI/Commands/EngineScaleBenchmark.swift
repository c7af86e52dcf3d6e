import Foundation
import PersistentStore

/// `benchmark engine --scale`: the streaming custom transform at 100,000, 1,000,000 and 10,000,000 objects,
/// with the fitted exponent of time against size (1 is linear).
struct EngineScaleBenchmark {
    static let sizes = [100_000, 1_000_000, 10_000_000]

    let repetitions: Int
    let folder: URL

    func run() throws -> EngineScaleReport {
        // Every size's source first; then each repetition runs every size, one after the other, so that a slow
        // spell of the shared machine falls on one repetition of each size rather than on every repetition of
        // one size, and the growth is taken per repetition (see ``EngineScaleReport``).
        var sources: [Int: String] = [:]
        defer { for source in sources.values { Store.remove(at: source) } }
        for size in Self.sizes {
            let source = folder.appendingPathComponent("scale-\(size).sqlite").path
            try EngineBenchmark.generate(dataset: "Scenarios/datasets/library.yaml", size: size, output: source)
            sources[size] = source
        }
        let output = folder.appendingPathComponent("scale-out.sqlite").path
        let floorStore = folder.appendingPathComponent("scale-floor.sqlite").path
        var cells: [Int: [String: [(seconds: Double, heap: Int?)]]] = [:]
        for repetition in 1...repetitions {
            for size in Self.sizes {
                printError(
                    "benchmark engine --scale: run \(repetition) of \(repetitions), size \(ProgressBar.grouped(size))")
                cells[size, default: [:]]["floor copy", default: []].append(
                    try EngineBenchmark.floor("library-v1-v2-copy.sql", store: floorStore, attach: sources[size]!))
                Store.remove(at: floorStore)
                cells[size, default: [:]]["streaming", default: []].append(
                    try EngineBenchmark.cell(sources[size]!, mode: "streaming", output: output))
                Store.remove(at: output)
            }
        }
        return EngineScaleReport(
            results: Self.sizes.map { EngineSizeResult(size: $0, cells: cells[$0]!.mapValues(CellSummary.init)) })
    }
}

/// The scale run's medians, the fitted exponent, and the targets of issue 16.
struct EngineScaleReport: Codable {
    let results: [EngineSizeResult]
    /// The slope of log(time) against log(size), by least squares over the medians.
    let exponent: Double?
    /// The floor's own growth 1,000,000 → 10,000,000 (see ``growth(_:_:)``): how much the machine alone slows at
    /// the larger size, which the streaming target (a ratio of the step's own times) cannot tell from the engine.
    let floorGrowth: Double?
    let targets: [GeneratorBenchmarkReport.Target]

    init(results: [EngineSizeResult]) {
        self.results = results
        let points = results.compactMap { result in
            result.cells["streaming"].map { (log(Double(result.size)), log($0.seconds.median)) }
        }
        exponent = Self.slope(points)
        var targets: [GeneratorBenchmarkReport.Target] = []
        let bySize = Dictionary(uniqueKeysWithValues: results.map { ($0.size, $0) })
        floorGrowth = Self.growth(bySize[1_000_000]?.cells["floor copy"], bySize[10_000_000]?.cells["floor copy"])
        if let million = bySize[1_000_000]?.cells["streaming"],
            let tenMillion = bySize[10_000_000]?.cells["streaming"],
            let time = Self.growth(million, tenMillion)
        {
            targets.append(
                .init(
                    name: "streaming time 1,000,000 → 10,000,000", limit: "≤ 11.00×",
                    measured: String(format: "%.2f×", time), met: time <= 11))
            let heap = tenMillion.peakHeapBytes.flatMap { ten in million.peakHeapBytes.map { ten.median / $0.median } }
            targets.append(
                .init(
                    name: "streaming peak heap 1,000,000 → 10,000,000", limit: "≤ 1.25×",
                    measured: heap.map { String(format: "%.2f×", $0) } ?? "unavailable",
                    met: heap.map { $0 <= 1.25 }))
        }
        self.targets = targets
    }

    var targetsMet: Bool { targets.allSatisfy { $0.met ?? true } }

    /// The median of each repetition's time at the larger size over its time at the smaller, the two run one
    /// after the other in the same repetition (see ``Summary/pairedRatio(over:)``).
    static func growth(_ smaller: CellSummary?, _ larger: CellSummary?) -> Double? {
        guard let smaller, let larger else { return nil }
        return larger.seconds.pairedRatio(over: smaller.seconds)
    }

    /// The least-squares slope through `points`; nil for fewer than two distinct x values.
    static func slope(_ points: [(x: Double, y: Double)]) -> Double? {
        guard points.count >= 2 else { return nil }
        let meanX = points.map(\.x).reduce(0, +) / Double(points.count)
        let meanY = points.map(\.y).reduce(0, +) / Double(points.count)
        let spread = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        guard spread > 0 else { return nil }
        return points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) } / spread
    }

    func table() -> String {
        var lines = EngineSizeResult.table(results, order: ["floor copy", "streaming"])
        lines.append("")
        lines.append(
            "fitted exponent of streaming time against size: " + (exponent.map { String(format: "%.3f", $0) } ?? "—"))
        if let floorGrowth {
            lines.append(String(format: "the floor's own time 1,000,000 → 10,000,000: %.2f×", floorGrowth))
        }
        let overFloor = results.compactMap { result in
            result.ratio("streaming", to: "floor copy").map {
                "\(String(format: "%.2f×", $0)) at \(ProgressBar.grouped(result.size))"
            }
        }
        if !overFloor.isEmpty { lines.append("streaming against its floor: " + overFloor.joined(separator: ", ")) }
        for target in targets {
            let verdict = target.met.map { $0 ? "met" : "MISSED" } ?? "not measured"
            lines.append(
                "\(verdict.padding(toLength: 12, withPad: " ", startingAt: 0)) \(target.name): \(target.measured) (target \(target.limit))"
            )
        }
        return lines.joined(separator: "\n")
    }
}
