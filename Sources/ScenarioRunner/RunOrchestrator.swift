import Foundation
import MappingModel
public import MigrationEngine
public import ReportModel
import Synchronization

/// What a run covers: which cells, how often, compared with what.
public struct RunOptions: Sendable {
    /// The quick sizes and repetitions (CI) instead of the full ones.
    public var quick: Bool
    /// Sizes to run instead of the scenarios' own.
    public var sizes: [Int]?
    /// Only cells with these pass modes (nil: every one the scenario lists).
    public var passes: [PassMode]?
    /// Only cells with these storage modes (nil: every one the scenario lists).
    public var storage: [StorageMode]?
    /// Only cells with these paths (nil: every one the scenario lists).
    public var paths: [MigrationPath]?
    /// Only this shard's cells (`--shard I/N`); nil: every cell.
    public var shard: ShardPlan?
    /// Every cell counts instructions under valgrind (`--instructions`), not only those of scenarios that ask.
    public var instructions = false
    /// How many cells run at once (`--jobs`), each in its own child processes. Above 1, every cell is marked
    /// ``Cell/measuredInParallel``: its counts are judged as usual, its timings are not (they were taken beside
    /// other cells' work).
    public var jobs = 1
    /// Whether each cell's steps are broken down per entity mapping and stage (``Cell/breakdown``); on by
    /// default, off with `run --no-breakdown`.
    public var breakdown = true

    /// Options for a quick or full run of every cell.
    public init(quick: Bool, sizes: [Int]? = nil) {
        self.quick = quick
        self.sizes = sizes
    }
}

/// How a child process running one repetition of a cell ended.
public enum CellLaunchOutcome: Sendable {
    /// It wrote its measurements.
    case finished(CellSample)
    /// It was killed by a signal or exited without measurements (a crash).
    case crashed(String)
    /// It reported an error (bad input, a failed migration).
    case failed(String)
}

/// What a run is doing, for a progress display.
public enum RunEvent: Sendable {
    /// Repetition `repetition` of cell number `index` (from 1) of `count` starts.
    case cellStarted(index: Int, count: Int, spec: CellSpec, repetition: Int, repetitions: Int)
    /// A cell is done.
    case cellFinished(index: Int, count: Int, cell: Cell)
}

/// Runs every cell of the scenarios, each repetition in a fresh child process, and builds the report.
public struct RunOrchestrator: Sendable {
    /// The scenarios to run.
    public let scenarios: [Scenario]
    /// Which cells and how often.
    public let options: RunOptions
    /// Runs one repetition of a cell in a child process; the executable provides it.
    /// With ``RunOptions/jobs`` above 1 it is called from that many threads at once.
    public var launch: @Sendable (CellSpec) -> CellLaunchOutcome

    /// An orchestrator for `scenarios`.
    public init(
        scenarios: [Scenario], options: RunOptions,
        launch: @escaping @Sendable (CellSpec) -> CellLaunchOutcome = { _ in .failed("no way to launch a cell") }
    ) {
        self.scenarios = scenarios
        self.options = options
        self.launch = launch
    }

    /// The cells of every scenario, in order.
    public func cells() -> [(scenario: Scenario, spec: CellSpec)] {
        scenarios.flatMap { scenario in
            let sizes = options.sizes ?? scenario.sizes(quick: options.quick)
            let modes = scenario.modes.all.filter { mode in
                (options.passes?.contains(mode.passes) ?? true) && (options.storage?.contains(mode.storage) ?? true)
                    && (options.paths?.contains(mode.path) ?? true)
            }
            return sizes.flatMap { size in
                modes.map { mode in
                    var spec = CellSpec(scenarioFile: scenario.file, scenario: scenario.name, size: size, mode: mode)
                    spec.countInstructions = options.instructions || scenario.instructions
                    spec.breakdown = options.breakdown
                    return (scenario, spec)
                }
            }
        }
    }

    /// Runs every cell (of the shard) and returns the report's cells, in the matrix's order; `event` is told as
    /// the run goes, one event at a time. With ``RunOptions/jobs`` above 1, that many cells run at once, each
    /// cell's repetitions one after the other, and every cell is marked ``Cell/measuredInParallel`` (unless
    /// there is only one cell).
    public func run(event: (RunEvent) -> Void = { _ in }) -> [Cell] {
        let all = selectedCells()
        let jobs = min(max(options.jobs, 1), max(all.count, 1))
        guard jobs > 1 else {
            return all.indices.map { index in runCell(index, of: all, parallel: false, event: event) }
        }
        // Workers take the next cell from a shared index; events go out one at a time under a lock, so that the
        // caller's display needs no locking of its own.
        let next = Mutex(0)
        let cells = Mutex([Cell?](repeating: nil, count: all.count))
        let events = Mutex(())
        withoutActuallyEscaping(event) { event in
            // The lock above serialises every call of `event`, which is all its use across threads needs.
            nonisolated(unsafe) let event = event
            DispatchQueue.concurrentPerform(iterations: jobs) { _ in
                while true {
                    let index = next.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    guard index < all.count else { return }
                    let cell = runCell(index, of: all, parallel: true) { happened in
                        events.withLock { _ in event(happened) }
                    }
                    cells.withLock { $0[index] = cell }
                }
            }
        }
        return cells.withLock { $0.compactMap { $0 } }
    }

    /// Runs the repetitions of cell `index` of `all` through ``launch`` and aggregates them; `parallel`: other
    /// cells run meanwhile.
    private func runCell(
        _ index: Int, of all: [(scenario: Scenario, spec: CellSpec, repetitions: [Int])], parallel: Bool,
        event: (RunEvent) -> Void
    ) -> Cell {
        let item = all[index]
        let repetitions = item.scenario.repetitions(quick: options.quick)
        var samples: [CellSample] = []
        var failure: (status: CellStatus, message: String)?
        for repetition in item.repetitions {
            var spec = item.spec
            spec.repetition = repetition
            event(
                .cellStarted(
                    index: index + 1, count: all.count, spec: spec, repetition: repetition,
                    repetitions: repetitions))
            switch launch(spec) {
            case .finished(let sample): samples.append(sample)
            case .crashed(let message): failure = (.crashed, message)
            case .failed(let message): failure = (.error, message)
            }
            if failure != nil { break }
        }
        var cell = CellAggregation.cell(item.spec, scenario: item.scenario, samples: samples, failure: failure)
        if parallel { cell.measuredInParallel = true }
        event(.cellFinished(index: index + 1, count: all.count, cell: cell))
        return cell
    }

    /// The report's summary of each scenario: its chain, the steps of its first path, and a `policyNotSimulated`
    /// warning for each entity mapping run with the base policy (`unboundPolicies: base`).
    public func summaries() -> [ScenarioSummary] {
        scenarios.map { scenario in
            let plans = (try? scenario.check()) ?? [:]
            let plan = plans[.chained] ?? plans.values.first
            let setup = try? ScenarioSetup(scenario: scenario)
            let findings = (setup?.unboundPolicies ?? []).map { $0.finding(among: setup?.mappingModels ?? []) }
            return ScenarioSummary(
                name: scenario.name, title: scenario.title,
                description: [scenario.description, scenario.shapeOrigin].compactMap { $0 }
                    .filter { !$0.isEmpty }.joined(separator: " "), file: scenario.file,
                chain: scenario.chain,
                steps: (plan?.steps ?? []).map { step in
                    ScenarioSummary.Step(
                        from: step.from, to: step.to, kind: step.kind.rawValue,
                        mapping: step.kind == .heavyweight ? step.mappingModels.first?.file.map(DisplayPath.of) : nil)
                }, findings: findings.isEmpty ? nil : findings)
        }
    }
}
