import Testing

@testable import ReportModel

@Suite("Merging shards' reports")
struct MergeTests {
    /// Five cells of one run: one integrity failure, one over budget, three passing.
    static let cells = [
        CellBuilder.cell("a", wall: [1.0, 1.1], counts: ["allocations": [2_000, 2_000]]),
        CellBuilder.cell("b", status: .integrityFailure, verification: CellBuilder.failedVerification),
        CellBuilder.cell("c", wall: [2.0, 2.1], counts: ["allocations": [4_000, 4_000]]),
        CellBuilder.cell("d", status: .budgetExceeded, budgets: [CellBuilder.failedBudget]),
        CellBuilder.cell("e", wall: [0.5, 0.6]),
    ]

    /// The report of shard `index` of `count` holding the cells at `positions`.
    static func shard(
        _ index: Int, of count: Int, _ positions: [Int], cells: [Cell] = cells, commit: String? = "abc",
        scenarios: [ScenarioSummary] = []
    ) -> ReportFile {
        var report = CellBuilder.report(positions.map { cells[$0] }, runID: "shard-\(index)")
        report.environment.gitCommit = commit
        report.environment.hostname = "runner-\(index)"
        report.scenarios = scenarios
        report.shard = ShardRecord(
            index: index, count: count, partition: ShardRecord.hashed, balancedBy: nil, matrixCells: cells.count,
            matrix: ShardRecord.digest(cells.map(\.id)), positions: positions)
        return ReportFile(file: "shard-\(index)/report.json", report: report)
    }

    static func merge(_ files: [ReportFile], baseline: ReportFile? = nil) throws -> Report {
        try Report.merging(
            files, runID: "merged", startedAt: "2026-11-28T00:00:00Z", command: ["merge"], baseline: baseline)
    }

    @Test func everyCellOnceInTheMatrixOrderWithTheVerdictDecidedAgain() throws {
        let merged = try Self.merge([
            Self.shard(2, of: 3, [1, 4]), Self.shard(1, of: 3, [0, 3]), Self.shard(3, of: 3, [2]),
        ])
        let single = CellBuilder.report(Self.cells)
        #expect(merged.cells == single.cells)
        #expect(merged.verdict == single.verdict)
        #expect(merged.verdict.exitCode == Verdict.integrityFailureExitCode)
        #expect(merged.shards?.map(\.index) == [1, 2, 3])
        #expect(merged.shards?.map(\.environment.hostname) == ["runner-1", "runner-2", "runner-3"])
        #expect(merged.shards?[1].cells == ["b", "e"])
        #expect(merged.shard == nil)
    }

    @Test func aShardWithNoCellsMergesToo() throws {
        let merged = try Self.merge([
            Self.shard(1, of: 3, [0, 1, 2, 3, 4]), Self.shard(2, of: 3, []), Self.shard(3, of: 3, []),
        ])
        #expect(merged.cells == Self.cells)
        #expect(merged.shards?[1].cells == [])
    }

    @Test func aMissingShardIsNamed() {
        let error = #expect(throws: MergeError.self) {
            try Self.merge([Self.shard(1, of: 3, [0, 3]), Self.shard(3, of: 3, [2])])
        }
        #expect(error?.description.hasPrefix("shard 2/3 is missing") == true, "\(String(describing: error))")
        #expect(error?.description.contains("shard-1/report.json") == true)
        #expect(error?.description.contains("shard-3/report.json") == true)
        let two = #expect(throws: MergeError.self) { try Self.merge([Self.shard(3, of: 4, [2])]) }
        #expect(two?.description.hasPrefix("shards 1/4, 2/4, 4/4 are missing") == true)
    }

    @Test func reportsOfDifferentCommitsAreRefused() {
        let error = #expect(throws: MergeError.self) {
            try Self.merge([
                Self.shard(1, of: 2, [0, 1, 2]), Self.shard(2, of: 2, [3, 4], commit: "def"),
            ])
        }
        #expect(error?.description.contains("different commits") == true)
        #expect(error?.description.contains("shard-1/report.json and shard-2/report.json") == true)
    }

    @Test func reportsOfDifferentScenarioSetsOrMatricesAreRefused() {
        let scenario = ScenarioSummary(
            name: "library", title: "Library", description: "", file: "Scenarios/library.yaml", chain: ["V1", "V2"],
            steps: [])
        let scenarios = #expect(throws: MergeError.self) {
            try Self.merge([
                Self.shard(1, of: 2, [0, 1, 2]), Self.shard(2, of: 2, [3, 4], scenarios: [scenario]),
            ])
        }
        #expect(scenarios?.description.contains("different scenario sets") == true)
        var other = Self.cells
        other[4].id = "f"
        let matrix = #expect(throws: MergeError.self) {
            try Self.merge([Self.shard(1, of: 2, [0, 1, 2]), Self.shard(2, of: 2, [3, 4], cells: other)])
        }
        #expect(matrix?.description.contains("different matrices") == true)
        let counts = #expect(throws: MergeError.self) {
            try Self.merge([Self.shard(1, of: 2, [0, 1, 2]), Self.shard(2, of: 3, [3, 4])])
        }
        #expect(counts?.description.contains("not shards of one run") == true)
    }

    @Test func aCellOrAShardTwiceIsRefused() {
        let cell = #expect(throws: MergeError.self) {
            try Self.merge([Self.shard(1, of: 2, [0, 1, 2]), Self.shard(2, of: 2, [2, 3, 4])])
        }
        #expect(cell?.description == "cell c is in both shard-1/report.json and shard-2/report.json")
        var again = Self.shard(1, of: 2, [3, 4])
        again.file = "copy/report.json"
        let shard = #expect(throws: MergeError.self) {
            try Self.merge([Self.shard(1, of: 2, [0, 1, 2]), again])
        }
        #expect(shard?.description == "shard-1/report.json and copy/report.json are both shard 1/2")
    }

    @Test func aMergedReportIsNotMergedAgain() throws {
        var merged = ReportFile(
            file: "merged/report.json",
            report: try Self.merge([Self.shard(1, of: 2, [0, 1, 2]), Self.shard(2, of: 2, [3, 4])]))
        let error = #expect(throws: MergeError.self) { try Self.merge([merged]) }
        #expect(error?.description.contains("merged report") == true)
        merged.report.shards = nil
        #expect(try Self.merge([merged]).cells == Self.cells, "an unsharded report is shard 1/1")
    }

    /// The merged cells are compared with a baseline as one run's are, whatever the shards were compared with.
    @Test func aBaselineIsAppliedAsInASingleRun() throws {
        let old = ReportFile(
            file: "baseline.json",
            report: CellBuilder.report(
                Self.cells.map { cell in
                    // Half the allocations then: a count regression now.
                    var leaner = cell
                    leaner.total.counts = cell.total.counts?.mapValues { Statistic(samples: $0.samples.map { $0 / 2 }) }
                    return leaner
                }, runID: "old"))
        var single = CellBuilder.report(Self.cells)
        single.applyBaseline(single.compare(to: old.report, baselineFile: old.file))
        #expect(single.verdict.regressions > 0, "the baseline must make something regress for this test")

        let shards = [Self.shard(1, of: 2, [0, 1, 2]), Self.shard(2, of: 2, [3, 4])]
        let merged = try Self.merge(shards, baseline: old)
        #expect(merged.cells == single.cells)
        // Counts are judged alike; timings were measured on the shards' machines, not the baseline's, so the
        // merged report calls them not comparable where the single run (on the baseline's machine) did not judge them.
        let counts = { (report: Report) in report.baseline?.entries.filter { $0.metric == "allocations" } ?? [] }
        #expect(counts(merged) == counts(single) && !counts(single).isEmpty)
        #expect(
            merged.baseline?.entries.filter { $0.metric == "wallSeconds" }.allSatisfy { $0.verdict == .notComparable }
                == true)
        #expect(merged.verdict == single.verdict)

        // Shards each compared with the baseline: their comparisons put together give the single run's.
        let compared = shards.map { file in
            var report = file.report
            report.applyBaseline(report.compare(to: old.report, baselineFile: old.file))
            return ReportFile(file: file.file, report: report)
        }
        let combined = try Self.merge(compared)
        #expect(combined.cells == single.cells)
        #expect(Set(combined.baseline?.entries ?? []) == Set(merged.baseline?.entries ?? []))
        #expect(combined.baseline?.entries.count == merged.baseline?.entries.count)
        #expect(combined.verdict == single.verdict)
        // Merged again with the baseline given, the shards' own comparisons are set aside, not counted twice.
        let again = try Self.merge(compared, baseline: old)
        #expect(again.cells == single.cells)
        #expect(again.verdict == single.verdict)
    }

    @Test func shardsComparedWithDifferentBaselinesAreRefusedWithoutOne() throws {
        let old = CellBuilder.report(Self.cells, runID: "old")
        var first = Self.shard(1, of: 2, [0, 1, 2])
        first.report.applyBaseline(first.report.compare(to: old, baselineFile: "old.json"))
        let error = #expect(throws: MergeError.self) { try Self.merge([first, Self.shard(2, of: 2, [3, 4])]) }
        #expect(error?.description.contains("same baseline") == true)
        #expect(
            try Self.merge([first, Self.shard(2, of: 2, [3, 4])], baseline: ReportFile(file: "old.json", report: old))
                .baseline?.baselineRunID == "old")
    }

    /// A check's shards: findings put together without repeats, the verdict from them and every cell.
    @Test func aChecksFindingsAndStepsArePutTogether() throws {
        let cells = ["from V1/100", "from V2/100", "from V1/1000", "from V2/1000"].map { id in
            var cell = CellBuilder.cell(id)
            cell.scenario = String(id.split(separator: "/")[0])
            cell.size = Int(id.split(separator: "/")[1])!
            return cell
        }
        let warning = Finding(
            code: "identicalVersionHashes", severity: .warning, from: "V1", to: "V2", entity: nil, property: nil,
            message: "same")
        let failure = Finding(
            code: "verificationFailed", severity: .error, from: "V2", to: "V3", entity: "Book", property: nil,
            message: "bad")
        func step(_ origin: String, _ size: Int) -> CheckStep {
            CheckStep(
                origin: origin, size: size, from: origin, to: "V3", kind: "lightweight", mapping: nil,
                outcome: .passed, seconds: 0.1, peakHeapBytes: nil, verifySeconds: 0.1, failure: nil)
        }
        var files = [Self.shard(1, of: 2, [1, 2], cells: cells), Self.shard(2, of: 2, [0, 3], cells: cells)]
        files[0].report.check = ModelCheck(
            model: "m.yaml", current: "V3", sizes: [100, 1000], steps: [step("V2", 100), step("V1", 1000)],
            findings: [warning])
        files[1].report.check = ModelCheck(
            model: "m.yaml", current: "V3", sizes: [100, 1000], steps: [step("V1", 100), step("V2", 1000)],
            findings: [failure, warning])
        let merged = try Self.merge(files)
        #expect(merged.cells.map(\.id) == cells.map(\.id))
        #expect(merged.check?.steps.map { "\($0.origin)/\($0.size)" } == ["V1/100", "V2/100", "V1/1000", "V2/1000"])
        #expect(merged.check?.findings == [failure, warning])
        #expect(merged.verdict == .decide(cells: cells, findings: [failure, warning]))
        files[1].report.check = nil
        let mixed = #expect(throws: MergeError.self) { try Self.merge(files) }
        #expect(mixed?.description.contains("not of one kind") == true)
    }
}
