import Foundation
import ScenarioRunner

/// Runs this executable again in a fresh process, so that a measurement's heap and peak RSS are its own.
enum ChildProcess {
    /// The path of the running executable.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Runs a benchmark's step in a child process and decodes what it prints.
    static func sample(_ step: BenchmarkStep) throws -> BenchmarkSample {
        let arguments = step.arguments
        let data = try output(arguments)
        do {
            return try JSONDecoder().decode(BenchmarkSample.self, from: data)
        } catch {
            throw InputError(
                "child 'migration-bench \(arguments.prefix(2).joined(separator: " "))' printed no sample: \(error)")
        }
    }

    /// Runs `migration-bench <arguments>` and returns its standard output.
    static func output(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath)
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
