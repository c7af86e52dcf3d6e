/// How a run compares with a baseline report: one entry per cell and metric.
public struct BaselineComparison: Sendable, Hashable, Codable {
    /// The baseline report's file, as given.
    public var baselineFile: String
    /// The baseline report's run identifier.
    public var baselineRunID: String
    /// The thresholds the comparison applied.
    public var thresholds: BaselineThresholds
    /// The comparisons, in the order of the current report's cells, then the cells only the baseline has.
    public var entries: [ComparisonEntry]

    /// Creates a comparison.
    public init(
        baselineFile: String, baselineRunID: String, thresholds: BaselineThresholds, entries: [ComparisonEntry]
    ) {
        self.baselineFile = baselineFile
        self.baselineRunID = baselineRunID
        self.thresholds = thresholds
        self.entries = entries
    }

    /// The entries that regressed.
    public var regressions: [ComparisonEntry] { entries.filter { $0.verdict == .regressed } }
}

/// One metric of one cell, in the baseline and now.
public struct ComparisonEntry: Sendable, Hashable, Codable {
    /// The ``Cell/id`` of the cell compared.
    public var cell: String
    /// The ``MetricDefinition/key`` of the metric compared, such as `allocations` or `floorRatio`.
    public var metric: String
    /// The baseline's figure, or nil for a cell the baseline does not have.
    public var baseline: Statistic?
    /// The current figure, or nil for a cell the current report does not have.
    public var current: Statistic?
    /// The relative change, `current / baseline - 1`: of the medians for a count or a memory figure, the
    /// Hodges–Lehmann estimate for a timing; nil when it cannot be computed.
    public var change: Double?
    /// What the comparison concluded.
    public var verdict: ComparisonVerdict
    /// For a count: `current.median - baseline.median`. Absent in older reports.
    public var difference: Double?
    /// For a timing judged by the rank test: the interval of the relative change, `[lower, upper]`.
    public var interval: [Double]?
    /// The rule that decided, in words, such as `count: regressed past +1 % (same build and counting)`.
    public var rule: String?

    /// The metric name of the total's median wall time, in seconds.
    public static let wallSeconds = MetricDefinition.wallSeconds.key
    /// The metric name of the total's median heap peak, in bytes.
    public static let heapPeakBytes = MetricDefinition.heapPeakBytes.key
    /// The metric name of the engine-to-floor ratio.
    public static let floorRatio = MetricDefinition.floorRatio.key
    /// The ``rule`` of a timing not judged because either report measured it beside other cells (`run --jobs`).
    public static let parallelRule = "timing: not judged (parallel), measured beside other cells (run --jobs)"
    /// The ``rule`` of a timing not judged because either report timed it under valgrind (`run --instructions`).
    public static let valgrindRule = "timing: not judged (valgrind), timed under valgrind (run --instructions)"

    /// Creates an entry.
    public init(
        cell: String, metric: String, baseline: Statistic?, current: Statistic?, change: Double?,
        verdict: ComparisonVerdict, difference: Double? = nil, interval: [Double]? = nil, rule: String? = nil
    ) {
        self.cell = cell
        self.metric = metric
        self.baseline = baseline
        self.current = current
        self.change = change
        self.verdict = verdict
        self.difference = difference
        self.interval = interval
        self.rule = rule
    }
}

/// What comparing one metric with its baseline concluded.
public enum ComparisonVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Better beyond the metric's rule.
    case improved
    /// Within the metric's rule: the same count, or no difference the test can show.
    case unchanged
    /// Worse beyond the metric's rule: a failure.
    case regressed
    /// Too few samples for the rule to decide, or samples the rule does not judge (taken in parallel): neither
    /// unchanged nor regressed.
    case notJudged = "not-judged"
    /// Measured differently from the baseline (another machine for a timing; another build, SQLite, compiler,
    /// architecture or counting method for a count): the rule says why.
    case notComparable = "not-comparable"
    /// The cell is new: the baseline does not have it.
    case new
    /// The cell is missing: only the baseline has it.
    case missing
}

/// The rules' parameters: how much a count may move, how sure a timing test must be, how much memory may grow.
///
/// A count regresses when it grows by more than its relative threshold (``count``, or the cell's own
/// ``Cell/countThresholds``), compared only when both reports counted on the same architecture, SQLite,
/// compiler and build configuration and by the same method. A timing regresses when the Mann–Whitney test
/// (``RankTest``) over the repetitions puts the whole interval of its change above zero at one-sided level
/// ``alpha`` and the estimated change exceeds ``minimumEffect``, on the same machine only. A memory peak
/// regresses past both ``memoryRelative`` and ``absoluteBytes``.
public struct BaselineThresholds: Sendable, Hashable, Codable {
    /// The relative change of a count that fails: 0.01 is 1 %.
    public var count: Double
    /// The one-sided level of the timing test: 0.01 is 99 % sure of each direction.
    public var alpha: Double
    /// The smallest estimated change of a timing that fails, even when the test is sure.
    public var minimumEffect: Double
    /// The relative change of a memory figure that may be noise.
    public var memoryRelative: Double
    /// The change of a memory figure, in bytes, that may be noise.
    public var absoluteBytes: Double

    /// Creates thresholds; the defaults are 1 % for counts, level 1 % and 5 % for timings, 10 % and 1 MiB
    /// for memory.
    public init(
        count: Double = 0.01, alpha: Double = 0.01, minimumEffect: Double = 0.05, memoryRelative: Double = 0.10,
        absoluteBytes: Double = 1_048_576
    ) {
        self.count = count
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.memoryRelative = memoryRelative
        self.absoluteBytes = absoluteBytes
    }

    /// Reads thresholds, taking the default for each one an older report does not have.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = BaselineThresholds()
        count = try container.decodeIfPresent(Double.self, forKey: .count) ?? defaults.count
        alpha = try container.decodeIfPresent(Double.self, forKey: .alpha) ?? defaults.alpha
        minimumEffect = try container.decodeIfPresent(Double.self, forKey: .minimumEffect) ?? defaults.minimumEffect
        memoryRelative =
            try container.decodeIfPresent(Double.self, forKey: .memoryRelative) ?? defaults.memoryRelative
        absoluteBytes = try container.decodeIfPresent(Double.self, forKey: .absoluteBytes) ?? defaults.absoluteBytes
    }
}
