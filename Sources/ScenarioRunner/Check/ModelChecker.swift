public import DataGeneration
import Foundation
public import Instrumentation
public import MappingModel
public import MigrationEngine
public import ObjectModel
public import ReportModel

/// `migration-bench check`: for every version of a model's history, a store generated at that version is
/// migrated to the current version as Core Data migrates it — in one step, with the mapping model whose hashes
/// match both ends (given or found beside the bundle), else inferred — verified and measured; and what is
/// wrong or risky comes out as findings. With the progressive strategy, every consecutive step also runs once,
/// on a store generated at its source version. One step per version either way: O(n) steps for n versions.
///
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
        /// Only the store at this place of the check's order (``Outcome/places``), whatever the shard: each
        /// counting run of `check --instructions` measures one store in a process of its own.
        public var store: Int?
        /// What runs an entity mapping whose policy class is bound to no registered policy.
        public var unboundPolicies = UnboundPolicies.error
        /// Whether each consecutive step also runs (progressive), or nil to decide from the mapping models:
        /// progressive when they each cover one consecutive step.
        public var progressive: Bool?

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
        /// planning, measuring, reporting each step). A store's folder is removed on another thread while the next
        /// store is generated, migrated and verified, so that removal now mostly overlaps (and can slow) those
        /// measured phases instead of counting here; only the wait for the last removal does.
        public var overheadSeconds: Double
        /// Seconds the migrations took, all steps together.
        public var stepSeconds: Double
        /// Seconds the verifications took, all steps together.
        public var verifySeconds: Double
        /// The report's record of the shard run, or nil for an unsharded check.
        public var shard: ShardRecord?
        /// What each cell measured, by cell id: under callgrind, the parts that hold each phase's instructions
        /// (see ``addInstructions(counted:parts:method:)``).
        public var samples: [String: CellSample] = [:]
        /// The place of each cell's store in the check's order (``Options/store``), in the order of ``cells``.
        public var places: [Int] = []
    }

    let modelPath: String
    let history: ModelHistory
    let options: Options
    let chain: [String]
    let mappings: CheckedMappings
    /// The steps run: each version's store straight to the target (Core Data's path), then, when progressive,
    /// each consecutive step not among them.
    let links: [Link]
    /// Whether the consecutive steps run too.
    let progressive: Bool
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
        var mappings = try CheckedMappings(
            paths: options.mappings, history: history, modelPath: modelPath, bindings: options.bindings)
        mappings.runUnboundPolicies(options.unboundPolicies, registered: options.policies.names)
        self.mappings = mappings
        dataset =
            try options.datasetValue
            ?? options.dataset.map { path throws(GenerationError) in try Dataset.load(path: path) } ?? Dataset()
        let direct = try StoreMigrator(history: history, mappingModels: mappings.models)
        let automatic = StoreMigrator.automaticPath(given: mappings.models, chain: try MigrationChain(chain)).0
        progressive = options.progressive ?? (automatic == .chained)
        links = Self.links(chain: chain, history: history, progressive: progressive)
        let found = Self.modelFindings(
            history: history, chain: chain, links: links, mappingModels: mappings.models, policies: options.policies,
            inferenceSource: { try? direct.inferenceSource(for: $0, to: $1) })
        blocked = found.blocked
        staticFindings =
            mappings.findings + found.findings
            + Self.shapeNotes(dataset, file: options.dataset, chain: chain, history: history)
    }

    /// For a dataset that `shape` wrote, one note per version of the chain naming the attributes it has no entry
    /// for (added after the shaped store's version), which the check generates with the defaults.
    static func shapeNotes(_ dataset: Dataset, file: String?, chain: [String], history: ModelHistory) -> [Finding] {
        let shape = file.map { "the shape \(DisplayPath.of($0))" } ?? "the shape"
        return chain.compactMap { name in
            guard let version = history.version(named: name) else { return nil }
            let missing = dataset.unshapedAttributes(of: version)
            guard !missing.isEmpty else { return nil }
            return Finding(
                code: "shapeDefaults", severity: .note, from: name, to: nil, entity: nil, property: nil,
                message: "\(shape) has no \(missing.joined(separator: ", ")): generated with the defaults")
        }
    }

    /// The version stores migrate to.
    public var target: String { chain[chain.count - 1] }

    /// The steps a check runs: from each version straight to the target (a step that runs nothing when their
    /// hashes are identical), except from a version whose hashes equal an earlier one's (the same version to
    /// Core Data); with `progressive`, then each consecutive step not already among them.
    static func links(chain: [String], history: ModelHistory, progressive: Bool) -> [Link] {
        let target = chain[chain.count - 1]
        var links: [Link] = []
        for (index, origin) in chain.dropLast().enumerated()
        where !chain[..<index].contains(where: { history.areIdentical($0, origin) }) {
            links.append(Link(from: origin, to: target, isDirect: true))
        }
        if progressive {
            for (from, to) in zip(chain, chain.dropFirst())
            where !history.areIdentical(from, to) && !links.contains(where: { $0.from == from && $0.to == to }) {
                links.append(Link(from: from, to: to, isDirect: false))
            }
        }
        return links
    }

    /// Runs every store through its chain, in `folder` (which the caller removes); `event` is told of each
    /// step as it ends.
    public func run(
        heap: any HeapStatistics, folder: String, event: (CheckStep) -> Void = { _ in }
    ) throws -> Outcome {
        let started = ContinuousClock.now
        var runner = try ChainRunner(checker: self, heap: heap)
        var cells: [Cell] = []
        let stores = options.sizes.flatMap { size in links.map { (size: size, link: $0) } }
        let specs = stores.map { runner.spec($0.link, size: $0.size) }
        let chosen = options.store.map { Set([$0]) } ?? options.shard.map { Set($0.positions(specs)) }
        var places: [Int] = []
        // A store's work folder is removed on another thread while the next store runs, and the check waits for
        // the last removal before it stops its clock. Removing a folder mostly waits for the file system (75 µs
        // to 17 ms a store at load 12); in turn, it kept the check from going on. Under callgrind, whose counts
        // would take in the other thread's instructions, in turn as before.
        let removals = DispatchQueue(label: "check.work-folder-removal")
        let inTurn = runner.meter.countsUnderCallgrind
        defer { removals.sync {} }
        for (place, (size, link)) in stores.enumerated() where chosen?.contains(place) ?? true {
            places.append(place)
            let work = "\(folder)/\(size)-\(place)"
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer {
                let remove: @Sendable () -> Void = { _ = try? FileManager.default.removeItem(atPath: work) }
                if inTurn { remove() } else { removals.async(execute: remove) }
            }
            cells.append(try runner.run(link, size: size, folder: work, event: event))
        }
        removals.sync {}
        let total = (ContinuousClock.now - started).seconds
        var check = ModelCheck(
            model: modelPath, current: target, sizes: options.sizes, steps: runner.steps, findings: [],
            walks: Self.walks(chain: chain, history: history, links: links, progressive: progressive))
        check.findings = ModelCheck.sorted(
            (staticFindings + runner.findings).map(onTheAppsPath) + check.pathDifferences())
        return Outcome(
            check: check, cells: cells, scenarios: links.map(summary),
            overheadSeconds: max(0, total - runner.measuredSeconds), stepSeconds: runner.stepSeconds,
            verifySeconds: runner.verifySeconds, shard: options.shard?.record(specs), samples: runner.samples,
            places: places)
    }

    /// The report's summary of the step `link`.
    private func summary(of link: Link) -> ScenarioSummary {
        let models = StoreMigrator.mappingModels(mappings.models, from: link.from, to: link.to, in: history)
        return ScenarioSummary(
            name: Self.scenarioName(link),
            title: link.isDirect
                ? "A store at \(link.from), migrated to \(target)" : "The step \(link.from) → \(link.to)",
            description: link.isDirect
                ? "Generated at \(link.from) and migrated to \(target) in one step, as Core Data does, and verified."
                : "Generated at \(link.from) and migrated to \(link.to), one step of a progressive migration, verified.",
            file: modelPath, chain: [link.from, link.to],
            steps: [
                ScenarioSummary.Step(
                    from: link.from, to: link.to, kind: models.isEmpty ? "lightweight" : "heavyweight",
                    mapping: models.first?.file.map(DisplayPath.of))
            ])
    }

    /// `finding` as the app's own path weighs it: with the progressive strategy the app migrates step by step,
    /// so what only Core Data's single step (a store's version straight to the target, skipping versions) runs
    /// into is a warning, the `pathsDiffer` warning saying where the two paths part; budgets stay errors.
    private func onTheAppsPath(_ finding: Finding) -> Finding {
        guard progressive, finding.severity == .error, !finding.isBudget,
            links.contains(where: { link in
                link.isDirect && link.from == finding.from && link.to == finding.to
                    && chain.firstIndex(of: link.to) != chain.firstIndex(of: link.from).map { $0 + 1 }
            })
        else { return finding }
        var warning = finding
        warning.severity = .warning
        warning.message =
            "on Core Data's single step only (the app migrates step by step, and those steps are checked on their "
            + "own): " + finding.message
        return warning
    }

    /// With the progressive strategy, the consecutive steps that take each store past an intermediate version
    /// to the target, whose end ``ModelCheck/pathDifferences()`` compares with Core Data's single step.
    static func walks(chain: [String], history: ModelHistory, links: [Link], progressive: Bool) -> [ModelCheck.Walk]? {
        guard progressive else { return nil }
        return links.compactMap { link in
            guard link.isDirect, let start = chain.firstIndex(of: link.from), start + 1 < chain.count - 1 else {
                return nil
            }
            let steps = zip(chain[start...], chain[start...].dropFirst()).filter { !history.areIdentical($0.0, $0.1) }
            return ModelCheck.Walk(origin: link.from, steps: steps.map { ModelCheck.Walk.Step(from: $0.0, to: $0.1) })
        }
    }

    /// The report's scenario name of the step `link`.
    static func scenarioName(_ link: Link) -> String {
        link.isDirect ? ModelCheck.scenarioName(origin: link.from) : "step \(link.from) → \(link.to)"
    }
}
