import Foundation
import ScenarioRunner

/// Runs this executable again in a fresh process, so that a measurement's heap and peak RSS are its own: a
/// `benchmark`'s steps, which print what they measured (the children that write it to a file, `run-cell` and
/// `check`'s counting runs, start through ``MeasuringChild``).
enum ChildProcess {
    /// The path of the running executable.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Runs a benchmark's step in a child process and decodes what it prints.
    static func sample(_ step: BenchmarkStep) throws -> BenchmarkSample {
        try decode(output(step.arguments), of: step.arguments)
    }

    /// Runs a benchmark's step under callgrind (its profile parts in `folder`) and adds the instructions of its
    /// one phase, or why there are none; the sample is marked as run under valgrind.
    static func sample(
        _ step: BenchmarkStep, under callgrind: CallgrindLauncher, in folder: URL
    ) throws
        -> BenchmarkSample
    {
        let outFile = folder.appendingPathComponent("callgrind-\(UUID().uuidString.prefix(8)).out").path
        let command = callgrind.commandLine(step.arguments, outFile: outFile)
        var sample = try decode(
            output(command.arguments, executable: command.executable), of: step.arguments)
        sample.underValgrind = true
        if let count = callgrind.phaseInstructions(outFile: outFile)[0] {
            sample.instructions = count
            sample.countingMethod = callgrind.method
            sample.instructionsUnavailable = nil
        } else {
            sample.instructions = nil
            sample.instructionsUnavailable =
                "callgrind wrote no profile part: '\(step.arguments.prefix(2).joined(separator: " "))' marks no phase"
        }
        return sample
    }

    /// What a benchmark child printed, as its sample.
    private static func decode(_ data: Data, of arguments: [String]) throws -> BenchmarkSample {
        do {
            return try JSONDecoder().decode(BenchmarkSample.self, from: data)
        } catch {
            throw InputError(
                "child 'migration-bench \(arguments.prefix(2).joined(separator: " "))' printed no sample: \(error)")
        }
    }

    /// Runs `migration-bench <arguments>` (or `executable` with them) and returns its standard output.
    static func output(_ arguments: [String], executable: String = executablePath) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError  // the child's progress and errors show as they come
        let data = try Interruption.whileRunning(process) {
            defer { process.waitUntilExit() }
            return output.fileHandleForReading.readDataToEndOfFile()
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exit code" : "signal"
            throw InputError(
                "child 'migration-bench \(arguments.joined(separator: " "))' failed with \(how) "
                    + "\(process.terminationStatus) (its message is above)")
        }
        return data
    }
}
