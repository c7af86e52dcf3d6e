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
    /// The metric compared: ``ComparisonEntry/wallSeconds``, ``ComparisonEntry/heapPeakBytes`` or
    /// ``ComparisonEntry/floorRatio``.
    public var metric: String
    /// The baseline's figure, or nil for a cell the baseline does not have.
    public var baseline: Statistic?
    /// The current figure, or nil for a cell the current report does not have.
    public var current: Statistic?
    /// `current.median / baseline.median - 1`, or nil when either is missing or the baseline median is 0.
    public var change: Double?
    /// What the comparison concluded.
    public var verdict: ComparisonVerdict

    /// The metric name of the total's median wall time, in seconds.
    public static let wallSeconds = "wallSeconds"
    /// The metric name of the total's median heap peak, in bytes.
    public static let heapPeakBytes = "heapPeakBytes"
    /// The metric name of the engine-to-floor ratio.
    public static let floorRatio = "floorRatio"

    /// Creates an entry.
    public init(
        cell: String, metric: String, baseline: Statistic?, current: Statistic?, change: Double?,
        verdict: ComparisonVerdict
    ) {
        self.cell = cell
        self.metric = metric
        self.baseline = baseline
        self.current = current
        self.change = change
        self.verdict = verdict
    }
}

/// What comparing one metric with its baseline concluded.
public enum ComparisonVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Better beyond the thresholds.
    case improved
    /// Within the thresholds or the noise.
    case unchanged
    /// Worse beyond the thresholds and the noise: a failure.
    case regressed
    /// The cell is new: the baseline does not have it.
    case new
    /// The cell is missing: only the baseline has it.
    case missing
}

/// How much worse than its baseline a metric must be to count as a regression.
///
/// A metric regresses only when its current median exceeds the baseline median by more than the relative
/// threshold **and** by more than the absolute threshold, **and** the current minimum is above the baseline
/// maximum (the ranges of the repetitions do not overlap). Floor ratios, measured against a floor taken in the
/// same run, use the relative threshold alone.
public struct BaselineThresholds: Sendable, Hashable, Codable {
    /// The relative change of a time (and of a floor ratio) that may be noise: 0.10 is 10 %.
    public var relative: Double
    /// The relative change of a memory figure that may be noise.
    public var memoryRelative: Double
    /// The change of a time, in seconds, that may be noise.
    public var absoluteSeconds: Double
    /// The change of a memory figure, in bytes, that may be noise.
    public var absoluteBytes: Double

    /// Creates thresholds; the defaults are 10 % and 5 ms for time, 10 % and 1 MiB for memory.
    public init(
        relative: Double = 0.10, memoryRelative: Double = 0.10, absoluteSeconds: Double = 0.005,
        absoluteBytes: Double = 1_048_576
    ) {
        self.relative = relative
        self.memoryRelative = memoryRelative
        self.absoluteSeconds = absoluteSeconds
        self.absoluteBytes = absoluteBytes
    }
}
