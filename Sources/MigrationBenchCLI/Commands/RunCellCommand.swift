import ArgumentParser
import Foundation
import MigrationEngine
import ScenarioRunner

/// `migration-bench run-cell`: one repetition of one cell, in the process `run` starts for it.
struct RunCellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run-cell",
        abstract: "Run one repetition of one scenario cell and write its measurements as JSON (used by 'run').",
        shouldDisplay: false)

    @Option(name: .long, help: "The scenario file.")
    var scenario: String

    @Option(name: .long, help: "Objects in the generated store.")
    var size: Int

    @Option(name: .long) var passes: PassMode = .single
    @Option(name: .long) var storage: StorageMode = .streaming
    @Option(name: .long) var path: MigrationPath = .chained
    @Flag(name: .customLong("no-breakdown"), help: "Measure phases only, without the engine's profiler.")
    var noBreakdown = false

    @Option(name: .long, help: "A folder for the cell's stores.")
    var folder: String

    @Option(name: .long, help: "Where the measurements go.")
    var output: String

    func run() throws {
        // For the test of a crashing cell: the parent must report it as a crashed cell and go on.
        if ProcessInfo.processInfo.environment["MIGRATION_BENCH_CRASH_CELLS"] == "1" { abort() }
        // The cell's stores are the parent's working files: an interrupted cell removes them itself.
        Interruption.remove(onInterruption: folder)
        // A failed cell removes the stores it made (a working store was left in the folder when it was run on
        // its own); what was in the folder before stays, and a folder it made goes.
        let manager = FileManager.default
        let before = try? manager.contentsOfDirectory(atPath: folder)
        do {
            try runCell()
        } catch {
            if let before {
                let made = Set((try? manager.contentsOfDirectory(atPath: folder)) ?? []).subtracting(before)
                for name in made { try? manager.removeItem(atPath: (folder as NSString).appendingPathComponent(name)) }
            } else {
                try? manager.removeItem(atPath: folder)
            }
            throw error
        }
    }

    private func runCell() throws {
        try reportingInputErrors {
            let scenario = try ScenarioLoader.load(path: self.scenario)
            var spec = CellSpec(
                scenarioFile: self.scenario, scenario: scenario.name, size: size,
                mode: CellMode(passes: passes, storage: storage, path: path))
            spec.breakdown = !noBreakdown
            let sample = try CellExecution(
                scenario: scenario, spec: spec, heap: currentHeapStatistics(), folder: folder
            ).run()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(sample).write(to: URL(fileURLWithPath: output))
        }
    }
}
