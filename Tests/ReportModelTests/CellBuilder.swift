import ReportModel

/// Small cells for the model's tests: only what a test sets differs from a quiet, passing cell.
enum CellBuilder {
    static let mode = Mode(passes: "single", storage: "streaming", path: "direct")

    /// A phase whose wall times are `wall` and whose heap peaks are `heap`, if any.
    static func phase(wall: [Double], heap: [Double]? = nil, counts: [String: [Double]]? = nil) -> Phase {
        let zero = Statistic(samples: [0])
        var phase = Phase(
            name: "total", group: nil, wallSeconds: Statistic(samples: wall), userSeconds: zero,
            systemSeconds: zero, heapAllocatedBytes: heap.map { Statistic(samples: $0) },
            heapPeakBytes: heap.map { Statistic(samples: $0) }, residentBytes: zero, peakResidentBytes: zero,
            bytesRead: zero, bytesWritten: zero, sqliteMemoryHighWaterBytes: zero, objects: 0, edges: 0)
        phase.counts = counts?.mapValues { Statistic(samples: $0) }
        return phase
    }

    static func cell(
        _ id: String, status: CellStatus = .passed, wall: [Double] = [1], heap: [Double]? = nil,
        floorRatio: Double? = nil, floorRatios: [Double]? = nil, verification: Verification? = nil,
        budgets: [BudgetResult] = [], counts: [String: [Double]]? = nil, method: String = "test counter",
        thresholds: [String: Double]? = nil, unavailable: [String: String]? = nil
    ) -> Cell {
        let total = phase(wall: wall, heap: heap, counts: counts)
        let floor = (floorRatio ?? floorRatios.map { Statistic(samples: $0).median }).map {
            Floor(
                description: "INSERT … SELECT", seconds: Statistic(samples: [1]), ratio: $0,
                ratios: floorRatios.map { Statistic(samples: $0) })
        }
        let methods = Dictionary(uniqueKeysWithValues: MetricDefinition.counts.map { ($0.key, method) })
        return Cell(
            id: id, scenario: "library", size: 1000, mode: mode, repetitions: wall.count, status: status,
            failure: nil, objects: 1000, edges: 2000, phases: [total], total: total, floor: floor,
            verification: verification, budgets: budgets, memorySeries: [], unavailable: unavailable,
            countingMethods: methods, countThresholds: thresholds)
    }

    static let environment = Environment(
        os: "Linux", kernel: "6.8", cpu: "test CPU", cpuCount: 2, memoryBytes: 1 << 30, swiftVersion: "6.3.1",
        sqliteVersion: "3.46.1", jemallocVersion: nil, gitCommit: nil, buildConfiguration: "debug",
        hostname: "test", architecture: "x86_64")

    static func report(_ cells: [Cell], runID: String = "run", environment: Environment = environment) -> Report {
        return Report(
            runID: runID, startedAt: "2026-11-22T10:00:00Z", durationSeconds: 1, command: ["migration-bench"],
            environment: environment, scenarios: [], cells: cells, baseline: nil,
            verdict: .decide(cells: cells, baseline: nil))
    }

    static let failedBudget = BudgetResult(
        name: "peak heap", metric: "heapPeakBytes", phase: nil, limit: 64, measured: 80, unit: "bytes", passed: false)
    static let failedVerification = Verification(
        passed: false, checked: 10,
        violations: [.init(kind: "missing-edge", entity: "Book", property: "tags", count: 1, examples: ["Z_PK 3"])],
        notChecked: [])
}
