import Foundation

/// The Mann–Whitney rank test of two samples, with the Hodges–Lehmann estimate of the relative shift between
/// them and its confidence interval: how `benchmark --gate` and the baseline comparison judge a timing.
///
/// The samples are compared on a log scale, so the shift is a ratio: `change` 0.05 means the current sample is
/// typically 5 % above the baseline. The interval is the distribution-free one that inverts the test: the
/// `(k+1)`-th smallest and largest of the `m·n` pairwise log differences, where `k` is the largest `U` whose
/// one-sided probability is at most `alpha`. The current sample is judged larger only when the whole interval
/// lies above zero, which is the one-sided test at level `alpha`. `U`'s distribution is exact (no ties assumed)
/// up to 30 samples a side, and the normal approximation above that.
///
/// ```swift
/// let test = RankTest(baseline: [1.0, 1.01, 0.99, 1.0, 1.02], current: [1.2, 1.21, 1.19, 1.22, 1.2], alpha: 0.01)
/// test?.interval.lower  // > 0: larger at the 1 % level
/// ```
public struct RankTest: Sendable {
    /// The Hodges–Lehmann estimate of `current / baseline - 1`.
    public let change: Double
    /// The interval of `current / baseline - 1` at confidence `1 - 2·alpha` (each side `alpha`).
    public let interval: (lower: Double, upper: Double)
    /// The one-sided level of each side.
    public let alpha: Double

    /// Tests `current` against `baseline` at one-sided level `alpha`, or nil when the samples are too few for
    /// any outcome to reach that level (see ``canJudge(_:_:alpha:)``), or a sample is not positive.
    public init?(baseline: [Double], current: [Double], alpha: Double) {
        guard Self.canJudge(baseline.count, current.count, alpha: alpha),
            (baseline + current).allSatisfy({ $0 > 0 && $0.isFinite })
        else { return nil }
        let differences = current.flatMap { now in baseline.map { log(now) - log($0) } }.sorted()
        let k = Self.criticalCount(baseline.count, current.count, alpha: alpha)
        let middle = differences.count / 2
        let estimate =
            differences.count % 2 == 1
            ? differences[middle] : (differences[middle - 1] + differences[middle]) / 2
        self.change = exp(estimate) - 1
        self.interval = (exp(differences[k]) - 1, exp(differences[differences.count - 1 - k]) - 1)
        self.alpha = alpha
    }

    /// Whether samples of sizes `m` and `n` can ever be judged at level `alpha`: the most extreme outcome has
    /// probability `1 / C(m+n, m)`, which must be at most `alpha` (5 and 5 for 1 %, 3 and 4 for 5 %).
    public static func canJudge(_ m: Int, _ n: Int, alpha: Double) -> Bool {
        m > 0 && n > 0 && cumulative(0, m, n) <= alpha
    }

    /// The largest `u` with `P(U ≤ u) ≤ alpha` (at least 0 when ``canJudge(_:_:alpha:)`` holds).
    static func criticalCount(_ m: Int, _ n: Int, alpha: Double) -> Int {
        var u = 0
        while u + 1 < m * n && cumulative(u + 1, m, n) <= alpha { u += 1 }
        return u
    }

    /// `P(U ≤ u)` for samples of sizes `m` and `n` under the hypothesis of no difference.
    static func cumulative(_ u: Int, _ m: Int, _ n: Int) -> Double {
        if m <= 30 && n <= 30 { return exactCumulative(u, m, n) }
        let mean = Double(m * n) / 2
        let deviation = (Double(m * n * (m + n + 1)) / 12).squareRoot()
        let z = (Double(u) + 0.5 - mean) / deviation
        return 0.5 * erfc(-z / 2.0.squareRoot())
    }

    /// The exact distribution: the number of arrangements of `m` and `n` items with `U = u` follows
    /// `f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u)`.
    private static func exactCumulative(_ u: Int, _ m: Int, _ n: Int) -> Double {
        guard u >= 0 else { return 0 }
        // counts[j][v]: arrangements of i items of the first sample and j of the second with U = v.
        var counts = [[Double]](repeating: [1], count: n + 1)
        for i in 1...m {
            var next = [[Double]](repeating: [], count: n + 1)
            next[0] = [1]
            for j in 1...n {
                var row = [Double](repeating: 0, count: i * j + 1)
                for v in 0...(i * j) {
                    let fromFirst = v - j >= 0 && v - j < counts[j].count ? counts[j][v - j] : 0
                    let fromSecond = v < next[j - 1].count ? next[j - 1][v] : 0
                    row[v] = fromFirst + fromSecond
                }
                next[j] = row
            }
            counts = next
        }
        let distribution = counts[n]
        let total = distribution.reduce(0, +)
        return distribution.prefix(u + 1).reduce(0, +) / total
    }
}
