import ArgumentParser
import Foundation
import Instrumentation
import ObjectModel
import ScenarioRunner

/// The options every benchmark command shares, and the scratch folder and JSON file they use.
struct BenchmarkOptions: ParsableArguments {
    @Option(name: .long, parsing: .upToNextOption, help: "Store sizes (objects in all, with the default dataset).")
    var sizes: [Int] = [100_000, 1_000_000]

    @Option(name: .long, help: "Repetitions per measurement; medians are reported.")
    var repetitions = 3

    @Flag(
        name: .long,
        help: "The CI run: sizes 100,000 and 1,000,000 (the sizes the targets name), five repetitions each.")
    var quick = false

    @Option(name: .long, help: ArgumentHelp("Also write the results as JSON to this file.", valueName: "file"))
    var jsonOutput: String?

    @Flag(name: .long, help: "Exit with code 3 when a gated target (see above) is missed.")
    var gate = false

    @Flag(
        name: .long,
        help: """
            Count each step's instructions under valgrind's callgrind, as run --instructions does (20 to 50 times \
            slower; times are then valgrind's, and time targets are not judged).
            """)
    var instructions = false

    func validate() throws {
        guard (1...InputLimits.repetitions).contains(repetitions) else {
            throw ValidationError("--repetitions must be from 1 to \(InputLimits.repetitions)")
        }
        guard sizes.allSatisfy({ (1...InputLimits.size).contains($0) }), sizes.count <= InputLimits.sizesPerList else {
            throw ValidationError(
                "--sizes must be \(InputLimits.sizesPerList) sizes at most, each from 1 to \(InputLimits.size)")
        }
    }

    /// The sizes to measure, smallest first.
    var resolvedSizes: [Int] { quick ? [100_000, 1_000_000] : sizes.sorted() }

    /// The repetitions of each measurement.
    var resolvedRepetitions: Int { quick ? 7 : repetitions }

    /// How each step runs: in a child process, under callgrind with `--instructions` (its profile parts in
    /// `folder`). Without valgrind, steps run as usual, their instructions unavailable with the reason.
    func launcher(folder: URL) -> BenchmarkLauncher {
        guard instructions else { return ChildProcess.sample }
        switch CallgrindLauncher.prepare(in: folder.path) {
        case .success(let callgrind):
            return { step in try ChildProcess.sample(step, under: callgrind, in: folder) }
        case .failure(let why):
            return { step in
                var sample = try ChildProcess.sample(step)
                if sample.instructions == nil { sample.instructionsUnavailable = why.reason }
                return sample
            }
        }
    }

    /// A fresh temporary folder for the stores; remove it with ``removeScratchFolder(_:)``.
    func makeScratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mb-bench-\(UUID().uuidString)")
        Interruption.remove(onInterruption: folder.path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes a folder made by ``makeScratchFolder()`` and everything in it.
    func removeScratchFolder(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        Interruption.keep(folder.path)
    }

    /// Prints `table`, writes `report` to `--json-output` if given (pretty JSON with sorted keys), and with
    /// `--gate` exits with code 3 when a gated target is missed.
    func finish(_ report: some Encodable, table: String, targets: [BenchmarkTarget]) throws {
        print(table)
        if let jsonOutput {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: jsonOutput))
        }
        if gate && !targets.gatePasses { throw ExitCode.regression }
    }
}
