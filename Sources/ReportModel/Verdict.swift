/// A run's outcome: how many cells passed, what failed, and the exit code that CI gates on.
///
/// Exit codes: 0 when every cell passed; 2 when a cell's migrated store failed verification, or a cell
/// crashed or could not run (nothing then shows that its data is safe); 3 when a budget was exceeded or a
/// metric regressed against the baseline. 2 wins over 3. (1, a usage or input error, never comes from a
/// report.)
public struct Verdict: Sendable, Hashable, Codable {
    /// The exit code when every cell passed.
    public static let successExitCode = 0
    /// The exit code when a store failed verification, or a cell crashed or could not run.
    public static let integrityFailureExitCode = 2
    /// The exit code when a budget was exceeded or a metric regressed against the baseline.
    public static let regressionExitCode = 3

    /// The process's exit code: 0, 2 or 3.
    public var exitCode: Int
    /// Whether the run passed, that is, whether ``exitCode`` is 0.
    public var passed: Bool
    /// The number of cells.
    public var cells: Int
    /// Cells that passed every check.
    public var passedCells: Int
    /// Cells whose migrated store failed verification.
    public var integrityFailures: Int
    /// Cells with an exceeded budget.
    public var budgetFailures: Int
    /// Cells that regressed against the baseline.
    public var regressions: Int
    /// Cells that crashed or could not run.
    public var crashed: Int
    /// A check's findings of severity error (budgets included), or nil for a run of scenarios.
    public var errorFindings: Int?

    /// Creates a verdict from counts decided elsewhere; ``decide(cells:baseline:)`` derives them from cells.
    public init(
        exitCode: Int, passed: Bool, cells: Int, passedCells: Int, integrityFailures: Int, budgetFailures: Int,
        regressions: Int, crashed: Int, errorFindings: Int? = nil
    ) {
        self.exitCode = exitCode
        self.passed = passed
        self.cells = cells
        self.passedCells = passedCells
        self.integrityFailures = integrityFailures
        self.budgetFailures = budgetFailures
        self.regressions = regressions
        self.crashed = crashed
        self.errorFindings = errorFindings
    }

    /// Decides a run's verdict from its cells and its baseline comparison.
    ///
    /// A cell counts in every category its status or its data puts it in: a verification other than the
    /// scenario expects (see ``Verification/isAsExpected``) is an integrity failure, a failed budget a budget failure and a regressed baseline entry a regression, whatever
    /// the status says. A cell passes only when its status is ``CellStatus/passed`` and it is in no category.
    public static func decide(cells: [Cell], baseline: BaselineComparison?) -> Verdict {
        let regressedIDs = Set((baseline?.regressions ?? []).map(\.cell))
        var passedCells = 0
        var integrityFailures = 0
        var budgetFailures = 0
        var regressions = 0
        var crashed = 0
        for cell in cells {
            let failures = [
                cell.status == .integrityFailure || cell.verification?.isAsExpected == false,
                cell.status == .budgetExceeded || cell.budgets.contains { !$0.passed },
                cell.status == .regressed || regressedIDs.contains(cell.id),
                !cell.isMeasured,
            ]
            integrityFailures += failures[0] ? 1 : 0
            budgetFailures += failures[1] ? 1 : 0
            regressions += failures[2] ? 1 : 0
            crashed += failures[3] ? 1 : 0
            passedCells += cell.status == .passed && !failures.contains(true) ? 1 : 0
        }
        let exitCode =
            integrityFailures + crashed > 0
            ? integrityFailureExitCode
            : budgetFailures + regressions > 0 ? regressionExitCode : successExitCode
        return Verdict(
            exitCode: exitCode, passed: exitCode == successExitCode, cells: cells.count, passedCells: passedCells,
            integrityFailures: integrityFailures, budgetFailures: budgetFailures, regressions: regressions,
            crashed: crashed)
    }

    /// A check's verdict: its cells as ``decide(cells:baseline:)`` judges them, and its findings. An error
    /// finding exits 2, unless every error finding is an exceeded budget, which exits 3 (2 wins over 3).
    public static func decide(cells: [Cell], findings: [Finding]) -> Verdict {
        var verdict = decide(cells: cells, baseline: nil)
        let errors = findings.filter { $0.severity == .error }
        verdict.errorFindings = errors.count
        if errors.contains(where: { !$0.isBudget }) {
            verdict.exitCode = integrityFailureExitCode
        } else if !errors.isEmpty && verdict.exitCode == successExitCode {
            verdict.exitCode = regressionExitCode
        }
        verdict.passed = verdict.exitCode == successExitCode
        return verdict
    }
}
