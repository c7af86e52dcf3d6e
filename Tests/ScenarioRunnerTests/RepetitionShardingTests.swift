import Foundation
import MigrationEngine
import ReportModel
import Testing

@testable import ScenarioRunner

/// A balanced plan shares out the repetitions of a cell longer than a shard's mean time, and `merge` puts them
/// back together: the merged cells are the unsharded run's, statistics and all.
@Suite("Repetition sharding")
struct RepetitionShardingTests {
    /// The catalog at its full sizes and repetitions.
    static let cells = ShardingTests.cells(ShardingTests.catalog)
    static let repetitions: [Int] = RunOrchestrator(scenarios: ShardingTests.catalog, options: RunOptions(quick: false))
        .cells().map { $0.scenario.repetitions(quick: false) }

    /// A recorded report of the catalog, one repetition per cell, where many-to-many at 1,000,000 objects is 40 %
    /// of the work, as in a real one.
    static let recorded: Report = {
        let heavy = cells.firstIndex { $0.id.hasPrefix("many-to-many/1000000/") } ?? 0
        let rest = cells.indices.filter { $0 != heavy }.map { Double($0 % 9 + 1) }.reduce(0, +)
        return ShardingTests.report(
            cells.enumerated().map { index, cell in
                (cell, index == heavy ? rest * 2 / 3 : Double(index % 9 + 1))
            })
    }()

    /// A made-up repetition of a cell: figures that depend on the cell and the repetition only, one repetition in
    /// three failing verification for cells of scenarios whose name is short.
    static func sample(_ spec: CellSpec) -> CellSample {
        let seed = Double(spec.id.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) % 1000 })
        func phase(_ name: String, _ seconds: Double) -> PhaseSample {
            PhaseSample(
                name: name, group: nil, wallSeconds: seconds, userSeconds: seconds / 2, systemSeconds: seconds / 10,
                heapAllocatedBytes: 1000 + spec.repetition, heapPeakBytes: 5000 * spec.repetition,
                residentBytes: 9000, peakResidentBytes: 9000 + spec.repetition, bytesRead: 10, bytesWritten: 20,
                sqliteMemoryHighWaterBytes: 30, counts: ["allocations": 100 + spec.repetition], objects: spec.size,
                edges: 7)
        }
        let seconds = 1 + seed / 100 + Double(spec.repetition * spec.repetition) / 7
        let failing = spec.scenario.count < 13 && spec.repetition == 2
        return CellSample(
            phases: [phase("generate", seconds / 3), phase("V1 → V2", seconds), phase("verify V1 → V2", 0.5)],
            total: phase("migration", seconds), floorSeconds: seconds / Double(2 + spec.repetition), steps: [],
            objects: spec.size, edges: 7,
            verification: VerificationSummary(
                passed: !failing, checked: spec.size,
                violations: failing
                    ? [.init(kind: "missingObject", entity: "Book", property: nil, count: 3, examples: ["x"])] : [],
                notChecked: []),
            memorySeries: [MemoryPoint(seconds: seconds, heapBytes: spec.repetition, residentBytes: 1)],
            unavailable: [:], countingMethods: [:])
    }

    static func orchestrator(_ shard: ShardPlan?) -> RunOrchestrator {
        var options = RunOptions(quick: false)
        options.shard = shard
        return RunOrchestrator(scenarios: ShardingTests.catalog, options: options) { .finished(sample($0)) }
    }

    static func shardReport(_ orchestrator: RunOrchestrator, _ cells: [Cell], id: String) -> Report {
        var report = ShardingTests.report([])
        report.runID = id
        report.cells = cells
        report.shard = orchestrator.shardRecord()
        report.verdict = .decide(cells: cells, baseline: nil)
        return report
    }

    @Test(arguments: [2, 4, 8])
    func mergedShardsOfSharedRepetitionsAreTheUnshardedCells(count: Int) throws {
        let whole = Self.orchestrator(nil).run()
        #expect(whole.contains { $0.status == .integrityFailure }, "a failure to keep")
        var files: [ReportFile] = []
        var split = 0
        for index in 1...count {
            let orchestrator = Self.orchestrator(
                ShardPlan(shard: try Shard(index: index, count: count), balancingBy: Self.recorded))
            let cells = orchestrator.run()
            let report = Self.shardReport(orchestrator, cells, id: "shard-\(index)")
            split += report.shard?.repetitions?.count ?? 0
            files.append(ReportFile(file: "shard-\(index)/report.json", report: report))
        }
        if count >= 4 { #expect(split >= 2, "the heavy cell's repetitions are shared out among shards") }
        let merged = try Report.merging(files, runID: "merged", startedAt: "now", command: ["merge"])
        #expect(merged.cells == whole, "\(count) shards")
        #expect(merged.verdict == Verdict.decide(cells: whole, baseline: nil))
    }

    /// The heavy cell's three repetitions go to different shards once it is longer than the mean shard, and the
    /// slowest shard is then within 1.3× the mean for 4 and 8 shards.
    @Test func theHeavyCellsRepetitionsAreSharedOut() throws {
        for count in [2, 4, 8] {
            let plan = ShardPlan(shard: try Shard(index: 1, count: count), balancingBy: Self.recorded)
            let shares = plan.shares(Self.cells, repetitions: Self.repetitions)
            let loads = try #require(plan.predictedSeconds(Self.cells, repetitions: Self.repetitions))
            let mean = loads.reduce(0, +) / Double(count)
            let heavy = shares.indices.max { a, b in
                Balance(Self.recorded).seconds(Self.cells[a]) < Balance(Self.recorded).seconds(Self.cells[b])
            }!
            if count >= 4 { #expect(Set(shares[heavy]).count == shares[heavy].count, "\(shares[heavy])") }
            #expect(loads.max()! <= 1.3 * mean, "\(count) shards: \(loads)")
            for (cell, shares) in zip(Self.cells.indices, shares) where Set(shares).count > 1 {
                let whole = Balance(Self.recorded).seconds(Self.cells[cell]) * Double(Self.repetitions[cell])
                #expect(whole > mean, "only a cell longer than the mean shard is split")
            }
        }
    }

    /// Every repetition of every cell is run by exactly one shard.
    @Test(arguments: [1, 3, 4, 7, 16])
    func everyRepetitionRunsOnce(count: Int) throws {
        var ran: [String: [Int]] = [:]
        for index in 1...count {
            let orchestrator = Self.orchestrator(
                ShardPlan(shard: try Shard(index: index, count: count), balancingBy: Self.recorded))
            for item in orchestrator.selectedCells() { ran[item.spec.id, default: []] += item.repetitions }
        }
        #expect(ran.count == Self.cells.count)
        for (cell, repetitions) in zip(Self.cells, Self.repetitions) {
            #expect(ran[cell.id]?.sorted() == Array(1...repetitions), "\(cell.id)")
        }
    }

    /// Merge refuses a cell's repetitions run twice or by no shard, naming the files.
    @Test func mergeRefusesRepetitionsRunTwiceOrNever() throws {
        let count = 4
        var files: [ReportFile] = []
        for index in 1...count {
            let orchestrator = Self.orchestrator(
                ShardPlan(shard: try Shard(index: index, count: count), balancingBy: Self.recorded))
            let report = Self.shardReport(orchestrator, orchestrator.run(), id: "shard-\(index)")
            files.append(ReportFile(file: "s\(index).json", report: report))
        }
        let owner = try #require(files.firstIndex { $0.report.shard?.repetitions != nil })
        for change in [{ (share: inout RepetitionShare) in share.repetitions = [1, 2, 3] }, { $0.repetitions = [] }] {
            var broken = files
            change(&broken[owner].report.shard!.repetitions![0])
            #expect {
                try Report.merging(broken, runID: "m", startedAt: "now", command: ["merge"])
            } throws: { error in
                "\(error)".contains("not each of 1…3 once") && "\(error)".contains("s\(owner + 1).json")
            }
        }
        // A shard that compared its share of a cell with a baseline cannot stand for the cell's comparison.
        var compared = files
        for index in compared.indices {
            compared[index].report.baseline = BaselineComparison(
                baselineFile: "b.json", baselineRunID: "b", thresholds: BaselineThresholds(), entries: [])
        }
        #expect(throws: MergeError.self) {
            try Report.merging(compared, runID: "m", startedAt: "now", command: ["merge"])
        }
    }
}
