import Foundation

/// A child process of this executable that writes what it measured to a file: a repetition of a cell
/// (`run-cell`) or a counting run of `check`; under callgrind when its instructions are counted.
///
/// It starts those two only. A `benchmark`'s steps print their sample to standard output and pass their standard
/// error through as it comes: ``ChildProcess/output(_:executable:)`` starts them, under callgrind by
/// ``ChildProcess/sample(_:under:in:)``.
enum MeasuringChild {
    /// How the child ended.
    enum Ending {
        /// It exited with 0, and its output file holds these bytes.
        case finished(Data)
        /// It exited with `status`, or exited without its output file; the last lines it wrote to standard error.
        case failed(status: Int32, message: String)
        /// A signal killed it; the last lines it wrote to standard error.
        case killed(signal: Int32, message: String)
        /// It could not be started.
        case notStarted(String)
    }

    /// Runs `migration-bench <arguments>`, under `callgrind` with its profile parts written to `profile` when
    /// given, its standard error kept in `errors` and read back when it fails; `output` is the file the child
    /// writes.
    static func run(
        _ arguments: [String], output: String, errors: String, callgrind: CallgrindLauncher?, profile: String
    ) -> Ending {
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        if let callgrind {
            let command = callgrind.commandLine(arguments, outFile: profile)
            process.executableURL = URL(fileURLWithPath: command.executable)
            process.arguments = command.arguments
        } else {
            process.executableURL = URL(fileURLWithPath: ChildProcess.executablePath)
            process.arguments = arguments
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errors)
        do {
            try Interruption.whileRunning(process) { process.waitUntilExit() }
        } catch {
            return .notStarted("\(error)")
        }
        // The child's own last lines, without valgrind's (which start with "==").
        let message = ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { !$0.hasPrefix("==") }.suffix(5).joined(separator: "\n")
        if process.terminationReason == .uncaughtSignal {
            return .killed(signal: process.terminationStatus, message: message)
        }
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: output) else {
            return .failed(status: process.terminationStatus, message: message)
        }
        return .finished(data)
    }
}
