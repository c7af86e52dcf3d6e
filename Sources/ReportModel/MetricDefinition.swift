/// What one metric is: its unit, which way is better, and how noisy it is. Budgets, the baseline comparison,
/// `benchmark --gate` and every report read the metric's definition from here, and nowhere else.
///
/// ```swift
/// MetricDefinition.named("allocations")?.noise  // .count
/// ```
public struct MetricDefinition: Sendable, Hashable {
    /// The unit a metric's figures are in.
    public enum Unit: String, Sendable, Hashable, Codable {
        /// Seconds of time.
        case seconds
        /// Bytes of memory or of I/O.
        case bytes
        /// A number of events (allocations, SQLite steps, pages, instructions).
        case count
        /// A quotient of two times.
        case ratio
    }

    /// Which direction of change is an improvement.
    public enum Polarity: String, Sendable, Hashable, Codable {
        /// Smaller figures are better (time, memory, work).
        case lowerIsBetter = "lower-is-better"
        /// Larger figures are better (throughput).
        case higherIsBetter = "higher-is-better"
    }

    /// How a metric's figures vary between runs of the same code, which decides how it is judged.
    public enum NoiseClass: String, Sendable, Hashable, Codable {
        /// The same input and build give the same figure on any load: judged by a small relative threshold,
        /// and only against a baseline that counted the same way on the same software.
        case count
        /// Varies with the machine's load: judged only by a rank test over repeated samples on the same machine.
        case timing
        /// A memory high-water mark: nearly stable, judged by a wide relative and absolute threshold.
        case memory
    }

    /// The key reports, budgets and scenario files use, such as `allocations`.
    public let key: String
    /// A short title for people, such as `heap allocations`.
    public let title: String
    /// The unit of its figures.
    public let unit: Unit
    /// Which way is better.
    public let polarity: Polarity
    /// How it is judged against a baseline.
    public let noise: NoiseClass
    /// Whether a baseline comparison judges it (a metric that is not is still shown and may have a budget).
    public let judged: Bool
    /// What it measures and how, in one sentence, for the reports' legends and the README.
    public let summary: String

    /// Creates a definition.
    public init(
        key: String, title: String, unit: Unit, polarity: Polarity = .lowerIsBetter, noise: NoiseClass,
        judged: Bool, summary: String
    ) {
        self.key = key
        self.title = title
        self.unit = unit
        self.polarity = polarity
        self.noise = noise
        self.judged = judged
        self.summary = summary
    }
}

extension MetricDefinition {
    /// The migration's wall time.
    public static let wallSeconds = MetricDefinition(
        key: "wallSeconds", title: "wall time", unit: .seconds, noise: .timing, judged: true,
        summary: "elapsed time of the whole migration")
    /// The migration's time as a multiple of the floor measured in the same process.
    public static let floorRatio = MetricDefinition(
        key: "floorRatio", title: "floor ratio", unit: .ratio, noise: .timing, judged: true,
        summary: "the migration's time divided by the floor's, each repetition against its own floor")
    /// The heap's high-water mark (jemalloc).
    public static let heapPeakBytes = MetricDefinition(
        key: "heapPeakBytes", title: "peak heap", unit: .bytes, noise: .memory, judged: true,
        summary: "the heap's high-water mark during the migration (jemalloc)")
    /// The resident set's high-water mark.
    public static let peakResidentBytes = MetricDefinition(
        key: "peakResidentBytes", title: "peak resident", unit: .bytes, noise: .memory, judged: false,
        summary: "the resident set's high-water mark (moves with the page cache: budgets only)")
    /// Instructions retired in user mode by the thread that runs the migration.
    public static let instructions = MetricDefinition(
        key: "instructions", title: "instructions", unit: .count, noise: .count, judged: true,
        summary: "instructions executed in user mode: the hardware counter (perf_event_open) or valgrind's callgrind")
    /// Heap allocations made by the thread that runs the migration.
    public static let allocations = MetricDefinition(
        key: "allocations", title: "allocations", unit: .count, noise: .count, judged: true,
        summary: "heap allocations made by the measuring thread (jemalloc, its own arena's request counts)")
    /// Bytes allocated by the thread that runs the migration.
    public static let allocatedBytes = MetricDefinition(
        key: "allocatedBytes", title: "bytes allocated", unit: .bytes, noise: .count, judged: true,
        summary: "bytes allocated by the measuring thread, freed or not (jemalloc thread.allocated)")
    /// SQLite's virtual-machine steps.
    public static let sqliteSteps = MetricDefinition(
        key: "sqliteSteps", title: "SQLite VM steps", unit: .count, noise: .count, judged: true,
        summary: "virtual-machine steps of every statement (sqlite3_stmt_status SQLITE_STMTSTATUS_VM_STEP)")
    /// Pages SQLite read from its files.
    public static let sqlitePagesRead = MetricDefinition(
        key: "sqlitePagesRead", title: "pages read", unit: .count, noise: .count, judged: true,
        summary: "pages SQLite read into its cache from the files (sqlite3_db_status SQLITE_DBSTATUS_CACHE_MISS)")
    /// Pages SQLite wrote to its files.
    public static let sqlitePagesWritten = MetricDefinition(
        key: "sqlitePagesWritten", title: "pages written", unit: .count, noise: .count, judged: true,
        summary: "pages SQLite wrote to the files (sqlite3_db_status SQLITE_DBSTATUS_CACHE_WRITE)")
    /// Bytes the process wrote, nearly all of them to the stores' files.
    public static let bytesWritten = MetricDefinition(
        key: "bytesWritten", title: "bytes written", unit: .bytes, noise: .count, judged: true,
        summary: "bytes passed to write calls (wchar of /proc/self/io): the stores' database, journal and WAL files")

    /// Every metric, in the order reports show them.
    public static let all: [MetricDefinition] = [
        wallSeconds, floorRatio, heapPeakBytes, peakResidentBytes, instructions, allocations, allocatedBytes,
        sqliteSteps, sqlitePagesRead, sqlitePagesWritten, bytesWritten,
    ]

    /// The deterministic counts, in report order.
    public static let counts: [MetricDefinition] = all.filter { $0.noise == .count }

    /// The definition with this key, or nil.
    public static func named(_ key: String) -> MetricDefinition? { all.first { $0.key == key } }

    /// The metric's figure in a phase, or nil when it was not measured there.
    public func value(in phase: Phase) -> Statistic? {
        switch key {
        case Self.wallSeconds.key: phase.wallSeconds
        case Self.heapPeakBytes.key: phase.heapPeakBytes
        case Self.peakResidentBytes.key: phase.peakResidentBytes
        case Self.bytesWritten.key: phase.bytesWritten
        default: phase.counts?[key]
        }
    }

    /// The metric's figure for a whole cell (its total, or its floor ratios), or nil when not measured.
    public func value(of cell: Cell) -> Statistic? {
        guard key == Self.floorRatio.key else { return value(in: cell.total) }
        guard let floor = cell.floor else { return nil }
        return floor.ratios ?? Statistic(samples: [floor.ratio])
    }
}
