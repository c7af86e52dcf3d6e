import ReportModel
import Testing

@Suite("Verdict")
struct VerdictTests {
    typealias B = CellBuilder

    @Test func allPassedExitsZero() {
        let verdict = Verdict.decide(cells: [B.cell("a"), B.cell("b")], baseline: nil)
        #expect(verdict.exitCode == 0)
        #expect(verdict.passed)
        #expect(verdict.cells == 2)
        #expect(verdict.passedCells == 2)
    }

    @Test func noCellsPass() {
        #expect(Verdict.decide(cells: [], baseline: nil).exitCode == 0)
    }

    @Test(arguments: [
        (CellStatus.integrityFailure, 2), (.crashed, 2), (.error, 2), (.budgetExceeded, 3), (.regressed, 3),
    ])
    func statusDecidesTheExitCode(status: CellStatus, exitCode: Int) {
        let verdict = Verdict.decide(cells: [B.cell("a"), B.cell("b", status: status)], baseline: nil)
        #expect(verdict.exitCode == exitCode)
        #expect(!verdict.passed)
        #expect(verdict.passedCells == 1)
    }

    /// A scenario that shows what Core Data loses expects violations: finding them passes, finding none fails.
    @Test func expectedViolationsPassAndTheirAbsenceFails() {
        var expected = B.failedVerification
        expected.violationsExpected = true
        #expect(Verdict.decide(cells: [B.cell("a", verification: expected)], baseline: nil).exitCode == 0)
        let clean = Verification(passed: true, checked: 10, violations: [], notChecked: [], violationsExpected: true)
        let verdict = Verdict.decide(cells: [B.cell("a", verification: clean)], baseline: nil)
        #expect(verdict.exitCode == 2 && verdict.integrityFailures == 1)
    }

    @Test func integrityFailureWinsOverBudgetAndRegression() {
        let cells = [
            B.cell("budget", status: .budgetExceeded, budgets: [B.failedBudget]),
            B.cell("integrity", status: .integrityFailure, verification: B.failedVerification),
            B.cell("regressed", status: .regressed),
        ]
        let verdict = Verdict.decide(cells: cells, baseline: nil)
        #expect(verdict.exitCode == 2)
        #expect(verdict.integrityFailures == 1)
        #expect(verdict.budgetFailures == 1)
        #expect(verdict.regressions == 1)
        #expect(verdict.passedCells == 0)
    }

    @Test func crashedCellsAreCountedAndExitTwo() {
        let verdict = Verdict.decide(
            cells: [B.cell("a", status: .crashed), B.cell("b", status: .error)], baseline: nil)
        #expect(verdict.crashed == 2)
        #expect(verdict.exitCode == 2)
    }

    @Test func dataCountsEvenWhenTheStatusSaysPassed() {
        let cells = [
            B.cell("a", verification: B.failedVerification), B.cell("b", budgets: [B.failedBudget]),
        ]
        let verdict = Verdict.decide(cells: cells, baseline: nil)
        #expect(verdict.integrityFailures == 1)
        #expect(verdict.budgetFailures == 1)
        #expect(verdict.passedCells == 0)
        #expect(verdict.exitCode == 2)
    }

    @Test func aBaselineRegressionExitsThree() {
        let old = B.report([B.cell("a", counts: ["allocations": [1_000]])])
        let new = B.report([B.cell("a", counts: ["allocations": [1_100]])])
        let comparison = new.compare(to: old, baselineFile: "old.json")
        let verdict = Verdict.decide(cells: new.cells, baseline: comparison)
        #expect(verdict.regressions == 1)
        #expect(verdict.exitCode == 3)
    }

    @Test func applyingABaselineMarksRegressedCellsAndDecidesAgain() {
        let one = ["sqliteSteps": [1_000.0]]
        let two = ["sqliteSteps": [2_000.0]]
        let old = B.report([B.cell("a", counts: one), B.cell("b", counts: one), B.cell("c", counts: one)])
        var new = B.report([
            B.cell("a", counts: two), B.cell("b", counts: one), B.cell("c", status: .integrityFailure, counts: two),
        ])
        new.applyBaseline(new.compare(to: old, baselineFile: "old.json"))
        #expect(new.baseline?.baselineFile == "old.json")
        #expect(new.cells.map(\.status) == [.regressed, .passed, .integrityFailure])
        #expect(new.verdict.regressions == 2)
        #expect(new.verdict.exitCode == 2)
    }
}
