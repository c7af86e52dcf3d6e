import Foundation

/// The Wilcoxon signed-rank test of paired measurements, with the Hodges–Lehmann estimate of their typical
/// ratio and its confidence interval: how `benchmark --gate` judges a step against its floor when each
/// repetition ran both, one right after the other (the pairing removes the machine's drift between
/// repetitions, which an unpaired test such as ``RankTest`` must treat as noise).
///
/// The test works on the logs of the ratios, so the estimate is a ratio: `change` 0.05 means the first of each
/// pair is typically 5 % above the second. The interval inverts the test: the `(k+1)`-th smallest and largest of
/// the `n(n+1)/2` Walsh averages, where `k` is the largest signed-rank sum whose one-sided probability is at
/// most `alpha`; exact for any `n` this harness runs (no ties assumed).
///
/// ```swift
/// SignedRankTest(ratios: [1.2, 1.21, 1.19, 1.22, 1.2, 1.18, 1.23], alpha: 0.01)?.interval.lower  // > 0
/// ```
public struct SignedRankTest: Sendable {
    /// The Hodges–Lehmann estimate of the typical ratio minus 1.
    public let change: Double
    /// The interval of the typical ratio minus 1 at confidence `1 - 2·alpha`.
    public let interval: (lower: Double, upper: Double)

    /// Tests `ratios` (each pair's first over its second) at one-sided level `alpha`, or nil when there are too
    /// few for any outcome to reach it (`1 / 2^n > alpha`: fewer than 7 at 1 %) or a ratio is not positive.
    public init?(ratios: [Double], alpha: Double) {
        let n = ratios.count
        guard n > 0, n <= 60, ratios.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        let distribution = Self.distribution(n)
        let total = distribution.reduce(0, +)
        guard distribution[0] / total <= alpha else { return nil }
        var k = 0
        var cumulative = distribution[0]
        while k + 1 < distribution.count && (cumulative + distribution[k + 1]) / total <= alpha {
            k += 1
            cumulative += distribution[k]
        }
        let logs = ratios.map { log($0) }
        var walsh: [Double] = []
        for i in logs.indices { for j in i..<logs.count { walsh.append((logs[i] + logs[j]) / 2) } }
        walsh.sort()
        let middle = walsh.count / 2
        let estimate = walsh.count % 2 == 1 ? walsh[middle] : (walsh[middle - 1] + walsh[middle]) / 2
        change = exp(estimate) - 1
        interval = (exp(walsh[k]) - 1, exp(walsh[walsh.count - 1 - k]) - 1)
    }

    /// The number of subsets of `1...n` with each sum `0...n(n+1)/2`: the signed-rank sum's distribution.
    package static func distribution(_ n: Int) -> [Double] {
        var counts = [Double](repeating: 0, count: n * (n + 1) / 2 + 1)
        counts[0] = 1
        for rank in 1...n {
            for sum in stride(from: counts.count - 1, through: rank, by: -1) { counts[sum] += counts[sum - rank] }
        }
        return counts
    }
}
