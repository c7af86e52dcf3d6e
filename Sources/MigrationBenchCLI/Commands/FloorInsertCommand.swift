import ArgumentParser
import Foundation
import Instrumentation
import PersistentStore
import SQLiteDatabase
import ScenarioRunner

/// The floor of generation: the same rows, already in memory, inserted through bare prepared statements
/// in one transaction, with the same schema, indexes and pragmas. No engine could write them faster.
struct FloorInsertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor-insert",
        abstract: "Re-insert every row of a store into a new file through bare statements, and time it.",
        discussion: """
            Used by 'benchmark generator' in a child process. The rows are read into memory first (not timed); \
            the timed part creates the tables, inserts all rows in one transaction, builds the indexes and \
            switches the file to WAL mode, exactly the work 'generate' does after making up the values.
            """)

    @Option(name: .long, help: "The store whose rows to copy.")
    var source: String

    @Option(name: .long, help: "The new file to write (must not exist).")
    var output: String

    func run() throws {
        try reportingInputErrors {
            guard !FileManager.default.fileExists(atPath: output) else {
                throw InputError("\(output): a file already exists here")
            }
            let reader = try Connection(path: source, mode: .readOnly)
            let tables = try reader.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
                .compactMap { row in row[0].string.flatMap { name in row[1].string.map { (name: name, sql: $0) } } }
            let indexes = try reader.rows("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
                .compactMap { $0[0].string }
            var contents: [(table: String, columns: Int, rows: [[SQLiteValue]])] = []
            for table in tables {
                var rows: [[SQLiteValue]] = []
                var columns: Int32 = 0
                try reader.withStatement("SELECT * FROM \(quoted(table.name))") { statement in
                    columns = statement.columnCount
                    while try statement.step() {
                        rows.append((0..<columns).map { statement.value($0) })
                    }
                }
                contents.append((table.name, Int(columns), rows))
            }

            let counter = InstructionCounter()
            counter.beginPhase()
            let start = ContinuousClock.now
            let writer = try Connection(path: output, mode: .readWriteCreate)
            try Store.setFreshStorePragmas(writer)
            try writer.transaction {
                for table in tables { try writer.execute(table.sql) }
                for content in contents {
                    let placeholders = Array(repeating: "?", count: content.columns).joined(separator: ", ")
                    let insert = try writer.prepare("INSERT INTO \(quoted(content.table)) VALUES (\(placeholders))")
                    for row in content.rows {
                        for (index, value) in row.enumerated() { try insert.bind(value, at: Int32(index + 1)) }
                        try insert.run()
                    }
                }
                for index in indexes { try writer.execute(index) }
            }
            try writer.setPragma("journal_mode", "WAL")
            try writer.setPragma("synchronous", "NORMAL")
            try writer.checkpoint(.truncate)
            let elapsed = ContinuousClock.now - start
            let instructions = counter.endPhase()
            try printJSON(
                BenchmarkSample(
                    seconds: elapsed.seconds, peakHeapBytes: nil, objectCount: nil, instructions: instructions,
                    counter: counter))
        }
    }
}
