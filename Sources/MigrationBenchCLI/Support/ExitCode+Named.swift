import ArgumentParser
import ReportModel

/// The command line's exit codes by name (README, "Exit codes"). Those a report decides come from `Verdict`, so
/// that a run, a merge, a check and the report they write agree.
extension ExitCode {
    /// 1: a usage or input error; nothing ran, or what ran is not trusted.
    static let inputError = ExitCode(1)
    /// 2: a migrated store failed verification, or a cell crashed or could not run.
    static let integrityFailure = ExitCode(Int32(Verdict.integrityFailureExitCode))
    /// 3: a budget was exceeded, a metric regressed against the baseline, or a benchmark target was missed.
    static let regression = ExitCode(Int32(Verdict.regressionExitCode))
}
