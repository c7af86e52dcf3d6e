import ArgumentParser
import Foundation
import ObjectModel
import ReportModel
import Reporting
import ScenarioRunner

/// `migration-bench check`: will every store of every version of a model migrate to the current one?
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a model: migrate a store of every version to the current one, verify, measure, and lint.",
        discussion: """
            For every version of the history, a store generated at that version (default sizes: 100 and 10,000 \
            objects per entity) is migrated to the current version as Core Data migrates it: in one step, with \
            the mapping model (given or found beside an Xcode bundle) whose entity hashes match both ends, else \
            inferred; versions with identical entity hashes are one. With --strategy progressive (the default \
            when the mapping models each cover one consecutive step), every consecutive step also runs once, and \
            where a store's two paths end differently a pathsDiffer warning says so. One step per version either \
            way. Every step is verified and measured. \
            Findings, each with a stable code and a severity: needsMappingModel, needsValue, dataLoss, \
            staleMappingModel, invalidMappingModel, identicalVersionHashes, mappingModelSkipsVersions, \
            backwardMappingModel, pathsDiffer, policyNotSimulated, shapeDefaults and otherModelsMappingModel (notes), verificationFailed, migrationFailed, overTimeBudget, overMemoryBudget. With \
            --instructions, each store is measured again in a child process of its own under valgrind's callgrind, \
            and each phase's instructions (client requests mark the phases, only the measuring thread counted) \
            join the report, each step's in its "instructions"; without valgrind they are unavailable, with the \
            reason. Exit \
            codes: 0 clean (warnings allowed), 1 bad input, 2 an error finding, 3 only budgets exceeded. JSON: \
            {"model", "current", \
            "steps": [{"from", "to", "kind", "mapping", "outcome", "seconds", "peakHeapBytes", "instructions"}], "findings": \
            [{"code", "severity", "from", "to", "entity", "property", "message"}]}.
            """)

    @Argument(
        help: ArgumentHelp("The model: an Xcode .xcdatamodeld bundle or a YAML/JSON model file.", valueName: "model"))
    var model: String

    @Option(name: .long, parsing: .upToNextOption, help: ModelOptions.orderHelp)
    var order: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A mapping model (YAML/JSON, .xcmappingmodel or .cdm) or a folder of them. Mapping models beside an "
                + "Xcode bundle are found by hash without it.",
            valueName: "file or folder"))
    var mapping: [String] = []

    @OptionGroup var policies: PolicyOptions

    @Option(
        name: .long,
        help: ArgumentHelp("Objects per entity of the generated stores, separated by commas.", valueName: "n,n,…"))
    var sizes = "100,10000"

    @Option(name: .long, help: ArgumentHelp("A dataset file that shapes the generated stores.", valueName: "file"))
    var dataset: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The version to migrate to (default: the model's current version).", valueName: "version"))
    var to: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "direct: each version's store straight to the target (Core Data's path); progressive: each consecutive "
                + "step also runs once. Default: progressive when the mapping models each cover one consecutive "
                + "step, else direct.",
            valueName: "direct|progressive"))
    var strategy: Strategy?

    enum Strategy: String, ExpressibleByArgument {
        case direct, progressive
    }

    @Option(name: .long, help: ArgumentHelp("A time budget per step, in seconds.", valueName: "seconds"))
    var maxStepSeconds: Double?

    @Option(name: .long, help: ArgumentHelp("A heap budget per step (bytes, or 64MiB, 1GiB).", valueName: "bytes"))
    var maxStepHeap: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write report.json, index.html, junit.xml and summary.md to <dir>/<run id>/ (and <dir>/latest).",
            valueName: "dir"))
    var out: String?

    @Option(
        name: .long,
        help: ArgumentHelp("A folder keeping one summary per check, charted in the HTML report.", valueName: "dir"))
    var history: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Count each step's instructions under valgrind's callgrind, phase by phase: each store is measured "
                + "again in a child process of its own under it (about 20 to 50 times slower), and the counts join "
                + "this check's report, whose times stay this run's."))
    var instructions = false

    /// The counting run of `--instructions` (see ``CheckCounting``): where to write each cell's sample.
    @Option(name: .customLong(String(CheckCounting.samplesOption.dropFirst(2))), help: .hidden)
    var instructionSamples: String?

    /// The counting run of `--instructions`: the one store it measures, by its place in the check's order.
    @Option(name: .customLong(String(CheckCounting.storeOption.dropFirst(2))), help: .hidden)
    var instructionStore: Int?

    @OptionGroup var sharding: ShardOptions

    func run() throws {
        var exitCode: Int32 = 0
        try reportingInputErrors {
            var options = ModelChecker.Options()
            options.sizes = try RunCommand.sizes(sizes)
            options.target = to
            options.progressive = strategy.map { $0 == .progressive }
            options.dataset = dataset
            options.mappings = mapping
            options.bindings = try policies.bindings()
            options.unboundPolicies = policies.unboundPolicies
            if let maxStepSeconds, !(maxStepSeconds >= 0 && maxStepSeconds.isFinite) {
                throw InputError("--max-step-seconds: '\(maxStepSeconds)' is not a number of seconds from 0")
            }
            options.maxStepSeconds = maxStepSeconds
            options.store = instructionStore
            if let maxStepHeap {
                guard let bytes = ScenarioLoader.quantity(maxStepHeap.replacingOccurrences(of: " ", with: "")),
                    bytes > 0
                else { throw InputError("--max-step-heap: '\(maxStepHeap)' is not a size such as 64MiB") }
                options.maxStepHeapBytes = Int(bytes)
            }
            if let (plan, line) = try sharding.plan() {
                options.shard = plan
                // The first line of output; with --json, standard output is the JSON alone.
                if json { printError(line) } else { printNow(line) }
            }
            let started = Date()
            let modelHistory = try ModelLoader.load(path: model, order: order.isEmpty ? nil : order)
            let checker = try ModelChecker(modelPath: model, history: modelHistory, options: options)
            let work = FileManager.default.temporaryDirectory.appendingPathComponent(
                "migration-bench-check-\(getpid())")
            defer { try? FileManager.default.removeItem(at: work) }
            let display = RunDisplay()
            let quiet = json || instructionSamples != nil
            var outcome = try checker.run(heap: currentHeapStatistics(), folder: work.path) { step in
                if !quiet { display.show(step) }
            }
            display.finish()
            if let instructionSamples {
                try JSONEncoder().encode(outcome.samples).write(to: URL(fileURLWithPath: instructionSamples))
                return
            }
            if instructions {
                if !json { printNow("counting instructions: each store again, under callgrind") }
                CheckCounting.count(
                    &outcome, check: Array(CommandLine.arguments.dropFirst()), folder: work.path + "-callgrind")
            }
            var report = CheckReport(outcome: outcome, started: started)
            if let history { report.report = try RunHistory(folder: history).record(report.report) }
            exitCode = Int32(report.report.verdict.exitCode)
            let files = try out.map { try report.write(to: $0) } ?? []
            if json {
                try printJSON(CheckJSON(outcome.check))
            } else {
                print(report.text(files: files))
            }
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
