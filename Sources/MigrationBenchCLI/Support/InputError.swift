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
        printError("error: \(oneLine("\(error)"))")
        throw ExitCode.inputError
    }
}

/// The longest error line, in characters: a message that quotes a huge name or a framework's whole error
/// description is cut here.
let errorLineLimit = 300

/// `message` on one line (line breaks become spaces) and cut to fit, with `error: ` in front, in
/// ``errorLineLimit`` characters; a cut ends with `…`.
func oneLine(_ message: String) -> String {
    let flat = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
    let room = errorLineLimit - "error: ".count
    return flat.count <= room ? flat : String(flat.prefix(room - 1)) + "…"
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
