import Foundation
import MigrationEngine
import ReportModel
import Testing

@testable import ScenarioRunner

@Suite("Sharding")
struct ShardingTests {
    /// The catalog's scenarios, at their full sizes.
    static let catalog: [Scenario] = {
        let folder = ScenarioLoaderTests.scenarios.path
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".yaml") }
        return (files ?? []).sorted().compactMap { try? ScenarioLoader.load(path: "\(folder)/\($0)") }
    }()

    static func cells(_ scenarios: [Scenario], quick: Bool = false) -> [CellSpec] {
        RunOrchestrator(scenarios: scenarios, options: RunOptions(quick: quick)) { _ in .failed("") }.cells()
            .map(\.spec)
    }

    /// 1,000 cells of made-up scenarios, sizes and modes.
    static let manyCells: [CellSpec] = (0..<1000).map { number in
        CellSpec(
            scenarioFile: "s\(number / 40).yaml", scenario: "scenario-\(number / 40)", size: 1000 * (number % 5 + 1),
            mode: CellMode(
                passes: number % 2 == 0 ? .single : .perEntity, storage: number % 3 == 0 ? .inMemory : .streaming,
                path: number % 4 < 2 ? .chained : .direct))
    }

    @Test(arguments: [1, 2, 3, 4, 7, 16, 100, 256])
    func theSharesAreDisjointAndTogetherTheWholeMatrix(count: Int) throws {
        for cells in [Self.cells(Self.catalog), Self.cells(Self.catalog, quick: true), Self.manyCells] {
            var seen: [Int] = []
            for index in 1...count {
                let plan = ShardPlan(shard: try Shard(index: index, count: count))
                let positions = plan.positions(cells)
                #expect(positions == positions.sorted(), "a shard keeps the matrix's order")
                #expect(plan.record(cells).positions == positions)
                seen += positions
            }
            #expect(seen.sorted() == Array(cells.indices), "every cell in exactly one of \(count) shards")
        }
    }

    @Test func theCatalogHasCellsToShare() {
        #expect(Self.catalog.count >= 9)
        #expect(Self.cells(Self.catalog).count > 50)
    }

    /// Rendezvous hashing: a cell's shard depends on its id and the count alone, so a scenario added (or
    /// removed) moves none of the others' cells.
    @Test(arguments: [2, 3, 4, 8])
    func aScenarioAddedMovesNoOtherCell(count: Int) throws {
        let plan = ShardPlan(shard: try Shard(index: 1, count: count))
        for added in Self.catalog.indices {
            var without = Self.catalog
            without.remove(at: added)
            let before = Self.cells(without)
            let after = Self.cells(Self.catalog)
            let shardBefore = Dictionary(uniqueKeysWithValues: zip(before.map(\.id), plan.assignments(before)))
            let assignedAfter = plan.assignments(after)
            let moved = zip(after, assignedAfter).filter { cell, shard in
                shardBefore[cell.id].map { $0 != shard } ?? false
            }
            #expect(moved.isEmpty, "adding \(Self.catalog[added].name) moved \(moved.map(\.0.id))")
        }
    }

    /// Rendezvous hashing again: with one shard more, a cell either keeps its shard or moves to the new one, and
    /// about one cell in N + 1 moves.
    @Test(arguments: [1, 3, 4, 7])
    func oneShardMoreMovesCellsOnlyToIt(count: Int) throws {
        let before = ShardPlan(shard: try Shard(index: 1, count: count)).assignments(Self.manyCells)
        let after = ShardPlan(shard: try Shard(index: 1, count: count + 1)).assignments(Self.manyCells)
        let moved = zip(before, after).filter { $0 != $1 }
        #expect(moved.allSatisfy { $0.1 == count + 1 })
        let expected = Double(Self.manyCells.count) / Double(count + 1)
        #expect(abs(Double(moved.count) - expected) <= expected / 5, "\(moved.count) of 1,000 cells moved")
    }

    /// The hash is fixed (FNV-1a, not Swift's per-process seeded Hasher): the published test vectors hold, and
    /// shares of 1,000 cells are even within a fifth.
    @Test func theHashIsFixedAndSpreadsCellsEvenly() throws {
        var hash = FNV1a()
        hash.add(Array("a".utf8))
        #expect(hash.value == 0xaf63_dc4c_8601_ec8c)
        var foobar = FNV1a()
        foobar.add(Array("foobar".utf8))
        #expect(foobar.value == 0x8594_4171_f739_67e8)
        for count in [2, 4, 8] {
            let assigned = ShardPlan(shard: try Shard(index: 1, count: count)).assignments(Self.manyCells)
            let expected = Double(Self.manyCells.count) / Double(count)
            for index in 1...count {
                let share = Double(assigned.filter { $0 == index }.count)
                #expect(abs(share - expected) <= expected / 5, "shard \(index)/\(count) has \(share) cells")
            }
        }
    }

    @Test func shardsAreParsedAndCheckedAsIOfN() throws {
        #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
        #expect(try Shard(parsing: "256/256").count == 256)
        for bad in ["0/4", "5/4", "1/257", "1/0", "a/b", "1/", "/2", "2", "1/2/3", "-1/2", " 1/2"] {
            #expect(throws: ShardError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test func ciVariablesGiveTheShardFromOneOrZero() throws {
        let gitLab = try #require(try Shard.fromEnvironment(["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"]))
        #expect(gitLab.shard == (try Shard(index: 1, count: 3)))
        #expect(gitLab.source.hasPrefix("GitLab CI_NODE_INDEX=1"))
        let buildkite = try #require(
            try Shard.fromEnvironment(["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "4"]))
        #expect(buildkite.shard == (try Shard(index: 1, count: 4)))
        let circle = try #require(try Shard.fromEnvironment(["CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "4"]))
        #expect(circle.shard == (try Shard(index: 4, count: 4)))
        #expect(try Shard.fromEnvironment(["CI_NODE_INDEX": "1"]) == nil, "an index alone is no parallel job")
        #expect(try Shard.fromEnvironment(["HOME": "/root"]) == nil)
        for bad in [
            ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"], ["CIRCLE_NODE_INDEX": "4", "CIRCLE_NODE_TOTAL": "4"],
            ["BUILDKITE_PARALLEL_JOB": "x", "BUILDKITE_PARALLEL_JOB_COUNT": "4"],
        ] {
            #expect(throws: ShardError.self, "\(bad)") { try Shard.fromEnvironment(bad) }
        }
    }

    /// Longest first onto the least-loaded shard, then improved by moves and swaps: never worse than Graham's
    /// bound for list scheduling (the mean plus the longest cell), and an even split where a swap finds one.
    @Test func longestFirstStaysWithinGrahamsBound() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let seconds = (0..<Int.random(in: 1...60, using: &random)).map { _ in
                Double.random(in: 0.01...10, using: &random)
            }
            let count = Int.random(in: 1...12, using: &random)
            let assigned = ShardPlan.longestFirst(seconds, count: count)
            #expect(assigned.allSatisfy { (1...count).contains($0) })
            let loads = (1...count).map { index in
                zip(seconds, assigned).filter { $0.1 == index }.map(\.0).reduce(0, +)
            }
            let mean = seconds.reduce(0, +) / Double(count)
            #expect(loads.max()! <= mean + seconds.max()! * (1 - 1 / Double(count)) + 1e-9)
        }
        // Greedy alone gives 3 + 2 + 2 against 3 + 2; the swap of a 3 and a 2 evens it.
        #expect(ShardPlan.longestFirst([3, 3, 2, 2, 2], count: 2) == [2, 2, 1, 1, 1])
    }

    /// Balanced by a report: the cells it measured by their times, the others by the time per object of their
    /// scenario and mode; every shard computes the same plan.
    @Test func aBalancedPlanUsesTheReportsTimes() throws {
        let cells = Array(Self.manyCells.prefix(40))
        let report = Self.report(cells.dropLast(4).enumerated().map { ($0.element, Double($0.offset % 7 + 1)) })
        var seen: [Int] = []
        for index in 1...4 {
            let plan = ShardPlan(shard: try Shard(index: index, count: 4), balancingBy: report)
            seen += plan.positions(cells)
            #expect(plan.record(cells).partition == ShardRecord.balanced)
            #expect(plan.record(cells).balancedBy == report.runID)
        }
        #expect(seen.sorted() == Array(cells.indices))
        let balance = Balance(report)
        let missing = cells[39]
        let sameKind = cells.dropLast(4).filter { $0.scenario == missing.scenario && $0.mode == missing.mode }
        #expect(!sameKind.isEmpty)
        #expect(balance.seconds(missing) > 0)
    }

    /// A report whose cells took the seconds given, one repetition each, with no time besides.
    static func report(_ cells: [(CellSpec, Double)]) -> Report {
        let reportCells = cells.map { spec, seconds in
            let wall = Statistic(samples: [seconds])
            let zero = Statistic(samples: [0])
            let phase = Phase(
                name: "generate", group: nil, wallSeconds: wall, userSeconds: zero, systemSeconds: zero,
                heapAllocatedBytes: nil, heapPeakBytes: nil, residentBytes: zero, peakResidentBytes: zero,
                bytesRead: zero, bytesWritten: zero, sqliteMemoryHighWaterBytes: zero, objects: 0, edges: 0)
            return Cell(
                id: spec.id, scenario: spec.scenario, size: spec.size,
                mode: Mode(
                    passes: spec.mode.passes.rawValue, storage: spec.mode.storage.rawValue,
                    path: spec.mode.path.rawValue), repetitions: 1, status: .passed, failure: nil, objects: 0,
                edges: 0, phases: [phase], total: phase, floor: nil, verification: nil, budgets: [],
                memorySeries: [])
        }
        let environment = Environment(
            os: "Linux", kernel: "6.8", cpu: "test", cpuCount: 2, memoryBytes: 1 << 30, swiftVersion: "6",
            sqliteVersion: "3", jemallocVersion: nil, gitCommit: nil, buildConfiguration: "debug", hostname: "test")
        return Report(
            runID: "recorded", startedAt: "2026-11-28T00:00:00Z",
            durationSeconds: cells.map(\.1).reduce(0, +), command: ["run"], environment: environment,
            scenarios: [], cells: reportCells, baseline: nil, verdict: .decide(cells: reportCells, baseline: nil))
    }
}
