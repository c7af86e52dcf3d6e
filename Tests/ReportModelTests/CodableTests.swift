import Foundation
import ReportModel
import Testing

@Suite("Report schema")
struct CodableTests {
    typealias B = CellBuilder

    @Test func reportRoundTripsThroughJSON() throws {
        var old = B.report([B.cell("a", wall: [1, 2], heap: [5, 6], floorRatio: 3)], runID: "old")
        old.scenarios = [
            ScenarioSummary(
                name: "library", title: "Library", description: "A chain", file: "Scenarios/library.yaml",
                chain: ["V1", "V2"], steps: [.init(from: "V1", to: "V2", kind: "heavyweight", mapping: "m.yaml")])
        ]
        var report = B.report(
            [
                B.cell("a", status: .integrityFailure, wall: [3, 4], verification: B.failedVerification),
                B.cell("b", status: .budgetExceeded, budgets: [B.failedBudget]),
            ])
        report.cells[0].memorySeries = [MemorySample(seconds: 0.5, heapBytes: nil, residentBytes: 1e6)]
        report.baseline = report.compare(to: old, baselineFile: "old.json")
        report.verdict = .decide(cells: report.cells, baseline: report.baseline)

        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(Report.self, from: data) == report)
    }

    @Test func statusesAndVerdictsUseTheirSchemaNames() throws {
        let data = try JSONEncoder().encode([CellStatus.integrityFailure, .budgetExceeded, .crashed])
        #expect(String(decoding: data, as: UTF8.self) == #"["integrity-failure","budget-exceeded","crashed"]"#)
        #expect(Report.currentSchemaVersion == 2)
        #expect(B.report([]).schemaVersion == Report.currentSchemaVersion)
    }
}
