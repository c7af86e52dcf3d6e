import ArgumentParser
import Foundation
import ScenarioRunner

/// `migration-bench benchmark generator`: generation speed and memory against the raw-insert floor
/// (``GeneratorBenchmark`` in ScenarioRunner does the work).
struct GeneratorBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generator",
        abstract: "Measure store generation against the raw-insert floor, in fresh child processes.",
        discussion: """
            For each size and repetition, one child process runs 'generate' (timed from creating the file to \
            the last sync, peak heap from jemalloc) and another runs 'benchmark floor-insert' on the result: the \
            same rows inserted through bare prepared statements in one transaction. Runs alternate, and medians \
            are reported; the ratio shown is the median of each run over the floor run right after it. Targets: \
            at least 500,000 objects/s and at most 1.5× the floor at the largest size; peak heap at the largest \
            size at most 1.5× the peak at the smallest. --gate gates on the two measured against the floor and \
            the smaller store, by the verdict rules of their metrics (the time by the Wilcoxon signed-rank test of \
            each generation's ratio to its floor over 1.5, missed when the whole 98 % interval of the change is \
            above 0, not judged below 7 repetitions; the heap by its median); objects/s depends on the machine \
            and is reported only.
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
            let folder = try benchmark.makeScratchFolder()
            defer { benchmark.removeScratchFolder(folder) }
            let report = try GeneratorBenchmark(
                model: model, dataset: dataset, version: version, sizes: benchmark.resolvedSizes,
                repetitions: benchmark.resolvedRepetitions, folder: folder
            ).run(launch: benchmark.launcher(folder: folder), progress: printError)
            try benchmark.finish(report, table: report.table(), targets: report.targets)
        }
    }
}
