import ArgumentParser
import DataGeneration
import Foundation
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import ReportModel
import Reporting
import ScenarioRunner
import Yams

/// `migration-bench list`: the scenarios and their cells.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the scenarios in Scenarios/ (or the files given), with their steps and cells.")

    @Argument(help: ArgumentHelp("Scenario files or names (default: all).", valueName: "scenario"))
    var scenarios: [String] = []

    func run() throws {
        try reportingInputErrors {
            for scenario in try ScenarioFiles.load(scenarios) {
                let modes = scenario.modes.all.map(\.slug).joined(separator: ", ")
                print("\(scenario.name) — \(scenario.title)  (\(scenario.file))")
                print("  chain \(scenario.chain.joined(separator: " → ")); modes \(modes)")
                print(
                    "  sizes quick \(scenario.quickSizes.map(ProgressBar.grouped).joined(separator: ", ")); full "
                        + scenario.fullSizes.map(ProgressBar.grouped).joined(separator: ", "))
            }
        }
    }
}

/// `migration-bench validate`: checks scenario files without running them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files without running them: schema, model, chain, mappings, dataset and plan.",
        discussion: "Exit code 0 when every file is valid, 1 at the first problem (naming its file, line and key).")

    @Argument(help: ArgumentHelp("Scenario files or names (default: all).", valueName: "scenario"))
    var scenarios: [String] = []

    func run() throws {
        try reportingInputErrors {
            for scenario in try ScenarioFiles.load(scenarios) {
                let plans = try scenario.check()
                let steps = scenario.modes.path.compactMap { path in
                    plans[path].map { plan in
                        "\(path.rawValue): "
                            + plan.steps.map { "\($0.name) \($0.kind.rawValue)" }.joined(separator: ", ")
                    }
                }
                print("ok \(scenario.file): \(steps.joined(separator: "; "))")
            }
        }
    }
}

/// `migration-bench compare`: one report against another.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a report with a baseline report: time, peak heap and floor ratio per cell.",
        discussion: """
            A figure regresses only when its median is worse by more than the threshold (10% and 5 ms for time, \
            10% and 1 MiB for heap, 10% for the floor ratio) and its range no longer overlaps the baseline's. \
            Improvements never fail. Exit code 3 when anything regressed, 0 otherwise.
            """)

    @Argument(help: ArgumentHelp("The baseline report.json.", valueName: "baseline"))
    var baseline: String

    @Argument(help: ArgumentHelp("The report.json to judge.", valueName: "report"))
    var report: String

    @Flag(name: .long, help: "Print the comparison as JSON.")
    var json = false

    func run() throws {
        var regressed = false
        try reportingInputErrors {
            let old = try ReportRun.readReport(baseline)
            let new = try ReportRun.readReport(report)
            let comparison = new.compare(to: old, baselineFile: baseline)
            regressed = !comparison.regressions.isEmpty
            if json {
                try printJSON(comparison)
                return
            }
            for entry in comparison.entries {
                let change = entry.change.map { String(format: " (%+.1f%%)", $0 * 100) } ?? ""
                let before = entry.baseline.map { Self.format($0.median) } ?? "—"
                let after = entry.current.map { Self.format($0.median) } ?? "—"
                print(
                    "\(entry.verdict.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(entry.cell) "
                        + "\(entry.metric): \(before) → \(after)\(change)")
            }
            print(regressed ? "REGRESSED: \(comparison.regressions.count) figure(s)" : "no regression")
        }
        if regressed { throw ExitCode.regression }
    }

    private static func format(_ value: Double) -> String {
        value >= 1_048_576 ? String(format: "%.1f MiB", value / 1_048_576) : String(format: "%.4g", value)
    }
}

/// `migration-bench profile`: measures the migration of a copy of the user's own store.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Measure the migration of a copy of your own store (never the store itself) and write reports.",
        discussion: """
            The store's version is detected from its metadata; each repetition copies the store (with its -wal) \
            into a fresh child process's folder, migrates the copy step by step, verifies each step and \
            measures every phase, exactly as 'run' does for generated stores.
            """)

    @OptionGroup var options: ChainOptions

    @Option(name: .long, help: "in-memory or streaming, separated by commas.")
    var storage = "streaming"

    @Option(name: .long, help: "Runs of the migration.")
    var repetitions = 3

    @Option(name: .long, help: "The costliest parts of each step to print, with their share and cause.")
    var top = 5

    @Flag(
        name: .long,
        help: "Count instructions under valgrind's callgrind, phase by phase and part by part (20 to 50 times slower).")
    var instructions = false

    @Option(name: .long, help: ArgumentHelp("The reports folder.", valueName: "dir"))
    var out = "Reports"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Profile a store generated with the store's shape and K times its objects instead of a copy of it.",
            valueName: "K"))
    var scale: Int?

    func validate() throws {
        guard (1...InputLimits.repetitions).contains(repetitions) else {
            throw ValidationError("--repetitions must be from 1 to \(InputLimits.repetitions)")
        }
        if let scale, !(1...1000).contains(scale) { throw ValidationError("--scale must be from 1 to 1000") }
        guard (0...1000).contains(top) else { throw ValidationError("--top must be from 0 to 1000") }
    }

    func run() throws {
        var exitCode: Int32 = 0
        try reportingInputErrors {
            let migrator = try options.migrator()
            let plan = try Self.plan(of: options.store, migrator: migrator, to: options.to)
            guard !plan.isEmpty else {
                throw InputError("\(options.store) is already at \(plan.from): nothing to profile")
            }
            let chain = try migrator.chain.path(from: plan.from, to: plan.to)
            let absolute = { (path: String) in
                path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            }
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let file = "\(out)/profile-\(getpid()).yaml"
            // Yams writes the scenario, so that any path or version name is quoted as YAML needs.
            var fields: [String: Any] = [
                "name": "profile",
                "title": "Profile of " + (options.store as NSString).lastPathComponent,
                "model": absolute(options.model.model),
                "store": absolute(options.store),
                "chain": chain,
                "mappings": options.mapping.map(absolute),
                "sizes": ["quick": [1], "full": [1]],
                "modes": [
                    "storage": storage.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                    "passes": [options.passes.rawValue], "path": [migrator.chosenPath.path.rawValue],
                ],
                "repetitions": ["quick": repetitions, "full": repetitions],
            ]
            if let policies = options.policies.policies { fields["policies"] = absolute(policies) }
            fields["unboundPolicies"] = options.policies.unboundPolicies.rawValue
            if let scale {
                // A store shaped like the user's, `scale` times larger: generated, so it may be of any size.
                let shape = try ShapeCommand.read(store: options.store, model: options.model.model)
                let size = shape.totalObjects * scale
                guard (1...InputLimits.size).contains(size) else {
                    throw InputError("--scale \(scale): \(size) objects is outside 1…\(InputLimits.size)")
                }
                fields["store"] = nil
                fields["dataset"] = ["like": absolute(options.store)]
                fields["sizes"] = ["quick": [size], "full": [size]]
                fields["title"] =
                    "Profile of a store shaped like " + (options.store as NSString).lastPathComponent + ", ×\(scale)"
            }
            let yaml = try Yams.dump(object: fields)
            Interruption.remove(onInterruption: file)
            try yaml.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let scenario = try ScenarioLoader.load(path: file)
            var runOptions = RunOptions(quick: true)
            runOptions.instructions = instructions
            let report = try ReportRun(out: out, baseline: nil).run(
                scenarios: [scenario], options: runOptions,
                command: ["profile"] + CommandLine.arguments.dropFirst(2))
            if top > 0 { print(BreakdownText.render(report, top: top), terminator: "") }
            exitCode = Int32(report.verdict.exitCode)
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// The plan for `store`, read where it is; what reading it in WAL mode leaves beside it (an empty `-wal`
    /// and a `-shm`) is removed again, so the user's folder stays as it was.
    static func plan(of store: String, migrator: StoreMigrator, to target: String?) throws -> MigrationPlan {
        guard FileManager.default.fileExists(atPath: store) else { throw InputError("\(store): no such store") }
        return try WriteAheadLog.leavingNoSidecars(of: [store]) {
            try migrator.requiredMigrations(forStoreAt: store, to: target)
        }
    }
}
