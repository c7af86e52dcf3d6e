import ReportModel
import Testing

@Suite("Baseline comparison")
struct ComparisonTests {
    typealias B = CellBuilder

    /// The verdict of `metric` for one cell compared with the baseline's.
    func verdict(
        _ metric: String, _ old: Cell, _ new: Cell, environment: Environment = B.environment
    )
        -> ComparisonEntry?
    {
        let comparison = B.report([new], environment: environment).compare(
            to: B.report([old]), baselineFile: "old.json")
        return comparison.entries.first { $0.metric == metric }
    }

    // Counts: a small relative threshold, the same build and counting only.

    @Test func aThreePercentLargerCountRegressesAndAnIdenticalOneDoesNot() {
        let old = B.cell("a", counts: ["allocations": [100_000]])
        let larger = B.cell("a", counts: ["allocations": [103_000]])
        let same = B.cell("a", counts: ["allocations": [100_000]])
        let entry = verdict("allocations", old, larger)
        #expect(entry?.verdict == .regressed)
        #expect(entry?.difference == 3_000)
        #expect(entry?.change == 0.030000000000000027)
        #expect(entry?.rule?.contains("1 %") == true)
        #expect(verdict("allocations", old, same)?.verdict == .unchanged)
        #expect(verdict("allocations", larger, old)?.verdict == .improved)
    }

    @Test func aCountWithinItsThresholdIsUnchanged() {
        let old = B.cell("a", counts: ["sqliteSteps": [100_000]])
        #expect(verdict("sqliteSteps", old, B.cell("a", counts: ["sqliteSteps": [100_900]]))?.verdict == .unchanged)
    }

    @Test func aScenarioSetsItsOwnThresholdPerMetric() {
        let old = B.cell("a", counts: ["allocations": [100_000], "sqliteSteps": [100_000]])
        let new = B.cell(
            "a", counts: ["allocations": [103_000], "sqliteSteps": [103_000]], thresholds: ["allocations": 0.05])
        #expect(verdict("allocations", old, new)?.verdict == .unchanged)
        #expect(verdict("sqliteSteps", old, new)?.verdict == .regressed)
    }

    @Test(arguments: ["SQLite", "compiler", "build"])
    func countsAreNotComparableAcrossSoftware(name: String) {
        var environment = B.environment
        switch name {
        case "SQLite": environment.sqliteVersion = "3.47.0"
        case "compiler": environment.swiftVersion = "6.2"
        default: environment.buildConfiguration = "release"
        }
        let old = B.cell("a", counts: ["allocations": [100_000]])
        let entry = verdict(
            "allocations", old, B.cell("a", counts: ["allocations": [200_000]]), environment: environment)
        #expect(entry?.verdict == .notComparable)
        #expect(entry?.rule?.contains(name) == true)
    }

    @Test func countsAreNotComparableAcrossArchitecturesOrCountingMethods() {
        var environment = B.environment
        environment.architecture = "aarch64"
        let old = B.cell("a", counts: ["instructions": [1e9]])
        #expect(
            verdict("instructions", old, B.cell("a", counts: ["instructions": [1e9]]), environment: environment)?
                .verdict == .notComparable)
        let perf = B.cell("a", counts: ["instructions": [2e9]], method: "perf_event_open instructions:u")
        let entry = verdict("instructions", old, perf)
        #expect(entry?.verdict == .notComparable)
        #expect(entry?.rule?.contains("perf_event_open") == true)
    }

    @Test func countsAreComparedAcrossMachinesOfTheSameSoftware() {
        var environment = B.environment
        environment.hostname = "another"
        environment.cpu = "another CPU"
        let old = B.cell("a", counts: ["allocations": [100_000]])
        #expect(
            verdict("allocations", old, B.cell("a", counts: ["allocations": [110_000]]), environment: environment)?
                .verdict == .regressed)
    }

    @Test func aCountUnavailableOnOneSideIsNotComparableWithItsReason() {
        let old = B.cell("a", counts: ["instructions": [1e9]])
        let new = B.cell("a", unavailable: ["instructions": "no counter here"])
        let entry = verdict("instructions", old, new)
        #expect(entry?.verdict == .notComparable)
        #expect(entry?.rule?.contains("no counter here") == true)
        // Unavailable on both sides: left out (the cell says why), never unchanged.
        #expect(verdict("instructions", B.cell("a"), new) == nil)
    }

    // Timings: the rank test, repeated samples, the same machine.

    @Test func aSingleSampleOfTimeIsNotJudged() {
        let entry = verdict("wallSeconds", B.cell("a", wall: [1.0]), B.cell("a", wall: [5.0]))
        #expect(entry?.verdict == .notJudged)
        #expect(entry?.rule?.contains("too few") == true)
    }

    @Test func fourAgainstFourIsTooFewAtOnePercent() {
        let entry = verdict(
            "wallSeconds", B.cell("a", wall: [1, 1.01, 0.99, 1]), B.cell("a", wall: [2, 2.01, 1.99, 2]))
        #expect(entry?.verdict == .notJudged)
    }

    @Test func aClearShiftOverFiveRepetitionsRegresses() {
        let old = B.cell("a", floorRatios: [2.0, 2.02, 1.98, 2.01, 1.99])
        let new = B.cell("a", floorRatios: [2.4, 2.42, 2.38, 2.41, 2.39])
        let entry = verdict("floorRatio", old, new)
        #expect(entry?.verdict == .regressed)
        #expect((entry?.interval?[0] ?? 0) > 0)
        #expect(abs((entry?.change ?? 0) - 0.2) < 0.01)
    }

    @Test func identicalTimingsAreUnchanged() {
        let samples = [2.0, 2.02, 1.98, 2.01, 1.99]
        #expect(
            verdict("floorRatio", B.cell("a", floorRatios: samples), B.cell("a", floorRatios: samples))?.verdict
                == .unchanged)
    }

    @Test func aSureButSmallShiftIsUnchanged() {
        // Every current sample is above every baseline one, but by 2 %: below the 5 % minimum effect.
        let old = B.cell("a", floorRatios: [2.0, 2.001, 2.002, 2.003, 2.004])
        let new = B.cell("a", floorRatios: [2.04, 2.041, 2.042, 2.043, 2.044])
        #expect(verdict("floorRatio", old, new)?.verdict == .unchanged)
    }

    @Test func timingsAreNeverComparedAcrossMachines() {
        var environment = B.environment
        environment.hostname = "ci-runner-7"
        let old = B.cell("a", floorRatios: [2.0, 2.02, 1.98, 2.01, 1.99])
        let new = B.cell("a", floorRatios: [4.0, 4.02, 3.98, 4.01, 3.99])
        let entry = verdict("floorRatio", old, new, environment: environment)
        #expect(entry?.verdict == .notComparable)
        #expect(entry?.rule?.contains("ci-runner-7") == true)
    }

    @Test func timingsMeasuredInParallelAreNotJudged() {
        var new = B.cell("a", floorRatios: [4.0, 4.02, 3.98, 4.01, 3.99])
        new.measuredInParallel = true
        #expect(
            verdict("floorRatio", B.cell("a", floorRatios: [2.0, 2.02, 1.98, 2.01, 1.99]), new)?.verdict == .notJudged)
    }

    /// Under valgrind (`run --instructions`) a cell runs 20 to 50 times slower: against a baseline timed without
    /// it (or with it), its timings are not judged, whatever the rank test would say; its counts still are.
    @Test func timingsUnderValgrindAreNotJudgedAndCountsAre() {
        let old = B.cell("a", floorRatios: [2.0, 2.02, 1.98, 2.01, 1.99], counts: ["allocations": [1_000]])
        var new = B.cell("a", floorRatios: [60.0, 60.2, 59.8, 60.1, 59.9], counts: ["allocations": [1_100]])
        #expect(verdict("floorRatio", old, new)?.verdict == .regressed)
        new.timedUnderValgrind = true
        let entry = verdict("floorRatio", old, new)
        #expect(entry?.verdict == .notJudged && entry?.rule == ComparisonEntry.valgrindRule)
        #expect(verdict("floorRatio", new, old)?.verdict == .notJudged)
        #expect(verdict("allocations", old, new)?.verdict == .regressed)
    }

    // Memory peaks: a wide threshold.

    @Test func heapPeaksUseTheMemoryThresholds() {
        let mib = 1_048_576.0
        #expect(
            verdict("heapPeakBytes", B.cell("a", heap: [64 * mib]), B.cell("a", heap: [80 * mib]))?.verdict
                == .regressed)
        // 50 % more, but less than 1 MiB.
        #expect(
            verdict("heapPeakBytes", B.cell("a", heap: [100_000]), B.cell("a", heap: [150_000]))?.verdict == .unchanged)
    }

    @Test func improvementNeverFails() {
        let old = B.report([B.cell("a", heap: [200e6, 210e6], counts: ["allocations": [2_000]])])
        let new = B.report([B.cell("a", heap: [100e6, 101e6], counts: ["allocations": [1_000]])])
        let comparison = new.compare(to: old, baselineFile: "old.json")
        #expect(comparison.entries.contains { $0.verdict == .improved })
        #expect(comparison.regressions.isEmpty)
        #expect(Verdict.decide(cells: new.cells, baseline: comparison).exitCode == 0)
    }

    @Test func newAndMissingCellsAreListedNotFailed() {
        let old = B.report([B.cell("kept"), B.cell("gone")], runID: "old-run")
        let new = B.report([B.cell("kept"), B.cell("added")])
        let comparison = new.compare(to: old, baselineFile: "Reports/baselines/old.json")
        #expect(comparison.baselineRunID == "old-run")
        #expect(comparison.baselineFile == "Reports/baselines/old.json")
        let unmatched = comparison.entries.filter { $0.cell != "kept" }
        #expect(unmatched.map(\.cell) == ["added", "gone"])
        #expect(unmatched.map(\.verdict) == [.new, .missing])
        #expect(unmatched[0].baseline == nil && unmatched[0].current != nil)
        #expect(unmatched[1].current == nil && unmatched[1].baseline != nil)
        #expect(Verdict.decide(cells: new.cells, baseline: comparison).exitCode == 0)
    }

    @Test func crashedCellsAreNotCompared() {
        let old = B.report([B.cell("a", wall: [1])])
        let new = B.report([B.cell("a", status: .crashed, wall: [100])])
        let comparison = new.compare(to: old, baselineFile: "old.json")
        #expect(comparison.entries.map(\.verdict) == [.missing])
    }
}
