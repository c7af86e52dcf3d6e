import ArgumentParser
import Foundation
import Instrumentation
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import ReportModel
import ScenarioRunner

/// One measured migration step, in its own process: time and peak heap of the step alone.
struct MigrationCellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migration-cell",
        abstract: "Run one migration step and report its time and peak heap as JSON.",
        discussion: """
            Used by 'benchmark engine' in a child process, so that the heap it reports belongs to this step. \
            in-place copies --source to --output first (not timed) and migrates the copy with SQL; streaming and \
            in-memory run the three-stage engine from --source into a new store at --output.
            """)

    @Option(name: .long, help: "The source store.")
    var source: String

    @OptionGroup var modelOptions: ModelOptions

    @Option(name: .long, help: "The source version.")
    var from: String

    @Option(name: .long, help: "The destination version.")
    var to: String

    @Option(name: .long, help: "A mapping model file (default: the inferred mapping).")
    var mapping: String?

    @Option(name: .long, help: "in-place, streaming or in-memory.")
    var mode: BenchmarkMigrationMode

    @Option(name: .long, help: "single, or per-entity (one pass per entity mapping).")
    var passes: PassMode = .single

    @Option(name: .long, help: "Where the migrated store goes (must not exist).")
    var output: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Runs of the step in this process, each into a new --output (the last one is kept); the JSON then has "
                + "each run's figures under \"runs\" and their medians.", valueName: "n"))
    var repetitions = 1

    @Flag(
        name: .long,
        help:
            "Break the step down with the engine's profiler, as 'run' does (the peak heap is then nested with its own)."
    )
    var breakdown = false

    func validate() throws {
        guard (1...InputLimits.repetitions).contains(repetitions) else {
            throw ValidationError("--repetitions must be from 1 to \(InputLimits.repetitions)")
        }
    }

    func run() throws {
        try reportingInputErrors {
            let history = try modelOptions.load()
            let source = try history.requireVersion(from)
            let destination = try history.requireVersion(to)
            var runs: [BenchmarkSample] = []
            for repetition in 1...repetitions {
                if repetition > 1 { Store.remove(at: output) }
                runs.append(try runOnce(source: source, destination: destination, history: history))
            }
            guard repetitions > 1 else { return try printJSON(runs[0]) }
            try printJSON(Repeated(runs: runs))
        }
    }

    /// One run of the step into `output`, timed, with the thread's heap peak.
    private func runOnce(
        source: ModelVersion, destination: ModelVersion, history: ModelHistory
    ) throws -> BenchmarkSample {
        let heap = currentHeapStatistics()
        // As in 'run', with the breakdown or without (so that the pair differs only in the profiler): the thread's
        // allocations counted, and the step's peak one of nested peaks, which the profiler's parts share. Unlike
        // 'run''s, this profiler has no instruction counter: it leaves out the two counter reads per segment that
        // 'run' makes where the hardware counter is available.
        let peaks = NestedHeapPeaks(heap: heap)
        heap.trackCallingThread()
        let profiler = breakdown ? MigrationProfiler(heap: heap, peaks: peaks) : nil
        var peakToken: Int?
        let resetPeak = { peakToken = peaks.begin() }
        let counter = InstructionCounter()
        let clock = ContinuousClock()
        var seconds = 0.0
        var cpuStart = ResourceUsage.current()
        var cpuEnd = cpuStart
        var objects = 0
        var instructions: Int?
        if mode == .inPlace {
            let plan = try MappingInference.plan(from: source, to: destination)
            try FileManager.default.copyItem(atPath: self.source, toPath: output)
            var migration = InPlaceMigration(plan: plan)
            migration.profiler = profiler
            resetPeak()
            counter.beginPhase()
            cpuStart = ResourceUsage.current()
            let start = clock.now
            objects = try migration.run(storeAt: output).objects
            seconds = (clock.now - start).seconds
            cpuEnd = ResourceUsage.current()
            instructions = counter.endPhase()
        } else {
            let model =
                try mapping.map { path throws(MappingError) in
                    try MappingModelLoader.load(path: path).identifyingVersions(in: history)
                }
                ?? MappingInference.infer(from: source, to: destination)
            let models = passes == .perEntity ? PassSplit.perEntity(model) : [model]
            var manager = MigrationManager(
                source: source, destination: destination,
                options: MigrationOptions(storage: mode.storage ?? .streaming))
            manager.profiler = profiler
            // The engine only reads the source store; reading a WAL-mode store leaves an empty -wal and its
            // -shm beside it, removed once the step is done (and timed).
            try WriteAheadLog.leavingNoSidecars(of: [self.source]) {
                resetPeak()
                counter.beginPhase()
                cpuStart = ResourceUsage.current()
                let start = clock.now
                objects = try manager.migrate(storeAt: self.source, to: output, mappingModels: models)
                    .objectsCreated
                seconds = (clock.now - start).seconds
                cpuEnd = ResourceUsage.current()
                instructions = counter.endPhase()
            }
        }
        let peak = peakToken.flatMap(peaks.end)
        var sample = BenchmarkSample(
            seconds: seconds, peakHeapBytes: peak, objectCount: objects, instructions: instructions,
            counter: counter)
        sample.profiledSegments = profiler?.profile.segments.count
        // The engine runs a step on one thread: the process's CPU time is the step's, along its critical path.
        sample.cpuSeconds = cpuEnd.userSeconds + cpuEnd.systemSeconds - cpuStart.userSeconds - cpuStart.systemSeconds
        return sample
    }

    /// Several runs: their medians, as one run's keys (a ``BenchmarkSample``), and each run.
    struct Repeated: Encodable {
        let runs: [BenchmarkSample]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let cell = BenchmarkCell(runs)
            try container.encode(cell.seconds.median, forKey: .seconds)
            try container.encode(cell.peakHeapBytes.map { Int($0.median) }, forKey: .peakHeapBytes)
            try container.encode(runs[0].objectCount, forKey: .objectCount)
            try container.encode(runs, forKey: .runs)
        }

        enum CodingKeys: String, CodingKey { case seconds, peakHeapBytes, objectCount, runs }
    }
}
