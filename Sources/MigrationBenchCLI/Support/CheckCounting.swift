import Foundation
import Instrumentation
import ReportModel
import ScenarioRunner

/// `check --instructions`: each store of the check measured again in a child process of its own under callgrind,
/// whose phases mark their instructions with client requests as `run --instructions` does; the counts then join
/// the check's own report, which keeps the times and every other figure of the check that ran natively.
enum CheckCounting {
    /// The hidden option that makes `check` the counting run: it writes each cell's sample, by cell id, to the
    /// file it names, and nothing else.
    static let samplesOption = "--instruction-samples"
    /// The hidden option that picks the one store a counting run measures, by its place in the check's order.
    static let storeOption = "--instruction-store"

    /// The options of `check` that the counting run leaves out: they write files or choose the output, and do not
    /// change what runs.
    private static let dropped: Set<String> = ["--out", "--history", "--baseline"]
    private static let droppedFlags: Set<String> = ["--json", "--instructions"]

    /// The counting run's arguments: the check's own (`check` and what follows it), without the options that write
    /// or print, and with ``samplesOption``.
    static func arguments(_ check: [String], samples: String) -> [String] {
        var arguments: [String] = []
        var skipValue = false
        for argument in check {
            if skipValue {
                skipValue = false
                continue
            }
            let name = String(argument.prefix { $0 != "=" })
            if droppedFlags.contains(argument) || dropped.contains(name) && argument.contains("=") { continue }
            if dropped.contains(argument) {
                skipValue = true
                continue
            }
            arguments.append(argument)
        }
        return arguments + [samplesOption, samples]
    }

    /// Counts the instructions of each of `outcome`'s stores in a counting run of its own (so that no store's count
    /// depends on which ran before it in the process), with the check's arguments `check`, in `folder`; adds them
    /// to `outcome`, or records why they are unavailable.
    static func count(_ outcome: inout ModelChecker.Outcome, check: [String], folder: String) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            outcome.instructionsUnavailable("cannot create \(folder): \(error)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let launcher: CallgrindLauncher
        switch CallgrindLauncher.prepare(in: folder) {
        case .success(let found): launcher = found
        case .failure(let why):
            outcome.instructionsUnavailable(why.reason)
            return
        }
        var counted: [String: Result<CellSample, CountUnavailable>] = [:]
        for (cell, place) in zip(outcome.cells, outcome.places) where cell.isMeasured {
            counted[cell.id] = count(store: place, cell: cell.id, check: check, launcher: launcher, folder: folder)
        }
        outcome.addInstructions(counted: counted)
    }

    /// The sample of the store at `place`, its instructions counted, from a counting run under callgrind.
    private static func count(
        store place: Int, cell: String, check: [String], launcher: CallgrindLauncher, folder: String
    ) -> Result<CellSample, CountUnavailable> {
        let samples = "\(folder)/samples-\(place).json"
        let profile = "\(folder)/callgrind-\(place).out"
        let arguments = Self.arguments(check, samples: samples) + [storeOption, "\(place)"]
        let ending = MeasuringChild.run(
            arguments, output: samples, errors: "\(folder)/stderr-\(place).txt", callgrind: launcher, profile: profile)
        let why: String
        switch ending {
        case .finished(let data):
            guard let decoded = try? JSONDecoder().decode([String: CellSample].self, from: data) else {
                return .failure(.init("the counting run under callgrind wrote samples this version cannot read"))
            }
            guard var sample = decoded[cell] else {
                return .failure(.init("the counting run under callgrind measured \(decoded.keys.sorted()), not it"))
            }
            launcher.addInstructions(to: &sample, outFile: profile)
            return .success(sample)
        case .notStarted(let error): why = "did not start: \(error)"
        case .killed(let signal, let message): why = "was killed by signal \(signal)" + Self.suffix(message)
        case .failed(let status, let message):
            why = "ended without its sample (exit \(status))" + Self.suffix(message)
        }
        return .failure(.init("the counting run under callgrind \(why)"))
    }

    /// `: <message>` on one line, or nothing for no message.
    private static func suffix(_ message: String) -> String {
        message.isEmpty ? "" : ": " + message.split(separator: "\n").joined(separator: " ")
    }
}
