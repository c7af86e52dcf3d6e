import Foundation
import Testing

/// `run --history <dir>`: one summary per run in the folder, and the report charts the last runs.
@Suite("history")
struct HistoryTests {
    @Test func eachRunAppendsItsSummaryAndTheReportChartsTheLastRuns() throws {
        try Executable.withTemporaryFolder { folder in
            let root = Executable.packageRoot.path
            let scenario = folder.appendingPathComponent("tiny.yaml").path
            try """
            name: tiny
            model: \(root)/Scenarios/models/library.yaml
            chain: [V1, V2]
            mappings: [\(root)/Scenarios/mappings/library-v1-v2.yaml]
            dataset: \(root)/Scenarios/datasets/library.yaml
            sizes: { quick: [500], full: [500] }
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
            let out = folder.appendingPathComponent("reports").path
            let history = folder.appendingPathComponent("history").path
            for run in 1...2 {
                let result = try Executable.run(
                    ["run", scenario, "--quick", "--out", out, "--history", history], in: folder)
                #expect(result.status == 0, "\(result.error)")
                let files = try FileManager.default.contentsOfDirectory(atPath: history).filter {
                    $0.hasSuffix(".json")
                }
                #expect(files.count == run)
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(out)/latest/report.json"))
            let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let entries = try #require(report["history"] as? [[String: Any]])
            #expect(entries.count == 2)
            let cells = try #require(entries.last?["cells"] as? [[String: Any]])
            let metrics = try #require(cells.first?["metrics"] as? [String: Double])
            #expect(metrics["sqliteSteps"] != nil && metrics["wallSeconds"] != nil)
            let html = try String(contentsOfFile: "\(out)/latest/index.html", encoding: .utf8)
            #expect(html.contains("<h2>Trends</h2>") && html.contains("Last 2 runs: tiny/500/"))
        }
    }
}
