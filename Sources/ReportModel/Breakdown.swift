/// Where one step of a cell's migration went: each entity mapping's part of each stage, and each piece of a
/// stage's work that belongs to no mapping, with its share of the step; for a lightweight step, each SQL
/// statement as SQLite measured it. Medians over the cell's repetitions.
public struct StepBreakdown: Sendable, Hashable, Codable {
    /// The step, such as `V1 → V2`: the ``Phase/name`` of its phase.
    public var step: String
    /// The step's wall time, measured around the whole step (not added up from its parts).
    public var wallSeconds: Statistic
    /// Each repetition's parts (the phase meter's phases of the step, whose stages the profiler's parts fill)
    /// added up, over the step's wall time: near 1 when the parts account for the whole step.
    public var accounted: Statistic
    /// Each stage's phase and how much of it its parts account for, in the order run.
    public var stages: [StageAccount]
    /// Every part, costliest (median wall time) first.
    public var parts: [BreakdownPart]
    /// A lightweight step's statements, costliest first; empty for a heavyweight step.
    public var statements: [StatementBreakdown]

    /// Creates a step's breakdown.
    public init(
        step: String, wallSeconds: Statistic, accounted: Statistic, stages: [StageAccount], parts: [BreakdownPart],
        statements: [StatementBreakdown]
    ) {
        self.step = step
        self.wallSeconds = wallSeconds
        self.accounted = accounted
        self.stages = stages
        self.parts = parts
        self.statements = statements
    }
}

/// One stage's phase, such as `pass 1 · creating objects`, and the time its parts account for.
public struct StageAccount: Sendable, Hashable, Codable {
    /// The stage's phase name.
    public var phase: String
    /// The phase's median wall time, measured by the phase meter.
    public var wallSeconds: Double
    /// The median over repetitions of the parts' wall times added up, measured by the engine's profiler.
    public var attributedSeconds: Double
    /// The median over repetitions of the parts' time over the phase's: near 1 when the stage's entity mappings
    /// and its own work account for all of it.
    public var accounted: Double

    /// Creates an account.
    public init(phase: String, wallSeconds: Double, attributedSeconds: Double, accounted: Double) {
        self.phase = phase
        self.wallSeconds = wallSeconds
        self.attributedSeconds = attributedSeconds
        self.accounted = accounted
    }
}

/// One entity mapping's part of one stage (or a stage's work that belongs to no mapping).
public struct BreakdownPart: Sendable, Hashable, Codable {
    /// The stage's phase name, such as `pass 1 · creating objects` or `SQL in place`.
    public var phase: String
    /// The entity mapping, or nil for work of the stage that belongs to none.
    public var mapping: String?
    /// What the part did when it belongs to no entity mapping, such as `committing`.
    public var work: String?
    /// Wall time.
    public var wallSeconds: Statistic
    /// CPU time in user mode (the whole process's); nil where not measured (a stage's unattributed rest, the
    /// phase meter's and the profiler's own reads: wall time alone).
    public var userSeconds: Statistic?
    /// CPU time in the kernel (the whole process's); nil where not measured.
    public var systemSeconds: Statistic?
    /// Source rows read.
    public var rowsRead: Int
    /// Destination objects made.
    public var objectsCreated: Int
    /// Relationship edges written.
    public var edgesMade: Int
    /// How far the heap grew above the part's start at most; nil when unavailable.
    public var heapPeakGrowthBytes: Statistic?
    /// The deterministic counts measured (allocations, allocated bytes, SQLite steps and pages, and instructions
    /// when counted: natively by the hardware counter, under `--instructions` by callgrind), keyed by metric; a stage's `unattributed` part carries the stage
    /// phase's counts less those of its other parts.
    public var counts: [String: Statistic]
    /// A custom policy's callbacks, with their time.
    public var callbacks: [CallbackBreakdown]
    /// The cause of the cost, where the engine knows it.
    public var hint: String?
    /// The part's median wall time over the step's.
    public var share: Double

    /// Creates a part.
    public init(
        phase: String, mapping: String?, work: String?, wallSeconds: Statistic, userSeconds: Statistic?,
        systemSeconds: Statistic?, rowsRead: Int, objectsCreated: Int, edgesMade: Int,
        heapPeakGrowthBytes: Statistic?, counts: [String: Statistic], callbacks: [CallbackBreakdown], hint: String?,
        share: Double
    ) {
        self.phase = phase
        self.mapping = mapping
        self.work = work
        self.wallSeconds = wallSeconds
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
        self.rowsRead = rowsRead
        self.objectsCreated = objectsCreated
        self.edgesMade = edgesMade
        self.heapPeakGrowthBytes = heapPeakGrowthBytes
        self.counts = counts
        self.callbacks = callbacks
        self.hint = hint
        self.share = share
    }
}

/// One policy callback of one entity mapping.
public struct CallbackBreakdown: Sendable, Hashable, Codable {
    /// The callback, as Core Data names it, such as `createDestinationInstances`.
    public var callback: String
    /// Calls made.
    public var calls: Int
    /// Time in all.
    public var seconds: Statistic

    /// Creates a callback's figures.
    public init(callback: String, calls: Int, seconds: Statistic) {
        self.callback = callback
        self.calls = calls
        self.seconds = seconds
    }
}

/// One SQL statement of a lightweight step as SQLite measured it (`SQLITE_TRACE_PROFILE`), its runs added up.
public struct StatementBreakdown: Sendable, Hashable, Codable {
    /// The statement's text, shortened.
    public var text: String
    /// Times it ran.
    public var runs: Int
    /// Time over all runs.
    public var seconds: Statistic
    /// Rows it inserted, updated or deleted; nil for a statement that only reads.
    public var rows: Int?
    /// Its median time over the step's.
    public var share: Double

    /// Creates a statement's figures.
    public init(text: String, runs: Int, seconds: Statistic, rows: Int?, share: Double) {
        self.text = text
        self.runs = runs
        self.seconds = seconds
        self.rows = rows
        self.share = share
    }
}
