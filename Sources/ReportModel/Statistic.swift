/// Repeated measurements of one quantity, and their median, minimum and maximum.
public struct Statistic: Sendable, Hashable, Codable {
    /// The median of ``samples``; the mean of the two middle values when there is an even number of them.
    public var median: Double
    /// The smallest sample.
    public var min: Double
    /// The largest sample.
    public var max: Double
    /// Every measurement, in the order taken.
    public var samples: [Double]

    /// Creates a statistic from figures computed elsewhere.
    public init(median: Double, min: Double, max: Double, samples: [Double]) {
        self.median = median
        self.min = min
        self.max = max
        self.samples = samples
    }

    /// Computes the median, minimum and maximum of `samples`, which must not be empty.
    ///
    /// ```swift
    /// Statistic(samples: [3, 1, 4, 2]).median  // 2.5
    /// ```
    public init(samples: [Double]) {
        precondition(!samples.isEmpty, "a statistic needs at least one sample")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        self.median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        self.min = sorted[0]
        self.max = sorted[sorted.count - 1]
        self.samples = samples
    }

    /// The median (with minimum and maximum) of each sample over the sample of `base` taken in the same
    /// repetition, right before or after it; nil when the two do not pair up. Each pair shares the machine's
    /// state of the moment (page cache, the other core's load), which drifts on a shared machine; pairing keeps
    /// a slow spell on one side from deciding the ratio, as a ratio of two medians would.
    ///
    /// ```swift
    /// Statistic(samples: [2, 3]).pairedRatio(over: Statistic(samples: [1, 2]))?.median  // 1.75
    /// ```
    public func pairedRatio(over base: Statistic) -> Statistic? {
        guard samples.count == base.samples.count, !samples.isEmpty else { return nil }
        return Statistic(samples: zip(samples, base.samples).map { $0 / $1 })
    }
}
