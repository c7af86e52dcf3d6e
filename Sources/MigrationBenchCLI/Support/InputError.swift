import ArgumentParser
import Foundation

/// A problem with what the user gave us, reported as one line on standard error with exit code 1.
struct InputError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Runs a command body, turning any thrown error into one line on standard error and exit code 1.
func reportingInputErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        printError("error: \(error)")
        throw ExitCode(1)
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes `value` to standard output as pretty JSON with sorted keys.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}
