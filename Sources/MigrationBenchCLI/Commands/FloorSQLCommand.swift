import ArgumentParser
import Foundation
import Instrumentation
import PersistentStore
import SQLiteDatabase
import ScenarioRunner

/// Runs a hand-written SQL script — a floor — against a store, and times it.
struct FloorSQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor-sql",
        abstract: "Run a hand-written floor script (Scenarios/floors/*.sql) on a store and time it.",
        discussion: """
            Used by 'benchmark engine' in a child process. With --attach, the given store is attached as \
            'source' before the clock starts, for scripts that copy from it into a new file.
            """)

    @Option(name: .long, help: "The store the script runs on (created when it does not exist).")
    var store: String

    @Option(name: .long, help: "The SQL script.")
    var sql: String

    @Option(name: .long, help: "A store to attach read-only as 'source'.")
    var attach: String?

    func run() throws {
        try reportingInputErrors {
            let script: String
            do {
                script = try String(contentsOfFile: sql, encoding: .utf8)
            } catch {
                throw InputError("\(sql): cannot read the script: \(error.localizedDescription)")
            }
            let connection = try Connection(path: store, mode: .readWriteCreate)
            if let attach { try connection.attach(readOnly: attach, as: "source") }
            let counter = InstructionCounter()
            counter.beginPhase()
            let start = ContinuousClock.now
            try connection.execute(script)
            let seconds = (ContinuousClock.now - start).seconds
            let instructions = counter.endPhase()
            try printJSON(
                BenchmarkSample(
                    seconds: seconds, peakHeapBytes: nil, objectCount: nil, instructions: instructions, counter: counter
                ))
        }
    }
}
