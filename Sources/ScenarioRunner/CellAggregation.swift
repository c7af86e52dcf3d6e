import MigrationEngine
import ReportModel

/// Turns the samples of a cell's repetitions into the report's cell: statistics per phase and metric, the
/// floor and its ratio, the verification, the budgets and the status.
enum CellAggregation {
    static let floorDescription =
        "every row of each step's source copied with INSERT … SELECT into an empty copy of its schema, in the same "
        + "process, then made durable as the step's store is (the copy synced, then its folder)"

    static func cell(
        _ spec: CellSpec, scenario: Scenario, samples: [CellSample], failure: (status: CellStatus, message: String)?
    ) -> Cell {
        let mode = Mode(
            passes: spec.mode.passes.rawValue, storage: spec.mode.storage.rawValue, path: spec.mode.path.rawValue)
        guard !samples.isEmpty, failure == nil else {
            return Cell(
                id: spec.id, scenario: spec.scenario, size: spec.size, mode: mode, repetitions: samples.count,
                status: failure?.status ?? .error, failure: failure?.message ?? "no repetition finished",
                objects: samples.first?.objects ?? 0, edges: samples.first?.edges ?? 0, phases: [],
                total: samples.isEmpty ? unmeasured : phase(samples.map(\.total)), floor: nil, verification: nil,
                budgets: [], memorySeries: [])
        }
        var cell = Cell.combining(samples.map { one($0, spec: spec, mode: mode, scenario: scenario) })
        cell.breakdown = breakdown(samples, phases: cell.phases)
        return cell
    }

    /// The cell of one repetition; a cell of several is their ``Cell/combining(_:)``.
    private static func one(_ sample: CellSample, spec: CellSpec, mode: Mode, scenario: Scenario) -> Cell {
        let total = phase([sample.total])
        let ratio = sample.floorSeconds > 0 ? sample.total.wallSeconds / sample.floorSeconds : 0
        let floor = Floor(
            description: floorDescription, seconds: Statistic(samples: [sample.floorSeconds]), ratio: ratio,
            ratios: sample.floorSeconds > 0 ? Statistic(samples: [ratio]) : nil)
        let verified = sample.verification
        let verification = Verification(
            passed: verified.passed, checked: verified.checked,
            violations: verified.violations.map {
                Verification.ViolationGroup(
                    kind: $0.kind, entity: $0.entity, property: $0.property, count: $0.count, examples: $0.examples)
            },
            notChecked: verified.notChecked, violationsExpected: scenario.integrity == .violations ? true : nil)
        // Judged by Cell.combining, over all repetitions.
        let budgets = scenario.budgets.filter { $0.condition.selects(spec.mode, size: spec.size) }.map {
            BudgetResult(
                name: $0.name, metric: $0.metric.key, phase: "migration", limit: $0.max, measured: nil,
                unit: $0.metric.unit.rawValue, passed: false)
        }
        let expected = verification.isAsExpected
        let integrityNote =
            expected
            ? nil
            : scenario.integrity == .clean
                ? "the verifier found \(verification.violationCount) violation(s)"
                : "the scenario expects violations (data Core Data would lose), and the verifier found none"
        var cell = Cell(
            id: spec.id, scenario: spec.scenario, size: spec.size, mode: mode, repetitions: 1,
            status: expected ? .passed : .integrityFailure, failure: integrityNote, objects: sample.objects,
            edges: sample.edges, phases: sample.phases.map { phase([$0]) }, total: total, floor: floor,
            verification: verification, budgets: budgets,
            memorySeries: sample.memorySeries.map {
                MemorySample(
                    seconds: $0.seconds, heapBytes: $0.heapBytes.map(Double.init),
                    residentBytes: Double($0.residentBytes))
            },
            unavailable: sample.unavailable, countingMethods: sample.countingMethods,
            countThresholds: scenario.countThresholds.isEmpty ? nil : scenario.countThresholds)
        cell.timedUnderValgrind = sample.underValgrind
        return cell
    }

    /// The total of a cell that did not run to the end: no samples (reports show the cell's status instead).
    static let unmeasured: Phase = {
        let none = Statistic(median: 0, min: 0, max: 0, samples: [])
        return Phase(
            name: "migration", group: nil, wallSeconds: none, userSeconds: none, systemSeconds: none,
            heapAllocatedBytes: nil, heapPeakBytes: nil, residentBytes: none, peakResidentBytes: none, bytesRead: none,
            bytesWritten: none, sqliteMemoryHighWaterBytes: none, objects: 0, edges: 0)
    }()

    /// One phase over repetitions: a statistic per metric.
    static func phase(_ samples: [PhaseSample]) -> Phase {
        func statistic(_ value: (PhaseSample) -> Double) -> Statistic { Statistic(samples: samples.map(value)) }
        let heapAvailable = !samples.isEmpty && samples.allSatisfy { $0.heapPeakBytes != nil }
        return Phase(
            name: samples.first?.name ?? "", group: samples.first?.group,
            wallSeconds: statistic(\.wallSeconds), userSeconds: statistic(\.userSeconds),
            systemSeconds: statistic(\.systemSeconds),
            heapAllocatedBytes: heapAvailable ? statistic { Double($0.heapAllocatedBytes ?? 0) } : nil,
            heapPeakBytes: heapAvailable ? statistic { Double($0.heapPeakBytes ?? 0) } : nil,
            residentBytes: statistic { Double($0.residentBytes) },
            peakResidentBytes: statistic { Double($0.peakResidentBytes) },
            bytesRead: statistic { Double($0.bytesRead) }, bytesWritten: statistic { Double($0.bytesWritten) },
            sqliteMemoryHighWaterBytes: statistic { Double($0.sqliteMemoryHighWaterBytes) },
            counts: counts(samples), objects: samples.first?.objects ?? 0, edges: samples.first?.edges ?? 0)
    }

    /// The counts every repetition measured, one statistic each.
    private static func counts(_ samples: [PhaseSample]) -> [String: Statistic]? {
        guard let first = samples.first else { return nil }
        var counts: [String: Statistic] = [:]
        for key in first.counts.keys where samples.allSatisfy({ $0.counts[key] != nil }) {
            counts[key] = Statistic(samples: samples.map { Double($0.counts[key] ?? 0) })
        }
        return counts
    }
}
