import Testing

@testable import IntegrityVerification

/// How the verifier cuts a large table's source keys into ranges that the two threads share: every key in
/// exactly one range, none longer than asked. A range that skipped a key would leave that object unchecked
/// without a finding, which no verdict on a sound store would show.
struct KeyRangeSplitTests {
    static let cut: [(ClosedRange<Int64>, Int64)] = [
        (1...900_000, 150_000), (1...120, 7), (-3...120, 7), (5...5_000_003, 1_000_000), (1...8, 7),
        (0...Int64.max - 1, Int64.max / 3),
    ]
    static let uncut: [(ClosedRange<Int64>, Int64)] = [(1...7, 7), (1...1, 7), (Int64.min...Int64.max, 150_000)]

    @Test(arguments: cut)
    func rangesCoverEveryKeyOnce(keys: ClosedRange<Int64>, rowsPerRange: Int64) throws {
        let ranges = try #require(VerificationRun.split(keys, rowsPerRange: rowsPerRange))
        #expect(ranges.count > 1)
        #expect(ranges.first?.lowerBound == keys.lowerBound && ranges.last?.upperBound == keys.upperBound)
        for (range, next) in zip(ranges, ranges.dropFirst()) { #expect(next.lowerBound == range.upperBound + 1) }
        #expect(ranges.allSatisfy { $0.upperBound - $0.lowerBound < rowsPerRange })
    }

    @Test func theSourceTableOfTheBenchmarkIsCutInSix() throws {
        let ranges = try #require(VerificationRun.split(1...900_000, rowsPerRange: 150_000))
        #expect(
            ranges == [
                1...150_000, 150_001...300_000, 300_001...450_000, 450_001...600_000, 600_001...750_000,
                750_001...900_000,
            ])
    }

    @Test(arguments: uncut)
    func aShortOrOverflowingRangeIsNotCut(keys: ClosedRange<Int64>, rowsPerRange: Int64) {
        #expect(VerificationRun.split(keys, rowsPerRange: rowsPerRange) == nil)
    }
}
