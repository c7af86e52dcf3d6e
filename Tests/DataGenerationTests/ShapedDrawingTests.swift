import Foundation
import ObjectModel
import Testing

@testable import DataGeneration

/// The pieces shaped generation draws with: the keyed permutation that deals many-to-many edge slots, and the
/// power-law tail of counts and lengths above p99.9.
@Suite("Shaped drawing")
struct ShapedDrawingTests {
    /// Sizes that end a Feistel domain or miss it by one (4^k ± 1), every small size, and a large prime.
    static let sizes: [Int] =
        Array(1...300) + [1_000_003] + [1, 2, 3, 5, 8, 10].flatMap { [(1 << (2 * $0)) - 1, (1 << (2 * $0)) + 1] }

    /// FeistelPermutation(count: n) sends 0..<n onto 0..<n, each value once.
    @Test func feistelPermutationIsABijection() {
        for size in Set(Self.sizes).sorted() {
            var random = RandomSource(seed: UInt64(size))
            let permutation = FeistelPermutation(count: size, random: &random)
            var seen = [Bool](repeating: false, count: size)
            var collisions = 0
            for value in 0..<size {
                let image = permutation.apply(value)
                guard (0..<size).contains(image) else {
                    Issue.record("count \(size): \(value) ↦ \(image), outside 0..<\(size)")
                    return
                }
                if seen[image] { collisions += 1 }
                seen[image] = true
            }
            #expect(collisions == 0, "count \(size): \(collisions) values hit twice")
        }
    }

    /// The same seed gives the same permutation; another seed, another one (most values go elsewhere).
    @Test func feistelPermutationFollowsItsSeed() {
        let size = 10_000
        func images(seed: UInt64) -> [Int] {
            var random = RandomSource(seed: seed)
            let permutation = FeistelPermutation(count: size, random: &random)
            return (0..<size).map(permutation.apply)
        }
        #expect(images(seed: 7) == images(seed: 7))
        let differing = zip(images(seed: 7), images(seed: 8)).filter { $0 != $1 }.count
        #expect(differing > size / 2, "\(differing) of \(size) values differ between seeds 7 and 8")
    }

    /// Quantiles with p99, p99.5, p99.9 and p100 as given, the levels below them a straight line from 0 to p98.
    static func tail(p99: Double, p995: Double, p999: Double, p100: Double) throws -> Quantiles {
        var values = Quantiles.levels.map { min($0, 0.98) * p99 * 0.5 }
        let top = try #require(Quantiles.levels.firstIndex(of: 0.99))
        values.replaceSubrange(top..., with: [p99, p995, p999, p100])
        return try #require(Quantiles(values: values))
    }

    /// countValue is p99.9 at 0.999 and p100 at 1, never decreases and never passes p100 between them, and
    /// follows the power law p99.9 · t^−k (t = (1 − u) / 0.001, k = log10(p99.9 / p99)) where it is below p100,
    /// not the straight line from p99.9 to p100.
    @Test func countTailIsAPowerLawUpToTheLargest() throws {
        let shape = try Self.tail(p99: 100, p995: 150, p999: 200, p100: 1000)
        #expect(shape.countValue(at: 0.999, draws: 10_000) == 200)
        #expect(shape.countValue(at: 1, draws: 10_000) == 1000)
        var previous = shape.countValue(at: 0.999, draws: 10_000)
        for step in 1...100_000 {
            let u = 0.999 + Double(step) * 0.001 / 100_000
            let value = shape.countValue(at: u, draws: 10_000)
            #expect(value >= previous && value <= 1000, "at \(u): \(value) after \(previous)")
            if value < previous || value > 1000 { return }
            previous = value
        }
        let exponent = log10(2.0)
        #expect(abs(shape.countValue(at: 0.9995, draws: 10_000) - 200 * pow(0.5, -exponent)) < 1e-9)
        #expect(abs(shape.countValue(at: 0.9999, draws: 10_000) - 200 * pow(0.1, -exponent)) < 1e-9)
        // Below p99.9 it is the interpolated quantile.
        for u in [0, 0.5, 0.99, 0.995, 0.997] { #expect(shape.countValue(at: u, draws: 10_000) == shape.value(at: u)) }
    }

    /// However many values are drawn, only the largest one or two reach p100: with p99 40, p99.9 200 and p100 300
    /// the power law passes 300 below the last rank, and cut flat there it put 113 of 200,000 values and 1,123
    /// of 2,000,000 at exactly 300. The top 0.1 % still climbs from p99.9 to p100 without a step down.
    @Test(arguments: [200_000, 2_000_000])
    func onlyTheLargestDrawsReachTheLargest(draws: Int) throws {
        let shape = try Self.tail(p99: 40, p995: 100, p999: 200, p100: 300)
        let top = (draws - draws / 1000 - 2)..<draws
        let values = top.map { shape.countValue(at: Quantiles.level(ofRank: $0, count: draws), draws: draws) }
        let atLargest = values.filter { $0.rounded() >= 300 }.count
        #expect((1...2).contains(atLargest), "\(atLargest) of \(draws) values at p100")
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.first.map { $0 <= 200 } == true && values.last == 300)
    }

    /// With p99 = 0 there is no power law to follow: countValue is value(at:), the straight line to p100.
    @Test func countTailFallsBackToTheLineWithoutP99() throws {
        let shape = try Self.tail(p99: 0, p995: 0, p999: 3, p100: 40)
        for u in [0.999, 0.9992, 0.9995, 0.9999, 0.99999, 1] {
            #expect(shape.countValue(at: u, draws: 10_000) == shape.value(at: u), "at \(u)")
        }
        #expect(abs(shape.countValue(at: 0.9995, draws: 10_000) - 21.5) < 1e-9)
    }
}
