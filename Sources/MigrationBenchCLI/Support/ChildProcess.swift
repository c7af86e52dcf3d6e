import Foundation

/// Runs this executable again in a fresh process, so that a measurement's heap and peak RSS are its own.
enum ChildProcess {
    /// The path of the running executable.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Runs `migration-bench <arguments>` and decodes its standard output as a JSON object.
    static func json(_ arguments: [String]) throws -> [String: Any] {
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
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw InputError("child 'migration-bench \(arguments.first ?? "")' printed no JSON object")
        }
        return object
    }
}
