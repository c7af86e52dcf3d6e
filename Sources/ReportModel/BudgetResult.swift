/// One budget of a cell, such as "streaming at 1,000,000 objects: peak heap ≤ 64 MiB", and whether it held.
public struct BudgetResult: Sendable, Hashable, Codable {
    /// The budget for people, such as `peak heap`.
    public var name: String
    /// The ``Phase`` property measured, such as `heapPeakBytes`.
    public var metric: String
    /// The phase measured, or nil for the cell's total.
    public var phase: String?
    /// The largest value allowed.
    public var limit: Double
    /// The measured median, or nil when the metric is unavailable.
    public var measured: Double?
    /// `bytes`, `seconds` or `ratio`.
    public var unit: String
    /// Whether the budget held.
    public var passed: Bool

    /// Creates a budget result.
    public init(
        name: String, metric: String, phase: String?, limit: Double, measured: Double?, unit: String, passed: Bool
    ) {
        self.name = name
        self.metric = metric
        self.phase = phase
        self.limit = limit
        self.measured = measured
        self.unit = unit
        self.passed = passed
    }
}
