import Foundation
import Instrumentation
import ScenarioRunner

/// Runs cells under valgrind's callgrind to count their instructions (`--instructions`): valgrind itself, and a
/// copy of this executable without its debug information, which valgrind 3.19 cannot read (DWARF 5).
struct CallgrindLauncher {
    /// The stripped copy of this executable that runs under it.
    let executable: String
    /// How instructions are counted, for the report, such as `valgrind-3.19.0 callgrind Ir`.
    let method: String

    /// Finds valgrind and makes the copy in `folder`, or says why instructions cannot be counted.
    static func prepare(in folder: String) -> Result<CallgrindLauncher, CountUnavailable> {
        guard InstructionCounter.canMarkPhasesForCallgrind else {
            return .failure(.init("this build has no valgrind client requests (valgrind/callgrind.h was missing)"))
        }
        guard let version = EnvironmentProbe.command(["valgrind", "--version"]) else {
            return .failure(.init("--instructions needs valgrind, which is not installed"))
        }
        let copy = "\(folder)/migration-bench-for-valgrind"
        guard EnvironmentProbe.command(["objcopy", "--strip-debug", ChildProcess.executablePath, copy]) != nil else {
            return .failure(
                .init("--instructions needs objcopy (binutils) to strip a copy of the executable valgrind can read"))
        }
        return .success(CallgrindLauncher(executable: copy, method: "\(version) callgrind Ir"))
    }

    /// The command line that runs `arguments` of this executable under callgrind, its profile parts written
    /// to `outFile`, `outFile.1`, `outFile.2`, …
    ///
    /// The child hashes deterministically (`SWIFT_DETERMINISTIC_HASHING`): a random seed per process makes the
    /// same sets and dictionaries grow and iterate differently from run to run, one source of count noise.
    func commandLine(_ arguments: [String], outFile: String) -> (executable: String, arguments: [String]) {
        (
            "/usr/bin/env",
            [
                "SWIFT_DETERMINISTIC_HASHING=1", "valgrind", "--tool=callgrind", "--callgrind-out-file=\(outFile)",
                "--dump-instr=no", "--dump-line=no",
                "--separate-threads=yes",
                "--quiet", executable,
            ] + arguments
        )
    }

    /// The instructions of each phase, by index, from the parts in `folder` whose names start with `outFile`'s,
    /// which are then removed.
    func phaseInstructions(outFile: String) -> [Int: Int] {
        CallgrindParts.counts(inFiles: takeParts(outFile: outFile))
    }

    /// The texts of the parts in `folder` whose names start with `outFile`'s, which are then removed.
    private func takeParts(outFile: String) -> [String] {
        let folder = (outFile as NSString).deletingLastPathComponent
        let prefix = (outFile as NSString).lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasPrefix(prefix) }
        let texts = (names ?? []).compactMap { try? String(contentsOfFile: "\(folder)/\($0)", encoding: .utf8) }
        for name in names ?? [] { try? FileManager.default.removeItem(atPath: "\(folder)/\(name)") }
        return texts
    }

    /// Adds the phases' instructions from the parts in `folder` whose names start with `outFile`'s, and takes the
    /// parts' own bytes out of the phases' bytes written.
    func addInstructions(to sample: inout CellSample, outFile: String) {
        let parts = CallgrindParts.read(inFiles: takeParts(outFile: outFile))
        sample.addInstructions(parts.counts, method: method, dumped: parts.dumpedBytes)
    }
}
