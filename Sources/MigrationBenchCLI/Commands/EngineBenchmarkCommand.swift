import ArgumentParser
import Foundation
import ScenarioRunner

/// `migration-bench benchmark engine`: migration steps against hand-written SQL floors, in child processes
/// (``EngineBenchmark`` and ``EngineScaleBenchmark`` in ScenarioRunner do the work).
struct EngineBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Measure migration steps against their hand-written SQL floors, in fresh child processes.",
        discussion: """
            On the library model (Scenarios/models/library.yaml), V1 → V2 renames Book.title and adds Book.isbn. \
            For each size and repetition, alternating, each in its own process: the in-place lightweight step and \
            its floor (Scenarios/floors/library-v1-v2-in-place.sql); the custom transform \
            (Scenarios/mappings/library-v1-v2.yaml) in streaming and in-memory storage, and its floor \
            (Scenarios/floors/library-v1-v2-copy.sql). At the largest size, the in-memory step runs once as one \
            pass and once as two equal passes (Scenarios/datasets/library-even.yaml). Medians are reported. \
            The streaming step's store is then verified (the verify cell). \
            Ratios shown are medians of each repetition's ratio (the two cells ran one after the other). Targets, \
            at the largest size: in-place ≤ 1.3× its floor; streaming ≤ 1.5× the copy floor, in memory ≤ 2.5× \
            and its peak heap ≤ 200 MiB; streaming peak heap ≤ 64 MiB and ≤ 1.25× its value at the smallest \
            size; two in-memory passes ≤ (1/2 + 0.15) × the single pass's peak heap; verifying ≤ 0.6× the \
            streaming step. --breakdown also runs each step of the engine (in place, streaming, in memory) with the \
            engine's profiler breaking it down as 'run' does, beside its run without, in alternating order; target: \
            ≤ 1.03× the step without. That measures the profiler's reads at each part's start and end only: the \
            library mapping has no custom policy, so no per-callback clock read is in it. --gate gates on all of them by the verdict rules of their metrics: a time target is \
            missed when the Wilcoxon signed-rank test of each repetition's ratio to its reference over the limit \
            puts the whole 98 % interval of the change above 0 (not judged below 7 repetitions), a heap target when its \
            median is past the limit. --scale instead measures the streaming step at 100,000, 1,000,000 and \
            10,000,000 objects and prints the fitted exponent of time against size.
            """)

    @OptionGroup var benchmark: BenchmarkOptions

    @Flag(
        name: .long,
        help: "Instead: the streaming transform at 100,000, 1,000,000 and 10,000,000 objects, and the fitted exponent.")
    var scale = false

    @Flag(
        name: .long,
        help: "Also run each step of the engine with the breakdown (run's default), for its cost in the same run.")
    var breakdown = false

    func validate() throws {
        guard !(scale && breakdown) else {
            throw ValidationError("--breakdown cannot go with --scale, which runs no step with the breakdown")
        }
    }

    func run() throws {
        try reportingInputErrors {
            let folder = try benchmark.makeScratchFolder()
            defer { benchmark.removeScratchFolder(folder) }
            if scale {
                let report = try EngineScaleBenchmark(repetitions: benchmark.resolvedRepetitions, folder: folder)
                    .run(launch: benchmark.launcher(folder: folder), progress: printError)
                try benchmark.finish(report, table: report.table(), targets: report.targets)
                return
            }
            let report = try EngineBenchmark(
                sizes: benchmark.resolvedSizes, repetitions: benchmark.resolvedRepetitions, folder: folder,
                breakdown: breakdown
            ).run(launch: benchmark.launcher(folder: folder), progress: printError)
            try benchmark.finish(report, table: report.table(), targets: report.targets)
        }
    }
}
