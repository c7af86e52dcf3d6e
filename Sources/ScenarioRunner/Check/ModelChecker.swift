public import DataGeneration
import Foundation
public import Instrumentation
public import MappingModel
public import MigrationEngine
public import ObjectModel
public import ReportModel

/// `migration-bench check`: for every version of a model's history, a store generated at that version is
/// migrated step by step to the current version — with the mapping models given or found beside the bundle,
/// inferred elsewhere — verified and measured; and what is wrong or risky comes out as findings.
///
/// Every consecutive step runs on its own too: it is the first step of the chain from its source version.
/// The steps run in this process, one after another on one thread, each measured by a ``PhaseMeter``.
public struct ModelChecker {
    /// What a check covers.
    public struct Options: Sendable {
        /// Objects per entity of each generated store.
        public var sizes: [Int] = [100, 10_000]
        /// The version stores migrate to (default: the model's current version).
        public var target: String?
        /// A dataset file that shapes the generated stores (`size` is its multiplier).
        public var dataset: String?
        /// A dataset made in Swift, used instead of the file `dataset`.
        public var datasetValue: Dataset?
        /// The mapping files and folders given.
        public var mappings: [String] = []
        /// The policy bindings of the Xcode mapping models.
        public var bindings = PolicyBindings()
        /// The policies and functions the mapping models may name (Swift code of the app's own, registered).
        public var policies: PolicyRegistry = .builtIn()
        /// The largest wall time a step may take, or nil.
        public var maxStepSeconds: Double?
        /// The largest heap peak a step may reach, or nil.
        public var maxStepHeapBytes: Int?
        /// Only this shard's stores (`--shard I/N`); nil: every one.
        public var shard: ShardPlan?

        /// The default options: sizes 100 and 10,000, no budget.
        public init() {}
    }

    /// What a check found and ran, and the report's cells: one per store generated (version and size).
    public struct Outcome {
        /// The findings and steps.
        public var check: ModelCheck
        /// The report's cells.
        public var cells: [Cell]
        /// The report's scenarios: one per version a store starts at.
        public var scenarios: [ScenarioSummary]
        /// Seconds spent outside generation, migrations and verifications: the check's own overhead (copies,
        /// file removal, planning, measuring, reporting each step).
        public var overheadSeconds: Double
        /// Seconds the migrations took, all steps together.
        public var stepSeconds: Double
        /// Seconds the verifications took, all steps together.
        public var verifySeconds: Double
        /// The report's record of the shard run, or nil for an unsharded check.
        public var shard: ShardRecord?
    }

    let modelPath: String
    let history: ModelHistory
    let options: Options
    let chain: [String]
    let mappings: CheckedMappings
    let blocked: [Link: (outcome: CheckStep.Outcome, reason: String)]
    let staticFindings: [Finding]
    let dataset: Dataset

    /// A check of the model `history` read from `modelPath`.
    ///
    /// - Throws: a ``MappingError``, ``GenerationError`` or ``ModelError`` naming the file for bad input.
    public init(modelPath: String, history: ModelHistory, options: Options) throws {
        self.modelPath = modelPath
        self.history = history
        self.options = options
        let target = try history.requireVersion(options.target ?? history.currentVersionName).name
        chain = Array(history.versions.map(\.name).prefix { $0 != target }) + [target]
        mappings = try CheckedMappings(
            paths: options.mappings, history: history, modelPath: modelPath, bindings: options.bindings)
        dataset =
            try options.datasetValue
            ?? options.dataset.map { path throws(GenerationError) in try Dataset.load(path: path) } ?? Dataset()
        let found = Self.modelFindings(
            history: history, chain: chain, mappingModels: mappings.models, policies: options.policies)
        blocked = found.blocked
        staticFindings = mappings.findings + found.findings
    }

    /// The version stores migrate to.
    public var target: String { chain[chain.count - 1] }

    /// Runs every store through its chain, in `folder` (which the caller removes); `event` is told of each
    /// step as it ends.
    public func run(
        heap: any HeapStatistics, folder: String, event: (CheckStep) -> Void = { _ in }
    ) throws -> Outcome {
        let started = ContinuousClock.now
        var runner = try ChainRunner(checker: self, heap: heap)
        var cells: [Cell] = []
        let stores = options.sizes.flatMap { size in chain.dropLast().map { (size: size, origin: $0) } }
        let specs = stores.map { runner.spec(origin: $0.origin, size: $0.size) }
        let chosen = options.shard.map { Set($0.positions(specs)) }
        for (place, (size, origin)) in stores.enumerated() where chosen?.contains(place) ?? true {
            let work = "\(folder)/\(size)-\(history.index(of: origin) ?? 0)"
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            cells.append(try runner.run(from: origin, size: size, folder: work, event: event))
        }
        let total = (ContinuousClock.now - started).seconds
        let findings = ModelCheck.sorted(staticFindings + runner.findings)
        let check = ModelCheck(
            model: modelPath, current: target, sizes: options.sizes, steps: runner.steps, findings: findings)
        return Outcome(
            check: check, cells: cells, scenarios: chain.dropLast().map(summary),
            overheadSeconds: max(0, total - runner.measuredSeconds), stepSeconds: runner.stepSeconds,
            verifySeconds: runner.verifySeconds, shard: options.shard?.record(specs))
    }

    /// The report's summary of the chain from `origin`.
    private func summary(from origin: String) -> ScenarioSummary {
        let versions = Array(chain.drop { $0 != origin })
        return ScenarioSummary(
            name: Self.scenarioName(origin), title: "A store at \(origin), migrated to \(target)",
            description: "Generated at \(origin) and migrated step by step to \(target), each step verified.",
            file: modelPath, chain: versions,
            steps: zip(versions, versions.dropFirst()).map { from, to in
                let model = mappings.models.first { $0.sourceVersion == from && $0.destinationVersion == to }
                return ScenarioSummary.Step(
                    from: from, to: to, kind: model == nil ? "lightweight" : "heavyweight",
                    mapping: model?.file.map(DisplayPath.of))
            })
    }

    /// The report's scenario name of the chain from `origin`.
    static func scenarioName(_ origin: String) -> String { ModelCheck.scenarioName(origin: origin) }
}
