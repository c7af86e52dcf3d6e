import Foundation
import ReportModel
import Testing

/// `run --jobs`: cells side by side give the same cells, verdicts and integrity as one at a time, their counts are
/// judged and their timings are not.
@Suite("run --jobs")
struct ParallelRunTests {
    /// The library scenario at 1,000 objects in four modes.
    private func scenario(in folder: URL) throws -> String {
        let root = Executable.packageRoot.path
        let path = folder.appendingPathComponent("parallel.yaml").path
        try """
        name: parallel
        model: \(root)/Scenarios/models/library.yaml
        chain: [V1, V2]
        mappings: [\(root)/Scenarios/mappings/library-v1-v2.yaml]
        dataset: \(root)/Scenarios/datasets/library.yaml
        sizes: { quick: [1000], full: [1000] }
        modes: { storage: [streaming, in-memory], passes: [single, per-entity] }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func report(_ folder: String) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/report.json")))
    }

    @Test func twoJobsGiveTheSameCellsAndVerdictsAndLeaveTimingsUnjudged() throws {
        try Executable.withTemporaryFolder { folder in
            let scenario = try scenario(in: folder)
            let one = folder.appendingPathComponent("one").path
            let two = folder.appendingPathComponent("two").path
            let first = try Executable.run(["run", scenario, "--quick", "--jobs", "1", "--out", one], in: folder)
            #expect(first.status == 0, "\(first.error)")
            let baseline = try FileManager.default.destinationOfSymbolicLink(atPath: "\(one)/latest")
            let second = try Executable.run(
                [
                    "run", scenario, "--quick", "--jobs", "2", "--out", two, "--baseline",
                    "\(one)/\(baseline)/report.json",
                ],
                in: folder)
            #expect(second.status == 0, "\(second.output)\(second.error)")

            let alone = try report("\(one)/latest")
            let parallel = try report("\(two)/latest")
            #expect(alone.cells.count == 4)
            #expect(parallel.cells.map(\.id) == alone.cells.map(\.id))
            #expect(parallel.cells.map(\.status) == alone.cells.map(\.status))
            #expect(parallel.cells.map(\.verification) == alone.cells.map(\.verification))
            #expect(parallel.verdict.passed && parallel.verdict.exitCode == alone.verdict.exitCode)
            #expect(alone.cells.allSatisfy { $0.measuredInParallel == nil })
            #expect(parallel.cells.allSatisfy { $0.measuredInParallel == true })

            let entries = try #require(parallel.baseline?.entries)
            let counts = entries.filter { MetricDefinition.named($0.metric)?.noise == .count }
            let timings = entries.filter { MetricDefinition.named($0.metric)?.noise == .timing }
            #expect(!counts.isEmpty && counts.allSatisfy { $0.verdict == .unchanged }, "\(counts)")
            #expect(Set(timings.map(\.metric)) == ["wallSeconds", "floorRatio"])
            #expect(timings.allSatisfy { $0.verdict == .notJudged && $0.rule == ComparisonEntry.parallelRule })

            let html = try String(contentsOfFile: "\(two)/latest/index.html", encoding: .utf8)
            #expect(html.contains("not judged (parallel)"))
            let summary = try String(contentsOfFile: "\(two)/latest/summary.md", encoding: .utf8)
            #expect(summary.contains("4 cells measured in parallel (run --jobs): timings not judged (parallel)"))
        }
    }

    @Test func jobsOutsideOneToSixtyFourAreRefused() throws {
        try Executable.withTemporaryFolder { folder in
            let run = try Executable.run(["run", "--jobs", "0"], in: folder)
            #expect(run.status == 1)
            #expect(run.error.contains("--jobs must be from 1 to 64"))
        }
    }
}
