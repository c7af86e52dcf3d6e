/// Everything one run of the scenario runner measured and decided: the file `report.json` holds one.
///
/// The schema is versioned: a reader that meets a ``schemaVersion`` it does not know must refuse the file
/// rather than guess. Every figure is a plain value, so the report can be compared, rendered and stored
/// without the code that produced it.
public struct Report: Sendable, Hashable, Codable {
    /// The schema version that this module writes. Version 2 added each cell's ``Cell/breakdown``.
    public static let currentSchemaVersion = 2
    /// The schema versions this module reads: version 1 is version 2 without the fields it added, which are
    /// optional.
    public static let readableSchemaVersions = 1...currentSchemaVersion

    /// The schema version of this report; ``currentSchemaVersion`` for a report made by this module.
    public var schemaVersion: Int
    /// The run's identifier, also the name of its folder in `Reports/`.
    public var runID: String
    /// When the run started, in ISO 8601 at UTC, such as `2026-11-22T10:15:00Z`.
    public var startedAt: String
    /// How long the whole run took, in seconds.
    public var durationSeconds: Double
    /// The command line that started the run, one argument per element.
    public var command: [String]
    /// The machine and the software the run measured.
    public var environment: Environment
    /// The scenarios the run took its cells from.
    public var scenarios: [ScenarioSummary]
    /// Every measured cell: one scenario at one store size in one mode.
    public var cells: [Cell]
    /// The comparison with a baseline report, when the run was given one.
    public var baseline: BaselineComparison?
    /// The run's outcome and exit code.
    public var verdict: Verdict
    /// What `migration-bench check` found, for a check's report; nil for a run of scenarios.
    public var check: ModelCheck?
    /// The last runs kept in the `--history` folder, oldest first, this one last; nil without `--history`.
    public var history: [HistoryEntry]?
    /// Which share of the matrix this report holds, for a shard's report (`run --shard`); nil otherwise.
    public var shard: ShardRecord?
    /// The runs of the shards a merged report was put together from (`merge`), by shard; nil otherwise.
    public var shards: [ShardRun]?

    /// Creates a report.
    public init(
        schemaVersion: Int = Report.currentSchemaVersion, runID: String, startedAt: String, durationSeconds: Double,
        command: [String], environment: Environment, scenarios: [ScenarioSummary], cells: [Cell],
        baseline: BaselineComparison?, verdict: Verdict, check: ModelCheck? = nil, shard: ShardRecord? = nil,
        shards: [ShardRun]? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.runID = runID
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.command = command
        self.environment = environment
        self.scenarios = scenarios
        self.cells = cells
        self.baseline = baseline
        self.verdict = verdict
        self.check = check
        self.shard = shard
        self.shards = shards
    }
}

/// The machine and the software a run measured.
public struct Environment: Sendable, Hashable, Codable {
    /// The operating system and its version, such as `Debian GNU/Linux 13`.
    public var os: String
    /// The kernel release, such as `6.8.0-45-generic`.
    public var kernel: String
    /// The CPU model.
    public var cpu: String
    /// Logical CPUs the process may use.
    public var cpuCount: Int
    /// Physical memory, in bytes.
    public var memoryBytes: Int
    /// The Swift compiler that built the executable.
    public var swiftVersion: String
    /// The SQLite library version.
    public var sqliteVersion: String
    /// The jemalloc version, or nil when jemalloc is not the allocator, so that heap figures are unavailable.
    public var jemallocVersion: String?
    /// The git commit of the measured source, when known.
    public var gitCommit: String?
    /// `debug` or `release`.
    public var buildConfiguration: String
    /// The machine's host name.
    public var hostname: String
    /// The processor architecture, such as `x86_64`; absent in older reports.
    public var architecture: String?

    /// Creates an environment description.
    public init(
        os: String, kernel: String, cpu: String, cpuCount: Int, memoryBytes: Int, swiftVersion: String,
        sqliteVersion: String, jemallocVersion: String?, gitCommit: String?, buildConfiguration: String,
        hostname: String, architecture: String? = nil
    ) {
        self.os = os
        self.kernel = kernel
        self.cpu = cpu
        self.cpuCount = cpuCount
        self.memoryBytes = memoryBytes
        self.swiftVersion = swiftVersion
        self.sqliteVersion = sqliteVersion
        self.jemallocVersion = jemallocVersion
        self.gitCommit = gitCommit
        self.buildConfiguration = buildConfiguration
        self.hostname = hostname
        self.architecture = architecture
    }
}
