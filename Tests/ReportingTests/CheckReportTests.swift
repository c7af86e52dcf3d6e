import Foundation
import ReportModel
import Reporting
import Testing

/// A check's report: its findings come first in every writer, and an error finding is a JUnit failure.
@Suite("Check reports")
struct CheckReportTests {
    static let report: Report = {
        var report = SampleReport.report
        let findings = [
            Finding(
                code: "needsValue", severity: .error, from: "V1", to: "V2", entity: "Book", property: "isbn",
                message: "inferred, but fails <on> every device"),
            Finding(
                code: "mappingModelSkipsVersions", severity: .warning, from: "V1", to: "V3", entity: nil,
                property: nil, message: "never runs"),
        ]
        report.check = ModelCheck(
            model: "Model.xcdatamodeld", current: "V3", sizes: [100],
            steps: [
                CheckStep(
                    origin: "V1", size: 100, from: "V1", to: "V2", kind: "lightweight", mapping: nil,
                    outcome: .failed, seconds: 0.012, peakHeapBytes: 2_097_152, verifySeconds: nil,
                    failure: "134110")
            ], findings: findings)
        report.verdict = .decide(cells: report.cells, findings: findings)
        return report
    }()

    @Test func roundTripsAndARunReportHasNoCheck() throws {
        #expect(try ReportJSON.decode(from: ReportJSON.encode(Self.report)) == Self.report)
        let run = String(decoding: try ReportJSON.encode(SampleReport.report), as: UTF8.self)
        #expect(!run.contains("\"check\"") && !run.contains("errorFindings"))
    }

    @Test func findingsComeFirstInEveryWriter() throws {
        let junit = JUnitReport.render(Self.report)
        #expect(junit.contains(#"<testsuite name="findings" tests="2" failures="1""#))
        #expect(junit.contains(#"<failure type="needsValue" message="inferred, but fails &lt;on&gt; every device">"#))
        let suites = junit.components(separatedBy: "<testsuite ").dropFirst().map { $0.prefix(30) }
        #expect(suites.first?.hasPrefix(#"name="findings""#) == true)

        let markdown = MarkdownSummary.render(Self.report)
        let findings = try #require(markdown.range(of: "### Findings"))
        let stores = try #require(markdown.range(of: "### Stores"))
        #expect(findings.lowerBound < stores.lowerBound)
        #expect(markdown.contains("| error | needsValue | V1 → V2 | Book.isbn |"))
        #expect(markdown.contains("1 error finding"))

        let html = HTMLReport.render(Self.report)
        let section = try #require(html.range(of: "<h2>Findings</h2>"))
        let cells = try #require(html.range(of: "Verdict by cell"))
        #expect(section.lowerBound < cells.lowerBound)
        #expect(html.contains("inferred, but fails &lt;on&gt; every device") && html.contains("2 MiB"))
    }

    /// A step whose instructions were counted (`check --instructions`) shows them in the step tables; one that
    /// was not says "unavailable" beside it; without any counted, the tables have no such column.
    @Test func countedStepsShowTheirInstructions() throws {
        #expect(!MarkdownSummary.render(Self.report).contains("Instructions"))
        #expect(!HTMLReport.render(Self.report).contains("<th class=\"num\">Instructions</th>"))
        var report = Self.report
        var counted = try #require(report.check?.steps.first)
        counted.failure = nil
        counted.outcome = .passed
        counted.instructions = 21_640_518
        report.check?.steps.append(counted)
        #expect(try ReportJSON.decode(from: ReportJSON.encode(report)) == report)
        let markdown = MarkdownSummary.render(report)
        #expect(markdown.contains("| Peak heap | Instructions |"), "\(markdown)")
        #expect(markdown.contains("MiB | 21,640,518 |") && markdown.contains("MiB | unavailable |"), "\(markdown)")
        let html = HTMLReport.render(report)
        #expect(html.contains("<th class=\"num\">Instructions</th>"))
        #expect(html.contains("<td class=\"num\">21,640,518</td>"))
        #expect(html.contains("<td class=\"num\">unavailable</td>"))
    }
}
