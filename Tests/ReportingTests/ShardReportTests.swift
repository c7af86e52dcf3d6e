import Foundation
import ReportModel
import Reporting
import Testing

/// A shard's and a merged report say so in the HTML and the Markdown; an unsharded one does not.
@Suite("Sharded reports")
struct ShardReportTests {
    @Test func aMergedReportNamesEachShardsRunAndMachine() throws {
        var report = SampleReport.report
        var other = SampleReport.environment
        other.hostname = "runner-two"
        report.shards = [
            ShardRun(
                index: 1, count: 2, runID: "run-one", startedAt: report.startedAt, durationSeconds: 12,
                command: ["run", "--shard", "1/2"], environment: SampleReport.environment,
                cells: report.cells.prefix(2).map(\.id)),
            ShardRun(
                index: 2, count: 2, runID: "run-two", startedAt: report.startedAt, durationSeconds: 14,
                command: ["run", "--shard", "2/2"], environment: other, cells: report.cells.dropFirst(2).map(\.id)),
        ]
        let markdown = MarkdownSummary.render(report)
        let html = HTMLReport.render(report)
        for text in [markdown, html] {
            #expect(text.contains("Shard 1/2") && text.contains("Shard 2/2"))
            #expect(text.contains("run-two") && text.contains("runner-two"))
        }
        #expect(!MarkdownSummary.render(SampleReport.report).contains("Shard"))
        let decoded = try ReportJSON.decode(from: try ReportJSON.encode(report))
        #expect(decoded == report)
    }

    @Test func aShardsReportSaysWhichShare() {
        var report = SampleReport.report
        report.shard = ShardRecord(
            index: 2, count: 4, partition: ShardRecord.hashed, balancedBy: nil, matrixCells: 55,
            matrix: "0123456789abcdef", positions: [3, 9, 20])
        #expect(MarkdownSummary.render(report).contains("Shard: 2/4 (hashed): 3 cells of 55"))
        #expect(HTMLReport.render(report).contains("2/4 (hashed): 3 cells of 55"))
    }
}
