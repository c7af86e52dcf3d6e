/// One measured cell: one scenario at one store size in one mode, repeated and summarised.
public struct Cell: Sendable, Hashable, Codable {
    /// The cell's identifier, unique in a run and stable across runs, such as
    /// `library-chain/100000/multi-pass+streaming+chained`; baselines match cells by it.
    public var id: String
    /// The name of the ``ScenarioSummary`` the cell belongs to.
    public var scenario: String
    /// The store size: objects in all, with the scenario's dataset.
    public var size: Int
    /// How the migration ran.
    public var mode: Mode
    /// How many times the cell was measured.
    public var repetitions: Int
    /// The cell's outcome.
    public var status: CellStatus
    /// Why the cell crashed or could not run, or nil.
    public var failure: String?
    /// Objects in the source store.
    public var objects: Int
    /// Relationship edges in the source store.
    public var edges: Int
    /// Every measured phase, in the order run; a phase whose ``Phase/group`` is set belongs to an earlier one.
    public var phases: [Phase]
    /// The whole migration (all steps), with the same metrics as a phase.
    public var total: Phase
    /// The hand-written SQL that does the same work, measured in the same run, or nil when there is none.
    public var floor: Floor?
    /// What the integrity verifier found, or nil when it did not run.
    public var verification: Verification?
    /// The budgets that apply to this cell and whether they held.
    public var budgets: [BudgetResult]
    /// Heap and resident memory sampled during one repetition of the migration.
    public var memorySeries: [MemorySample]
    /// Each deterministic count that could not be measured, keyed by metric, with why (never a zero instead).
    public var unavailable: [String: String]?
    /// How each measured count was taken, keyed by metric, such as `valgrind-3.19.0 callgrind`: a baseline
    /// counted another way is not comparable.
    public var countingMethods: [String: String]?
    /// The relative threshold of each count, keyed by metric, where the scenario sets one (default
    /// ``BaselineThresholds/count``).
    public var countThresholds: [String: Double]?
    /// True when the cell ran beside others (`run --jobs`): its timings are not judged.
    public var measuredInParallel: Bool?
    /// True when the cell ran under valgrind (`run --instructions`): its timings are valgrind's, not the
    /// machine's, and are not judged; its counts are.
    public var timedUnderValgrind: Bool?
    /// Where each step's time and memory went, per entity mapping and stage; nil when the run did not profile
    /// (schema version 1, or `--no-breakdown`).
    public var breakdown: [StepBreakdown]?

    /// Creates a cell.
    public init(
        id: String, scenario: String, size: Int, mode: Mode, repetitions: Int, status: CellStatus, failure: String?,
        objects: Int, edges: Int, phases: [Phase], total: Phase, floor: Floor?, verification: Verification?,
        budgets: [BudgetResult], memorySeries: [MemorySample], unavailable: [String: String]? = nil,
        countingMethods: [String: String]? = nil, countThresholds: [String: Double]? = nil
    ) {
        self.id = id
        self.scenario = scenario
        self.size = size
        self.mode = mode
        self.repetitions = repetitions
        self.status = status
        self.failure = failure
        self.objects = objects
        self.edges = edges
        self.phases = phases
        self.total = total
        self.floor = floor
        self.verification = verification
        self.budgets = budgets
        self.memorySeries = memorySeries
        self.unavailable = unavailable
        self.countingMethods = countingMethods
        self.countThresholds = countThresholds
    }

    /// Whether the cell's figures mean anything: false when it crashed or could not run.
    public var isMeasured: Bool { status != .crashed && status != .error }
}

/// How a cell's migration ran: its pass split, where destination objects live, and its path through the chain.
public struct Mode: Sendable, Hashable, Codable {
    /// `single`, `per-entity` or another pass split of the scenario.
    public var passes: String
    /// `in-memory` or `streaming`.
    public var storage: String
    /// `direct` or `chained`.
    public var path: String

    /// Creates a mode.
    public init(passes: String, storage: String, path: String) {
        self.passes = passes
        self.storage = storage
        self.path = path
    }

    /// The mode for people, such as `single · streaming · chained`.
    public var label: String { "\(passes) · \(storage) · \(path)" }
}

/// The outcome of a cell.
public enum CellStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Verified, within its budgets, and no worse than the baseline.
    case passed
    /// The migrated store is not what the source and mapping say it must be.
    case integrityFailure = "integrity-failure"
    /// A budget, such as a peak-heap limit, was exceeded.
    case budgetExceeded = "budget-exceeded"
    /// Slower or bigger than the baseline beyond its thresholds.
    case regressed
    /// The child process died.
    case crashed
    /// The cell could not run, such as a scenario it could not load.
    case error
}
