import ArgumentParser
import Foundation
import ReportModel
import ScenarioRunner

/// `--shard I/N` and `--balance <report.json>`, shared by `run` and `check`; without `--shard`, a CI system's
/// parallel-job variables choose the shard.
struct ShardOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run only shard I of N (1 ≤ I ≤ N ≤ 256) of the cells; without it, GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, "
                + "Buildkite's BUILDKITE_PARALLEL_JOB/_COUNT or CircleCI's CIRCLE_NODE_INDEX/_TOTAL are read.",
            valueName: "I/N"))
    var shard: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Share the cells out by the times this earlier full or merged report measured (longest first).",
            valueName: "report.json"))
    var balance: String?

    func validate() throws {
        if let shard {
            do {
                _ = try Shard(parsing: shard)
            } catch {
                throw ValidationError("--shard: \(error)")
            }
        }
    }

    /// The shard to run and the line that says so, or nil for every cell.
    ///
    /// - Throws: ``InputError`` for a bad `--shard`, bad CI variables, or `--balance` without a shard.
    func plan(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (
        plan: ShardPlan, line: String
    )? {
        let chosen: (shard: Shard, source: String)?
        do {
            if let shard {
                chosen = (try Shard(parsing: shard), "--shard")
            } else {
                chosen = try Shard.fromEnvironment(environment)
            }
        } catch {
            throw InputError(shard == nil ? "\(error)" : "--shard: \(error)")
        }
        guard let chosen else {
            if let balance { throw InputError("--balance \(balance): needs --shard I/N (or a CI's parallel job)") }
            return nil
        }
        guard let balance else {
            return (ShardPlan(shard: chosen.shard), "shard \(chosen.shard) (from \(chosen.source)), cells by hash")
        }
        let report = try ReportRun.readReport(balance)
        return (
            ShardPlan(shard: chosen.shard, balancingBy: report),
            "shard \(chosen.shard) (from \(chosen.source)), cells balanced by the times of \(balance) "
                + "(run \(report.runID))"
        )
    }
}

/// Writes a line to standard output at once, ahead of anything the progress display writes to standard error.
func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
