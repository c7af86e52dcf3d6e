import ReportModel

extension HTMLPage {
    /// A cell's details: its phases, verification, budgets and memory over time.
    struct CellDetail {
        let id: String
        let anchor: String
        let title: String
        let status: String
        let statusTitle: String
        let open: Bool
        let time: String
        let timeRange: String
        let floor: String?
        let failure: String?
        let phases: [PhaseRow]
        /// "Where it went", one per step, when the run profiled the cell.
        let breakdown: [BreakdownView]
        let counts: Counts?
        let verification: VerificationDetail?
        let failedBudgets: [String]
        let memoryChart: ChartView?
    }

    /// One row of a cell's phase table.
    struct PhaseRow {
        let name: String
        let nested: Bool
        let isTotal: Bool
        let wall: String
        let wallRange: String
        let user: String
        let system: String
        let heapPeak: String
        let heapUnavailable: Bool
        let residentPeak: String
        let read: String
        let written: String
        let sqliteMemory: String
        let objects: String
        let edges: String
    }

    /// The deterministic counts of a cell's phases (``MetricDefinition/counts``), and why any is unavailable.
    struct Counts {
        /// One phase's counts, in the order of ``Counts/titles``.
        struct Row {
            let name: String
            let nested: Bool
            let isTotal: Bool
            let values: [String]
        }

        let titles: [String]
        let rows: [Row]
        /// `instructions: unavailable (the kernel gives no …)`, one per count.
        let unavailable: [String]
        /// How the counts were taken.
        let methods: String
    }

    /// What the verifier found in one cell.
    struct VerificationDetail {
        let passed: Bool
        let summary: String
        let violations: [ViolationRow]
        let notChecked: [String]
    }

    /// One group of violations.
    struct ViolationRow {
        let kind: String
        let location: String
        let count: String
        let examples: [String]
    }
}

extension HTMLPage.CellDetail {
    init(_ cell: Cell, open: Bool) {
        id = cell.id
        anchor = cell.anchor
        title = cell.title
        status = cell.status.rawValue
        statusTitle = cell.status.title
        self.open = open
        time = cell.totalTimeText
        timeRange = cell.totalTimeRangeText
        floor = cell.floor.flatMap { floor in
            guard cell.isMeasured else { return nil }
            return
                "\(Format.ratio(floor.ratio)) the floor: \(floor.description), \(Format.seconds(floor.seconds.median))"
        }
        failure = cell.failure
        phases =
            cell.isMeasured ? (cell.phases.map { .init($0, isTotal: false) } + [.init(cell.total, isTotal: true)]) : []
        breakdown = cell.isMeasured ? (cell.breakdown ?? []).map(HTMLPage.BreakdownView.init) : []
        counts = cell.isMeasured ? HTMLPage.Counts(cell) : nil
        verification = cell.verification.map(HTMLPage.VerificationDetail.init)
        failedBudgets = cell.failedBudgets.map(\.summary)
        memoryChart = cell.isMeasured && !cell.memorySeries.isEmpty ? MemoryChart(cell.memorySeries).view() : nil
    }
}

extension HTMLPage.PhaseRow {
    init(_ phase: Phase, isTotal: Bool) {
        name = isTotal ? "Total" : phase.name
        nested = phase.group != nil && !isTotal
        self.isTotal = isTotal
        wall = Format.seconds(phase.wallSeconds.median)
        wallRange = phase.wallSeconds.rangeText { Format.seconds($0) }
        user = Format.seconds(phase.userSeconds.median)
        system = Format.seconds(phase.systemSeconds.median)
        heapPeak = Format.bytes(phase.heapPeakBytes?.median)
        heapUnavailable = phase.heapPeakBytes == nil
        residentPeak = Format.bytes(phase.peakResidentBytes.median)
        read = Format.bytes(phase.bytesRead.median)
        written = Format.bytes(phase.bytesWritten.median)
        sqliteMemory = Format.bytes(phase.sqliteMemoryHighWaterBytes.median)
        objects = Format.count(phase.objects)
        edges = Format.count(phase.edges)
    }
}

extension HTMLPage.Counts {
    init?(_ cell: Cell) {
        let metrics = MetricDefinition.counts.filter { metric in
            cell.total.counts?[metric.key] != nil || metric.key == MetricDefinition.bytesWritten.key
        }
        titles = metrics.map(\.title)
        let row = { (phase: Phase, isTotal: Bool) in
            Row(
                name: isTotal ? "Total" : phase.name, nested: phase.group != nil && !isTotal, isTotal: isTotal,
                values: metrics.map { metric in
                    metric.value(in: phase).map { Format.value($0.median, unit: metric.unit.rawValue) } ?? "—"
                })
        }
        rows = cell.phases.map { row($0, false) } + [row(cell.total, true)]
        unavailable = (cell.unavailable ?? [:]).sorted { $0.key < $1.key }.map { key, reason in
            "\(MetricDefinition.named(key)?.title ?? key): \(Format.unavailable) (\(reason))"
        }
        methods = (cell.countingMethods ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            .joined(separator: "; ")
    }
}

extension HTMLPage.VerificationDetail {
    init(_ verification: Verification) {
        passed = verification.isAsExpected
        let expected = verification.passed ? "" : verification.isAsExpected ? ", as the scenario expects" : ""
        summary =
            verification.passed
            ? "Verified: \(Format.count(verification.checked)) objects and edges checked, no violation."
            : "\(Format.count(verification.violationCount)) violations in \(Format.count(verification.checked)) "
                + "objects and edges checked\(expected)."
        violations = verification.violations.map {
            HTMLPage.ViolationRow(
                kind: $0.kind, location: $0.location, count: Format.count($0.count), examples: $0.examples)
        }
        notChecked = verification.notChecked
    }
}
