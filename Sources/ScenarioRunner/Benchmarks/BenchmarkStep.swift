public import Instrumentation
public import MigrationEngine

/// One child process of `benchmark generator|engine`: what it runs, as a value. The executable runs
/// ``arguments`` in a fresh process (so that the heap it reports is the step's own) and decodes what the child
/// prints as a ``BenchmarkSample``; the benchmarks only ever see these two types.
public enum BenchmarkStep: Sendable, Hashable {
    /// `generate --json`: a store of `size` objects of `version` with `dataset`, timed from creating the file to
    /// the last sync.
    case generate(model: String, version: String, dataset: String, size: Int, output: String)
    /// `benchmark migration-cell`: one migration step from `source` into `output`, timed alone; with `breakdown`,
    /// the engine's profiler breaks it down as `run` does (`--breakdown`).
    case migration(
        source: String, model: String, from: String, to: String, mode: BenchmarkMigrationMode, passes: PassMode,
        mapping: String?, output: String, breakdown: Bool = false)
    /// `verify --json`: the integrity verifier on a migrated store, timed alone.
    case verify(source: String, destination: String, model: String, mapping: String)
    /// `benchmark floor-sql`: a hand-written SQL script run on `store`, with `attach` attached as `source`.
    case floorSQL(script: String, store: String, attach: String?)
    /// `benchmark floor-insert`: every row of `source` inserted into `output` through bare statements.
    case floorInsert(source: String, output: String)

    /// The executable's command line that runs the step and prints its ``BenchmarkSample``.
    public var arguments: [String] {
        switch self {
        case .generate(let model, let version, let dataset, let size, let output):
            return [
                "generate", "--model", model, "--version", version, "--dataset", dataset, "--size", String(size),
                "--output", output, "--overwrite", "--json",
            ]
        case .migration(
            let source, let model, let from, let to, let mode, let passes, let mapping, let output, let breakdown):
            var arguments = [
                "benchmark", "migration-cell", "--source", source, "--model", model, "--from", from, "--to", to,
                "--mode", mode.rawValue, "--passes", passes.rawValue, "--output", output,
            ]
            if let mapping { arguments += ["--mapping", mapping] }
            if breakdown { arguments.append("--breakdown") }
            return arguments
        case .verify(let source, let destination, let model, let mapping):
            return [
                "verify", "--source", source, "--destination", destination, "--model", model, "--mapping", mapping,
                "--json",
            ]
        case .floorSQL(let script, let store, let attach):
            return ["benchmark", "floor-sql", "--store", store, "--sql", script]
                + (attach.map { ["--attach", $0] } ?? [])
        case .floorInsert(let source, let output):
            return ["benchmark", "floor-insert", "--source", source, "--output", output]
        }
    }
}

/// How `benchmark migration-cell` migrates: SQL on a copy of the store, or the three-stage engine in one of its
/// storage modes.
public enum BenchmarkMigrationMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// The lightweight step run as SQL on a copy of the source (the copy is not timed).
    case inPlace = "in-place"
    /// The engine, writing rows as it makes them.
    case streaming
    /// The engine, keeping each pass's objects in memory until its save (Core Data's way).
    case inMemory = "in-memory"

    /// The engine's storage mode, or nil for the in-place step.
    public var storage: StorageMode? {
        switch self {
        case .inPlace: nil
        case .streaming: .streaming
        case .inMemory: .inMemory
        }
    }
}

/// What a benchmark child prints on standard output (as part of a larger JSON object for `generate` and
/// `verify`): the measured part's time and peak heap, the objects it made, and its instructions.
public struct BenchmarkSample: Sendable, Hashable, Codable {
    /// Seconds of the measured part alone.
    public var seconds: Double
    /// The measuring thread's heap high-water mark (jemalloc), or nil where the heap cannot be measured.
    public var peakHeapBytes: Int?
    /// Objects generated or migrated, or nil for a step that makes none it counts (a floor, a verification).
    public var objectCount: Int?
    /// Instructions of the measured part (the measuring thread's): the child's hardware counter, or filled in by
    /// the parent from callgrind's profile part (`benchmark --instructions`); nil when not counted.
    public var instructions: Int?
    /// How ``instructions`` were counted, such as `valgrind-3.19.0 callgrind Ir`.
    public var countingMethod: String?
    /// Why ``instructions`` are nil, when the child or the parent knows.
    public var instructionsUnavailable: String?
    /// True when the child ran under valgrind: its time is valgrind's, not the machine's, and is not judged.
    public var underValgrind: Bool?
    /// CPU seconds of the measured part along its critical path, where the child measures them: a one-thread
    /// step's CPU time (the process's user and system time), the verifier's checks' own CPU times laid out on two
    /// idle workers in their fixed order, plus its calling thread's time outside them. Unlike wall time on two
    /// threads, it moves little with the machine's load; nil when not measured or a CPU clock could not be read.
    public var cpuSeconds: Double?
    /// Segments the engine's profiler recorded in the step (`migration-cell --breakdown`); nil when it was not
    /// profiled.
    public var profiledSegments: Int?

    /// Creates a sample.
    public init(
        seconds: Double, peakHeapBytes: Int? = nil, objectCount: Int? = nil, instructions: Int? = nil,
        countingMethod: String? = nil, instructionsUnavailable: String? = nil
    ) {
        self.seconds = seconds
        self.peakHeapBytes = peakHeapBytes
        self.objectCount = objectCount
        self.instructions = instructions
        self.countingMethod = countingMethod
        self.instructionsUnavailable = instructionsUnavailable
    }
}

/// Runs one ``BenchmarkStep`` in a child process and returns what it measured; throws when the child fails.
public typealias BenchmarkLauncher = (BenchmarkStep) throws -> BenchmarkSample

extension BenchmarkSample {
    /// A child's sample, its instructions taken from `counter`, whose one phase (``InstructionCounter/beginPhase()``
    /// to ``InstructionCounter/endPhase()``, which gave `instructions`) was the measured part: the count from the
    /// hardware counter; nothing under callgrind, whose profile part the parent reads; else why not.
    public init(
        seconds: Double, peakHeapBytes: Int?, objectCount: Int?, instructions: Int?, counter: InstructionCounter
    ) {
        self.init(
            seconds: seconds, peakHeapBytes: peakHeapBytes, objectCount: objectCount, instructions: instructions,
            countingMethod: instructions == nil ? nil : counter.methodDescription,
            instructionsUnavailable: counter.unavailableReason)
    }
}
