/// The floor: hand-written SQL doing the cell's work, which a perfect engine could not beat.
public struct Floor: Sendable, Hashable, Codable {
    /// What the floor does, such as `INSERT … SELECT per table`.
    public var description: String
    /// The floor's wall time.
    public var seconds: Statistic
    /// The engine's median total wall time divided by the floor's median.
    public var ratio: Double
    /// Each repetition's engine time divided by its own floor's, the samples the baseline comparison tests;
    /// absent in older reports.
    public var ratios: Statistic?

    /// Creates a floor.
    public init(description: String, seconds: Statistic, ratio: Double, ratios: Statistic? = nil) {
        self.description = description
        self.seconds = seconds
        self.ratio = ratio
        self.ratios = ratios
    }
}
