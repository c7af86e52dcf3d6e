/// One part of a step as the profiler measured it: an entity mapping's stage, or work of a stage that belongs to
/// no entity mapping (saving, checking the store, committing, building indexes, a lightweight step's SQL).
public struct ProfileSegment: Sendable, Hashable, Codable {
    /// The step, from 1.
    public var step: Int
    /// The pass, from 1; nil for a lightweight step.
    public var pass: Int?
    /// The stage: ``MigrationProgress/Stage``'s raw value, or `SQL in place` for a lightweight step.
    public var stage: String
    /// The entity mapping, or nil for work of the stage that belongs to none.
    public var mapping: String?
    /// What the segment did when it belongs to no entity mapping, such as `committing`.
    public var work: String?
    /// Wall-clock seconds.
    public var wallSeconds: Double
    /// CPU seconds in user mode (the whole process's); nil where not measured (the profiler's own reads, timed by
    /// the wall clock alone).
    public var userSeconds: Double?
    /// CPU seconds in the kernel (the whole process's); nil where not measured.
    public var systemSeconds: Double?
    /// Source rows read.
    public var rowsRead: Int
    /// Destination objects made.
    public var objectsCreated: Int
    /// Relationship edges written (a one-to-one counts once per side).
    public var edgesMade: Int
    /// How far the thread's heap grew above the segment's start at most; nil when unavailable.
    public var heapPeakGrowthBytes: Int?
    /// Heap allocations of the measuring thread; nil when unavailable.
    public var allocations: Int?
    /// Bytes those allocations asked for; nil when unavailable.
    public var allocatedBytes: Int?
    /// SQLite virtual-machine steps.
    public var sqliteSteps: Int
    /// Pages read into SQLite's cache.
    public var sqlitePagesRead: Int
    /// Pages written by SQLite.
    public var sqlitePagesWritten: Int
    /// Instructions of the measuring thread, where counted: by the hardware counter, or under callgrind from the
    /// profile part ``instructionPart`` once the process has exited; nil where not counted.
    public var instructions: Int? = nil
    /// Under callgrind: the index of the profile part that holds the segment's instructions (see
    /// `CallgrindParts`), which the parent process reads into ``instructions``.
    public var instructionPart: Int? = nil
    /// The policy's callbacks, for a mapping with a custom policy: time and calls of each.
    public var callbacks: [PolicyCallbackTime]
    /// Why this part costs what it does, where the engine knows: `policy callbacks`, `to-many key path`, …
    public var hint: String?
}

/// The time one policy callback of one entity mapping took, over all its calls.
public struct PolicyCallbackTime: Sendable, Hashable, Codable {
    /// The callback, as Core Data names it: `createDestinationInstances`, `createRelationships`, …
    public var callback: String
    /// Calls made.
    public var calls: Int
    /// Wall-clock seconds in all.
    public var seconds: Double

    /// Creates a callback's time.
    public init(callback: String, calls: Int, seconds: Double) {
        self.callback = callback
        self.calls = calls
        self.seconds = seconds
    }
}

/// One SQL statement of a lightweight step, with SQLite's own measure of it (`sqlite3_trace_v2`,
/// `SQLITE_TRACE_PROFILE`), its runs added up.
public struct StatementTime: Sendable, Hashable, Codable {
    /// The step, from 1.
    public var step: Int
    /// The statement's text, shortened to ``StatementTime/textLimit`` characters.
    public var text: String
    /// Times it ran.
    public var runs: Int
    /// Seconds SQLite measured, over all runs.
    public var seconds: Double
    /// Rows it inserted, updated or deleted, over all runs; nil for a statement that only reads.
    public var rows: Int?

    /// The longest statement text kept.
    public static let textLimit = 160
}

/// What the profiler measured of a migration: every segment in the order run, and a lightweight step's
/// statements.
public struct MigrationProfile: Sendable, Hashable, Codable {
    /// The segments, in the order run.
    public var segments: [ProfileSegment] = []
    /// The statements of lightweight steps, in the order first run.
    public var statements: [StatementTime] = []

    /// An empty profile.
    public init() {}
}
