import ArgumentParser

/// `migration-bench benchmark`: measured benchmarks of the tool's own machinery, against floors.
struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Benchmark the tool's machinery against hand-written floors measured in the same run.",
        subcommands: [
            GeneratorBenchmarkCommand.self, EngineBenchmarkCommand.self, FloorInsertCommand.self, FloorSQLCommand.self,
            MigrationCellCommand.self,
        ]
    )
}
