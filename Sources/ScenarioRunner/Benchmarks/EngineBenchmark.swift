public import Foundation
import MigrationEngine
import PersistentStore
public import ReportModel

/// `benchmark engine`: migration steps against their hand-written SQL floors, each repetition of each in a fresh
/// child process, alternating.
///
/// On the library model, V1 → V2 renames Book.title and adds Book.isbn. Per size and repetition: the in-place
/// lightweight step and its floor; the custom transform, streaming and in memory, and the copy floor; the
/// verifier on the streaming step's store. At the largest size, the in-memory step also runs as one pass and as
/// two equal passes. The targets are in ``EngineBenchmarkReport``.
public struct EngineBenchmark: Sendable {
    /// The model every step migrates.
    public static let model = "Scenarios/models/library.yaml"
    /// The custom transform's mapping model.
    public static let mapping = "Scenarios/mappings/library-v1-v2.yaml"
    /// The dataset of the measured stores.
    public static let dataset = "Scenarios/datasets/library.yaml"
    /// The dataset whose two entities have the same number of objects, for the passes.
    public static let evenDataset = "Scenarios/datasets/library-even.yaml"

    /// Store sizes, smallest first.
    public var sizes: [Int]
    /// Repetitions of each measurement.
    public var repetitions: Int
    /// A scratch folder for the stores.
    public var folder: URL
    /// Whether each step of the engine (in place, streaming, in memory) also runs broken down by the engine's
    /// profiler, right beside its run without, in alternating order: the breakdown's cost, measured in the same run.
    /// The cost of the profiler's reads at each part's start and end only: ``mapping`` has no custom policy, so no
    /// policy callback is timed.
    public var breakdown = false

    /// A benchmark of `sizes`, each measured `repetitions` times.
    public init(sizes: [Int], repetitions: Int, folder: URL, breakdown: Bool = false) {
        self.sizes = sizes
        self.repetitions = repetitions
        self.folder = folder
        self.breakdown = breakdown
    }

    /// The steps of the engine that `breakdown` measures twice.
    static let brokenDown = ["in-place", "streaming", "in-memory"]

    /// The name of `step`'s cell with the breakdown: `streaming, breakdown`.
    static func withBreakdown(_ step: String) -> String { step + ", breakdown" }

    /// The name of `step`'s store with the breakdown, without its extension: `streaming-breakdown`.
    static func breakdownStore(_ step: String) -> String { step + "-breakdown" }

    /// Runs every repetition through `launch`, telling `progress` what starts.
    public func run(launch: BenchmarkLauncher, progress: (String) -> Void = { _ in }) throws -> EngineBenchmarkReport {
        var results: [EngineSizeResult] = []
        for size in sizes {
            let source = path("v1-\(size).sqlite")
            _ = try launch(Self.generate(Self.dataset, size: size, output: source))
            var cells: [String: [BenchmarkSample]] = [:]
            for repetition in 1...repetitions {
                progress("benchmark engine: size \(BenchmarkFormat.grouped(size)), run \(repetition) of \(repetitions)")
                let floorStore = path("floor-in-place.sqlite")
                try FileManager.default.copyItem(atPath: source, toPath: floorStore)
                let steps: [(String, BenchmarkStep)] = [
                    ("floor in-place", .floorSQL(script: Self.floor("in-place"), store: floorStore, attach: nil)),
                    ("in-place", Self.migration(source, .inPlace, output: path("in-place.sqlite"))),
                    (
                        "floor copy",
                        .floorSQL(script: Self.floor("copy"), store: path("floor-copy.sqlite"), attach: source)
                    ),
                    ("streaming", Self.migration(source, .streaming, output: path("streaming.sqlite"))),
                    (
                        "verify",
                        .verify(
                            source: source, destination: path("streaming.sqlite"), model: Self.model,
                            mapping: Self.mapping)
                    ),
                    ("in-memory", Self.migration(source, .inMemory, output: path("in-memory.sqlite"))),
                ]
                for (name, step) in breakdown ? pairedWithBreakdown(steps, repetition: repetition) : steps {
                    cells[name, default: []].append(try launch(step))
                }
                for name in ["floor-in-place", "floor-copy"] + Self.brokenDown
                    + Self.brokenDown.map(Self.breakdownStore)
                {
                    Store.remove(at: path("\(name).sqlite"))
                }
            }
            Store.remove(at: source)
            results.append(EngineSizeResult(size: size, cells: cells.mapValues(BenchmarkCell.init)))
        }

        // Passes: the same in-memory step as one pass and as two equal passes, at the largest size.
        let even = path("even.sqlite")
        let largest = sizes.last!
        _ = try launch(Self.generate(Self.evenDataset, size: largest, output: even))
        var passes: [String: [BenchmarkSample]] = [:]
        for repetition in 1...repetitions {
            progress(
                "benchmark engine: passes at \(BenchmarkFormat.grouped(largest)), run \(repetition) of \(repetitions)")
            for (name, split) in [("1 pass", PassMode.single), ("2 passes", .perEntity)] {
                let output = path("passes.sqlite")
                passes[name, default: []].append(
                    try launch(Self.migration(even, .inMemory, passes: split, output: output)))
                Store.remove(at: output)
            }
        }
        Store.remove(at: even)
        return EngineBenchmarkReport(
            results: results, passes: passes.mapValues(BenchmarkCell.init), passSize: largest)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// `steps` with each step of the engine followed by its run with the breakdown (into `<step>-breakdown.sqlite`),
    /// or preceded by it in even repetitions, so that neither always runs first.
    private func pairedWithBreakdown(
        _ steps: [(String, BenchmarkStep)], repetition: Int
    ) -> [(String, BenchmarkStep)] {
        steps.flatMap { name, step -> [(String, BenchmarkStep)] in
            guard Self.brokenDown.contains(name),
                case .migration(let source, let model, let from, let to, let mode, let passes, let mapping, _, _) = step
            else { return [(name, step)] }
            let profiled = BenchmarkStep.migration(
                source: source, model: model, from: from, to: to, mode: mode, passes: passes, mapping: mapping,
                output: path("\(Self.breakdownStore(name)).sqlite"), breakdown: true)
            let pair = [(name, step), (Self.withBreakdown(name), profiled)]
            return repetition.isMultiple(of: 2) ? pair.reversed() : pair
        }
    }

    /// Generating a V1 store of the library model.
    static func generate(_ dataset: String, size: Int, output: String) -> BenchmarkStep {
        .generate(model: model, version: "V1", dataset: dataset, size: size, output: output)
    }

    /// The V1 → V2 step (the custom transform unless in place).
    static func migration(
        _ source: String, _ mode: BenchmarkMigrationMode, passes: PassMode = .single, output: String
    ) -> BenchmarkStep {
        .migration(
            source: source, model: model, from: "V1", to: "V2", mode: mode, passes: passes,
            mapping: mode == .inPlace ? nil : mapping, output: output)
    }

    /// The floor script of `kind` (`in-place` or `copy`).
    static func floor(_ kind: String) -> String { "Scenarios/floors/library-v1-v2-\(kind).sql" }
}

/// Time, peak heap and instructions of one step over its repetitions.
public struct BenchmarkCell: Sendable, Hashable, Codable {
    /// Seconds of each repetition.
    public var seconds: Statistic
    /// CPU seconds along the critical path of each repetition (``BenchmarkSample/cpuSeconds``), or nil when not
    /// every one was measured.
    public var cpuSeconds: Statistic?
    /// Peak heap of each repetition, or nil when not every one was measured.
    public var peakHeapBytes: Statistic?
    /// Instructions of each repetition, or nil when not every one was counted.
    public var instructions: Statistic?
    /// How the instructions were counted.
    public var countingMethod: String?
    /// Why the instructions are nil, when known.
    public var instructionsUnavailable: String?
    /// True when the step ran under valgrind (its times are valgrind's).
    public var underValgrind: Bool?

    /// The figures of `samples`, which must not be empty.
    public init(_ samples: [BenchmarkSample]) {
        seconds = Statistic(samples: samples.map(\.seconds))
        let cpu = samples.compactMap(\.cpuSeconds)
        cpuSeconds = cpu.count == samples.count ? Statistic(samples: cpu) : nil
        let heaps = samples.compactMap(\.peakHeapBytes)
        peakHeapBytes = heaps.count == samples.count ? Statistic(samples: heaps.map(Double.init)) : nil
        let counts = samples.compactMap(\.instructions)
        instructions = counts.count == samples.count ? Statistic(samples: counts.map(Double.init)) : nil
        countingMethod = instructions == nil ? nil : samples.first?.countingMethod
        instructionsUnavailable = instructions == nil ? samples.compactMap(\.instructionsUnavailable).first : nil
        underValgrind = samples.contains { $0.underValgrind == true } ? true : nil
    }
}

/// One size's steps, by name (`floor in-place`, `in-place`, `floor copy`, `streaming`, `verify`, `in-memory`).
public struct EngineSizeResult: Sendable, Hashable, Codable {
    /// Objects asked for.
    public var size: Int
    /// Each step's figures.
    public var cells: [String: BenchmarkCell]

    /// Creates a result.
    public init(size: Int, cells: [String: BenchmarkCell]) {
        self.size = size
        self.cells = cells
    }

    /// The target that `cell`'s time is at most `limit` × `reference`'s (see ``BenchmarkTarget/timing``).
    func timing(
        _ name: String, _ cell: String, over reference: String, limit: Double, onCPU: Bool = false
    ) -> BenchmarkTarget {
        .timing(name, times: cells[cell], reference: cells[reference], limit: limit, onCPU: onCPU)
    }

    /// Lines of a table of `results`' steps named in `order`: size, step, median seconds with their range,
    /// median peak heap.
    static func table(_ results: [EngineSizeResult], order: [String], instructions: Bool) -> [String] {
        var lines = [
            "size        cell                seconds median (min–max)   peak heap median"
                + (instructions ? "  instructions median" : "")
        ]
        for result in results {
            for name in order {
                guard let cell = result.cells[name] else { continue }
                lines.append(cell.line(size: result.size, name: name, instructions: instructions))
            }
        }
        return lines
    }

    /// Whether any step of `results` counted its instructions or ran under valgrind: the tables then show them.
    static func showsInstructions(_ results: [EngineSizeResult]) -> Bool {
        results.contains { $0.cells.values.contains { $0.instructions != nil || $0.underValgrind == true } }
    }
}

extension BenchmarkCell {
    /// The table line of this step at `size`; with `instructions`, the median instructions last.
    func line(size: Int, name: String, instructions: Bool = false) -> String {
        let heap = peakHeapBytes.map { BenchmarkFormat.mebibytes($0.median) } ?? "—"
        let line = String(
            format: "%-11d %@ %7.3f (%.3f–%.3f)          %@", size, BenchmarkFormat.padded(name, 19), seconds.median,
            seconds.min, seconds.max, instructions ? BenchmarkFormat.padded(heap, 16) : heap)
        guard instructions else { return line }
        return line + (self.instructions.map { BenchmarkFormat.grouped(Int($0.median)) } ?? "unavailable")
    }
}

/// What `benchmark engine` measured, and its targets.
///
/// At the largest size: in-place ≤ 1.3× its floor; streaming ≤ 1.5× the copy floor, in memory ≤ 2.5× and its
/// peak heap ≤ 200 MiB; streaming peak heap ≤ 64 MiB and ≤ 1.25× its value at the smallest size; two in-memory
/// passes ≤ 0.65× the single pass's peak heap; verifying ≤ 0.6× the streaming step.
public struct EngineBenchmarkReport: Sendable, Hashable, Codable {
    /// Each size's steps, smallest first.
    public var results: [EngineSizeResult]
    /// The in-memory step as `1 pass` and `2 passes`.
    public var passes: [String: BenchmarkCell]
    /// The size the passes ran at.
    public var passSize: Int
    /// The targets, judged (see ``BenchmarkTarget``).
    public var targets: [BenchmarkTarget]

    /// The report of these figures, with its targets judged.
    public init(results: [EngineSizeResult], passes: [String: BenchmarkCell], passSize: Int) {
        self.results = results
        self.passes = passes
        self.passSize = passSize
        var targets: [BenchmarkTarget] = []
        if let largest = results.last {
            let objects = BenchmarkFormat.grouped(largest.size)
            let heap = { (cell: String) in largest.cells[cell]?.peakHeapBytes?.median }
            targets.append(
                largest.timing(
                    "in-place step against its floor at \(objects)", "in-place", over: "floor in-place", limit: 1.3))
            targets.append(
                largest.timing(
                    "streaming transform against its floor at \(objects)", "streaming", over: "floor copy",
                    limit: 1.5))
            targets.append(
                largest.timing(
                    "in-memory transform against its floor at \(objects)", "in-memory", over: "floor copy",
                    limit: 2.5))
            targets.append(
                .memory("in-memory peak heap at \(objects)", median: heap("in-memory"), limit: 200 * 1_048_576))
            // Verify runs on two threads and the step on one, so a busy machine moves their wall-clock ratio far
            // more than the others (0.49–0.55× quiet, 1.02–1.14× at load 8–15 with no change to either): the target
            // is judged on the CPU seconds along each one's critical path, and the wall-clock ratio is shown beside.
            targets.append(
                largest.timing(
                    "verifying the streaming step against the step at \(objects)", "verify", over: "streaming",
                    limit: 0.6, onCPU: true))
            targets.append(
                .memory("streaming peak heap at \(objects)", median: heap("streaming"), limit: 64 * 1_048_576))
            if let smallest = results.first, results.count > 1 {
                let small = smallest.cells["streaming"]?.peakHeapBytes?.median
                targets.append(
                    .memory(
                        "streaming peak heap growth \(BenchmarkFormat.grouped(smallest.size)) → \(objects)",
                        median: small.flatMap { small in heap("streaming").map { $0 / small } }, limit: 1.25,
                        isRatio: true))
            }
            // The breakdown's per-part cost (no custom-policy callback is timed here), where it was measured: ≤ 3 %
            // of the step's time (issue 29).
            for step in EngineBenchmark.brokenDown where largest.cells[EngineBenchmark.withBreakdown(step)] != nil {
                targets.append(
                    largest.timing(
                        "\(step) step with the breakdown against without at \(objects)",
                        EngineBenchmark.withBreakdown(step), over: step, limit: 1.03))
            }
        }
        if let one = passes["1 pass"]?.peakHeapBytes?.median, let two = passes["2 passes"]?.peakHeapBytes?.median {
            targets.append(
                .memory(
                    "in-memory peak heap, 2 equal passes against 1, at \(BenchmarkFormat.grouped(passSize))",
                    median: two / one, limit: 0.65, isRatio: true))
        }
        self.targets = targets
    }

    /// The table `benchmark engine` prints.
    public func table() -> String {
        let instructions = EngineSizeResult.showsInstructions(results)
        var lines = EngineSizeResult.table(
            results,
            order: ["floor in-place", "in-place", "floor copy", "streaming", "in-memory", "verify"]
                + EngineBenchmark.brokenDown.map(EngineBenchmark.withBreakdown),
            instructions: instructions)
        for name in ["1 pass", "2 passes"] {
            guard let cell = passes[name] else { continue }
            lines.append(cell.line(size: passSize, name: "in-memory, \(name)", instructions: instructions))
        }
        lines.append("")
        lines += targets.map(\.line)
        return lines.joined(separator: "\n")
    }
}
