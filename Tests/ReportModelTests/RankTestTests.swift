import ReportModel
import Testing

@Suite("Rank test")
struct RankTestTests {
    @Test func theSmallestSamplesThatCanBeJudged() {
        // The most extreme arrangement of 5 and 5 has probability 1/252 < 1 %; of 4 and 4, 1/70 > 1 %.
        #expect(RankTest.canJudge(5, 5, alpha: 0.01))
        #expect(!RankTest.canJudge(4, 4, alpha: 0.01))
        #expect(RankTest.canJudge(3, 4, alpha: 0.05))
        #expect(!RankTest.canJudge(1, 1, alpha: 0.05))
        #expect(RankTest(baseline: [1, 2, 3, 4], current: [5, 6, 7, 8], alpha: 0.01) == nil)
    }

    @Test func identicalSamplesShowNoChange() throws {
        let samples = [1.0, 1.1, 0.9, 1.05, 0.95]
        let test = try #require(RankTest(baseline: samples, current: samples, alpha: 0.01))
        #expect(test.change == 0)
        #expect(test.interval.lower < 0 && test.interval.upper > 0)
    }

    @Test func aShiftOfExactlyTwentyPercentIsEstimatedExactly() throws {
        let baseline = [1.0, 1.1, 0.9, 1.05, 0.95, 1.02]
        let test = try #require(RankTest(baseline: baseline, current: baseline.map { $0 * 1.2 }, alpha: 0.01))
        #expect(abs(test.change - 0.2) < 1e-12)
        #expect(test.interval.lower > 0)
    }

    @Test func theIntervalOfFiveAgainstFiveIsTheExtremeDifferences() throws {
        // k = 1 for 5 and 5 at 1 % (P(U ≤ 1) = 2/252 ≤ 1 % < P(U ≤ 2) = 4/252): the interval runs from the second
        // smallest to the second largest of the 25 pairwise ratios, 10/4 and 40/1.
        let test = try #require(
            RankTest(baseline: [1, 2, 3, 4, 5], current: [10, 20, 30, 40, 50], alpha: 0.01))
        #expect(abs(test.interval.lower - (10.0 / 4 - 1)) < 1e-12)
        #expect(abs(test.interval.upper - (40.0 / 1 - 1)) < 1e-12)
    }

    @Test func manySamplesUseTheNormalApproximation() throws {
        let baseline = (0..<40).map { 1.0 + Double($0 % 7) * 0.01 }
        let test = try #require(RankTest(baseline: baseline, current: baseline.map { $0 * 1.1 }, alpha: 0.01))
        #expect(abs(test.change - 0.1) < 0.02)
        #expect(test.interval.lower > 0)
    }

    @Test func nonPositiveSamplesAreNotJudged() {
        #expect(RankTest(baseline: [0, 1, 1, 1, 1], current: [1, 1, 1, 1, 1], alpha: 0.01) == nil)
    }
}
