import ReportModel
import Testing

@Suite("Baseline comparison")
struct ComparisonTests {
    typealias B = CellBuilder

    /// Compares one cell's wall times (and heap peaks) with the baseline's.
    func verdicts(
        baseline: [Double], current: [Double], baselineHeap: [Double]? = nil, currentHeap: [Double]? = nil
    ) -> [String: ComparisonVerdict] {
        let old = B.report([B.cell("a", wall: baseline, heap: baselineHeap)])
        let new = B.report([B.cell("a", wall: current, heap: currentHeap)])
        let comparison = new.compare(to: old, baselineFile: "old.json")
        return Dictionary(uniqueKeysWithValues: comparison.entries.map { ($0.metric, $0.verdict) })
    }

    @Test func slowerBeyondEveryThresholdRegresses() {
        #expect(verdicts(baseline: [1.0, 1.05, 0.95], current: [1.3, 1.35, 1.25]) == ["wallSeconds": .regressed])
    }

    @Test func overlappingRangesAreUnchanged() {
        // The median is 30 % slower, but one baseline repetition was as slow as the fastest current one.
        #expect(verdicts(baseline: [1.0, 0.9, 1.4], current: [1.3, 1.35, 1.3]) == ["wallSeconds": .unchanged])
    }

    @Test func changesWithinTheRelativeThresholdAreUnchanged() {
        #expect(verdicts(baseline: [1.0, 1.0], current: [1.08, 1.08]) == ["wallSeconds": .unchanged])
    }

    @Test func changesWithinTheAbsoluteThresholdAreUnchanged() {
        // Twice as slow, but only by 2 ms.
        #expect(verdicts(baseline: [0.002], current: [0.004]) == ["wallSeconds": .unchanged])
    }

    @Test func improvementNeverFails() {
        let old = B.report([B.cell("a", wall: [2.0, 2.1], heap: [200e6, 210e6])])
        let new = B.report([B.cell("a", wall: [1.0, 1.1], heap: [100e6, 101e6])])
        let comparison = new.compare(to: old, baselineFile: "old.json")
        #expect(comparison.entries.map(\.verdict) == [.improved, .improved])
        #expect(comparison.regressions.isEmpty)
        #expect(Verdict.decide(cells: new.cells, baseline: comparison).exitCode == 0)
        #expect(comparison.entries[0].change == 1.05 / 2.05 - 1)
    }

    @Test func heapPeaksUseTheMemoryThresholds() {
        let mib = 1_048_576.0
        #expect(
            verdicts(baseline: [1], current: [1], baselineHeap: [64 * mib], currentHeap: [80 * mib])
                == ["wallSeconds": .unchanged, "heapPeakBytes": .regressed])
        // 50 % more, but less than 1 MiB.
        #expect(
            verdicts(baseline: [1], current: [1], baselineHeap: [100_000], currentHeap: [150_000])
                == ["wallSeconds": .unchanged, "heapPeakBytes": .unchanged])
    }

    @Test func unavailableHeapIsNotCompared() {
        #expect(
            verdicts(baseline: [1], current: [1], baselineHeap: [1e6], currentHeap: nil) == ["wallSeconds": .unchanged])
    }

    @Test func floorRatiosUseTheRelativeThresholdOnly() {
        let old = B.report([B.cell("a", wall: [0.001], floorRatio: 2.0)])
        let worse = B.report([B.cell("a", wall: [0.001], floorRatio: 2.3)])
        let same = B.report([B.cell("a", wall: [0.001], floorRatio: 2.1)])
        let floor = { (report: Report) in
            report.compare(to: old, baselineFile: "old.json").entries.first { $0.metric == "floorRatio" }?.verdict
        }
        #expect(floor(worse) == .regressed)
        #expect(floor(same) == .unchanged)
    }

    @Test func newAndMissingCellsAreListedNotFailed() {
        let old = B.report([B.cell("kept"), B.cell("gone")], runID: "old-run")
        let new = B.report([B.cell("kept"), B.cell("added")])
        let comparison = new.compare(to: old, baselineFile: "Reports/baselines/old.json")
        #expect(comparison.baselineRunID == "old-run")
        #expect(comparison.baselineFile == "Reports/baselines/old.json")
        #expect(comparison.entries.map(\.cell) == ["kept", "added", "gone"])
        #expect(comparison.entries.map(\.verdict) == [.unchanged, .new, .missing])
        #expect(comparison.entries[1].baseline == nil && comparison.entries[1].current != nil)
        #expect(comparison.entries[2].current == nil && comparison.entries[2].baseline != nil)
        #expect(Verdict.decide(cells: new.cells, baseline: comparison).exitCode == 0)
    }

    @Test func crashedCellsAreNotCompared() {
        let old = B.report([B.cell("a", wall: [1])])
        let new = B.report([B.cell("a", status: .crashed, wall: [100])])
        let comparison = new.compare(to: old, baselineFile: "old.json")
        #expect(comparison.entries.map(\.verdict) == [.missing])
    }
}
