import ArgumentParser
import Foundation
import Instrumentation
import MigrationEngine
import ObjectModel
import ReportModel
import Reporting
import ScenarioRunner
import Synchronization

/// `migration-bench run`: the main job. Every cell of every scenario, measured, verified and reported.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios: migrate generated stores in every mode, verify them, measure, and write reports.",
        discussion: """
            Each repetition of each cell (scenario × size × mode) runs in a fresh child process, so its heap and \
            peak memory are its own; a child that crashes is a failed cell, not a failed run. Every cell is \
            checked by the independent verifier. Reports go to <out>/<run id>/ (report.json, index.html, \
            junit.xml, summary.md), and <out>/latest points at the newest. Exit codes: 0 all good, 1 input error, \
            2 integrity failure (or a crashed cell), 3 budget or baseline regression.
            """)

    @Argument(help: ArgumentHelp("Scenario files or names in Scenarios/ (default: all).", valueName: "scenario"))
    var scenarios: [String] = []

    @Flag(name: .long, help: "The quick sizes and repetitions, for CI.")
    var quick = false

    @Option(
        name: .long, help: ArgumentHelp("Sizes instead of the scenarios' own, separated by commas.", valueName: "n,n,…")
    )
    var sizes: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only these modes, separated by commas: single, per-entity, in-memory, streaming, chained, direct.",
            valueName: "mode,…"))
    var modes: String?

    @Option(name: .long, help: ArgumentHelp("The reports folder.", valueName: "dir"))
    var out = "Reports"

    @Option(name: .long, help: ArgumentHelp("A report.json to compare with; a regression exits 3.", valueName: "file"))
    var baseline: String?

    @OptionGroup var sharding: ShardOptions

    @Flag(
        name: .long,
        help: "Count instructions under valgrind's callgrind, phase by phase (about 20 to 50 times slower).")
    var instructions = false

    @Flag(
        name: .customLong("breakdown"), inversion: .prefixedNo,
        help: "Break each step down per entity mapping and stage (where it went); --no-breakdown measures phases only.")
    var breakdown = true

    @Option(
        name: .long,
        help: ArgumentHelp("A folder keeping one summary per run, charted in the HTML report.", valueName: "dir"))
    var history: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Cells run at once, each in its own child processes. Above 1, counts are judged as usual and timings "
                + "are marked as measured in parallel and not judged.", valueName: "n"))
    var jobs = 1

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 64") }
    }

    func run() throws {
        var exitCode: Int32 = 0
        try reportingInputErrors {
            let loaded = try ScenarioFiles.load(scenarios)
            var options = RunOptions(quick: quick, sizes: try sizes.map(Self.sizes))
            options.instructions = instructions
            options.breakdown = breakdown
            options.jobs = jobs
            if let modes { try Self.filter(&options, modes) }
            if let (plan, line) = try sharding.plan() {
                options.shard = plan
                let orchestrator = RunOrchestrator(scenarios: loaded, options: options) { _ in .failed("") }
                let selected = orchestrator.selectedCells()
                let partial = selected.filter { $0.repetitions.count < $0.scenario.repetitions(quick: quick) }.count
                printNow(
                    "\(line): \(selected.count) of \(orchestrator.cells().count) cells"
                        + (partial > 0 ? " (\(partial) with only some of their repetitions)" : "")
                        + (orchestrator.predictedShardSeconds().map(Self.predicted) ?? ""))
            }
            let report = try ReportRun(out: out, baseline: baseline, history: history.map(RunHistory.init)).run(
                scenarios: loaded, options: options, command: ["run"] + CommandLine.arguments.dropFirst(2))
            exitCode = Int32(report.verdict.exitCode)
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    static func sizes(_ text: String) throws -> [Int] {
        // Every part counts: `--sizes ,` (or `10,,20`) has empty sizes, which are refused, not left out.
        let sizes = try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            guard let size = Int(part.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")),
                (1...InputLimits.size).contains(size)
            else { throw InputError("--sizes: '\(part)' is not a whole number from 1 to \(InputLimits.size)") }
            return size
        }
        guard sizes.count <= InputLimits.sizesPerList else {
            throw InputError("--sizes: \(sizes.count) sizes; the limit is \(InputLimits.sizesPerList)")
        }
        return sizes
    }

    /// `; predicted slowest shard 812 s, 1.07× the mean (760 s)`: what the balancing report's times promise.
    static func predicted(_ seconds: [Double]) -> String {
        let mean = seconds.reduce(0, +) / Double(max(seconds.count, 1))
        let slowest = seconds.max() ?? 0
        return "; predicted slowest shard \(Int(slowest.rounded())) s, "
            + String(format: "%.2f", mean > 0 ? slowest / mean : 1) + "× the mean (\(Int(mean.rounded())) s)"
    }

    static func filter(_ options: inout RunOptions, _ text: String) throws {
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if let passes = PassMode(rawValue: word) {
                options.passes = (options.passes ?? []) + [passes]
            } else if let storage = StorageMode(rawValue: word) {
                options.storage = (options.storage ?? []) + [storage]
            } else if let path = MigrationPath(rawValue: word) {
                options.paths = (options.paths ?? []) + [path]
            } else {
                throw InputError(
                    "--modes: unknown mode '\(word)' (expected single, per-entity, in-memory, streaming, chained, direct)"
                )
            }
        }
    }
}

/// One run of scenarios through child processes, reported: shared by `run` and `profile`.
struct ReportRun {
    let out: String
    let baseline: String?
    var history: RunHistory?

    func run(scenarios: [Scenario], options: RunOptions, command: [String]) throws -> Report {
        // Bad input is exit 1 before any child starts, not a crashed cell (exit 2) once they have.
        for scenario in scenarios {
            _ = try scenario.check(sizes: options.sizes ?? scenario.sizes(quick: options.quick))
        }
        let baselineReport = try baseline.map(Self.readReport)
        let started = Date()
        let runID = Self.runID(started)
        let folder = "\(out)/\(runID)"
        let work = "\(folder)/.work"
        // Interrupted before its reports are written, the run leaves no folder.
        Interruption.remove(onInterruption: folder)
        defer { Interruption.keep(folder) }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        let display = RunDisplay()
        let launches = Mutex(0)
        var orchestrator = RunOrchestrator(scenarios: scenarios, options: options)
        let callgrind =
            orchestrator.cells().contains { $0.spec.countInstructions } ? CallgrindLauncher.prepare(in: work) : nil
        orchestrator.launch = { spec in
            let launch = launches.withLock { count in
                count += 1
                return count
            }
            return CellLauncher.launch(spec, folder: "\(work)/\(launch)", callgrind: callgrind)
        }
        let summaries = orchestrator.summaries()
        for summary in summaries {
            for finding in summary.findings ?? [] {
                printError("\(finding.severity.rawValue): \(finding.code): \(summary.name): \(finding.message)")
            }
        }
        let cells = orchestrator.run { display.show($0) }
        display.finish()

        var report = Report(
            runID: runID, startedAt: ISO8601DateFormatter().string(from: started),
            durationSeconds: Date().timeIntervalSince(started), command: command,
            environment: EnvironmentProbe.current(
                jemallocVersion: JemallocHeap.make()?.allocatorDescription, buildConfiguration: Self.configuration),
            scenarios: summaries, cells: cells, baseline: nil,
            verdict: Verdict.decide(cells: cells, baseline: nil), shard: orchestrator.shardRecord())
        if let baselineReport, let baseline {
            report.applyBaseline(report.compare(to: baselineReport, baselineFile: baseline))
        }
        if let history { report = try history.record(report) }
        let written = try ReportWriter.write(report, toPath: folder)
        Interruption.remove(onInterruption: work)
        Self.pointLatest(at: runID, in: out)
        print(Self.summary(report, files: written.map(\.path)))
        return report
    }

    static func readReport(_ path: String) throws -> Report {
        let data: Data
        do {
            data = try InputLimits.read(path)
        } catch {
            throw InputError("\(path): \(error.message)")
        }
        do {
            return try ReportJSON.decode(from: data)
        } catch {
            throw InputError("\(path): not a report this version can read: \(error)")
        }
    }

    static var configuration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    static func runID(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date) + "-\(getpid())"
    }

    /// Makes `<out>/latest` a symbolic link to the newest run's folder: a new link under a name of this
    /// process's own, renamed over the old one, so that runs side by side (shards) never see it missing.
    static func pointLatest(at runID: String, in out: String) {
        let link = "\(out)/latest"
        let fresh = "\(out)/.latest-\(getpid())"
        try? FileManager.default.removeItem(atPath: fresh)
        guard (try? FileManager.default.createSymbolicLink(atPath: fresh, withDestinationPath: runID)) != nil,
            rename(fresh, link) == 0
        else {
            try? FileManager.default.removeItem(atPath: fresh)
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: runID)
            return
        }
    }

    static func summary(_ report: Report, files: [String]) -> String {
        let verdict = report.verdict
        var lines = [
            "\(verdict.passed ? "PASSED" : "FAILED") — \(verdict.passedCells) of \(verdict.cells) cells passed"
                + " (integrity failures \(verdict.integrityFailures), over budget \(verdict.budgetFailures), "
                + "regressions \(verdict.regressions), crashed \(verdict.crashed)); exit code \(verdict.exitCode)"
        ]
        lines += files.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// Starts `migration-bench run-cell` for one repetition of a cell and reads what it measured.
enum CellLauncher {
    /// Runs one repetition; a cell that counts instructions runs under `callgrind`, or, when it cannot, runs
    /// as usual with its instructions unavailable and the reason.
    static func launch(
        _ spec: CellSpec, folder: String, callgrind: Result<CallgrindLauncher, CountUnavailable>? = nil
    ) -> CellLaunchOutcome {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return .failed("cannot create \(folder): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let counter = spec.countInstructions ? callgrind : nil
        let launcher = try? counter?.get()
        let profile = "\(folder)/callgrind.out"
        let arguments =
            [
                "run-cell", "--scenario", spec.scenarioFile, "--size", "\(spec.size)", "--passes",
                spec.mode.passes.rawValue,
                "--storage", spec.mode.storage.rawValue, "--path", spec.mode.path.rawValue, "--folder", folder,
                "--output", "\(folder)/sample.json",
            ] + (spec.breakdown ? [] : ["--no-breakdown"])
        let data: Data
        switch MeasuringChild.run(
            arguments, output: "\(folder)/sample.json", errors: "\(folder)/stderr.txt", callgrind: launcher,
            profile: profile)
        {
        case .notStarted(let why): return .failed("cannot start the cell's process: \(why)")
        case .killed(let signal, let message):
            return .crashed("the cell's process was killed by signal \(signal)\n\(message)")
        case .failed(let status, let message):
            guard status != 0 else { return .crashed("the cell's process exited without its measurements") }
            return .failed(message.isEmpty ? "the cell's process exited with \(status)" : message)
        case .finished(let bytes): data = bytes
        }
        do {
            var sample = try JSONDecoder().decode(CellSample.self, from: data)
            switch counter {
            case .success(let launcher):
                launcher.addInstructions(to: &sample, outFile: profile)
                sample.underValgrind = true
            case .failure(let why): sample.unavailable[MetricDefinition.instructions.key] = why.reason
            case nil: break
            }
            return .finished(sample)
        } catch {
            return .crashed("the cell's process exited without its measurements: \(error)")
        }
    }
}
