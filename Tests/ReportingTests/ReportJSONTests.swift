import Foundation
import ReportModel
import Reporting
import Testing

@Suite("Report JSON")
struct ReportJSONTests {
    @Test func roundTrips() throws {
        let data = try ReportJSON.encode(SampleReport.report)
        #expect(try ReportJSON.decode(from: data) == SampleReport.report)
    }

    @Test func encodingIsDeterministic() throws {
        #expect(try ReportJSON.encode(SampleReport.report) == ReportJSON.encode(SampleReport.report))
    }

    /// Version 2 only added optional fields (each cell's breakdown): a version 1 report reads as one without them.
    @Test func readsASchemaVersion1Report() throws {
        var report = SampleReport.report
        report.schemaVersion = 1
        for index in report.cells.indices { report.cells[index].breakdown = nil }
        #expect(try ReportJSON.decode(from: ReportJSON.encode(report)) == report)
    }

    @Test func refusesAnUnknownSchemaVersion() throws {
        var report = SampleReport.report
        report.schemaVersion = Report.currentSchemaVersion + 1
        let data = try ReportJSON.encode(report)
        let error = try #require(throws: ReportFileError.self) { try ReportJSON.decode(from: data) }
        #expect(error.code == .unsupportedSchemaVersion)
        #expect(error.description.contains("schema version \(Report.currentSchemaVersion + 1)"))
    }

    @Test(arguments: ["not json", #"{"runID": "x"}"#, #"{"schemaVersion": 1}"#])
    func refusesWhatIsNotAReport(text: String) throws {
        let error = try #require(throws: ReportFileError.self) { try ReportJSON.decode(from: Data(text.utf8)) }
        #expect(error.code == .notAReport)
    }
}

@Suite("Writers at the edges")
struct WriterEdgeTests {
    /// A report with no cell and no scenario still renders every file.
    @Test func emptyReportRenders() throws {
        var report = SampleReport.report
        report.cells = []
        report.scenarios = []
        report.baseline = nil
        report.verdict = .decide(cells: [], baseline: nil)
        let files = try ReportWriter.files(for: report)
        #expect(files.allSatisfy { !$0.contents.isEmpty })
        #expect(HTMLReport.render(report).contains("No budget applies to these cells."))
        #expect(JUnitReport.render(report).contains(#"tests="0""#))
    }

    /// A scenario whose every cell crashed gets charts that say so instead of empty axes.
    @Test func scenarioWithoutMeasuredCellsSaysSo() {
        var report = SampleReport.report
        report.cells = report.cells.map { cell in
            var cell = cell
            cell.status = .crashed
            return cell
        }
        #expect(HTMLReport.render(report).contains("No cell of this scenario was measured."))
    }
}
