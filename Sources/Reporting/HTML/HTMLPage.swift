import ReportModel

/// Everything the HTML template shows, as plain text and flags: the report laid out for ``HTMLTemplate``.
///
/// Every string here is unescaped text; the template escapes each one as it writes it.
struct HTMLPage {
    /// The banner at the top.
    struct VerdictBanner {
        let passed: Bool
        let headline: String
        let exitCode: Int
        let counts: [Count]
    }

    /// One figure of the banner, such as `1 integrity failure`.
    struct Count {
        let value: String
        let label: String
        let tone: String
    }

    /// One row of the verdict table.
    struct CellRow {
        let anchor: String
        let scenario: String
        let size: String
        let mode: String
        let status: String
        let statusTitle: String
        let time: String
        let timeRange: String
        let floorRatio: String
        let peakHeap: String
        let heapUnavailable: Bool
        let verification: String
        let verificationFailed: Bool
    }

    /// One row of the steps table.
    struct StepRow {
        let scenario: String
        let from: String
        let to: String
        let kind: String
        let mapping: String
    }

    /// One scenario: its description, its charts and its cells.
    struct Scenario {
        let name: String
        let title: String
        let description: String
        let file: String
        let chain: String
        /// What the scenario's files raise before it runs, such as `policyNotSimulated` warnings.
        let findings: [Check.FindingRow]
        let charts: [ChartView]
        let cells: [CellDetail]
    }

    /// A name and a value of the environment table.
    struct Entry {
        let name: String
        let value: String
    }

    let runID: String
    let startedAt: String
    let duration: String
    let command: String
    let schemaVersion: Int
    let verdict: VerdictBanner
    let check: Check?
    let cells: [CellRow]
    let steps: [StepRow]
    let budgets: Budgets
    let baseline: Baseline?
    /// Each cell's trend over the history's runs (`--history`), when there are at least two.
    let trends: [ChartView]
    let scenarios: [Scenario]
    let environment: [Entry]
}

extension HTMLPage {
    /// Lays out `report`.
    init(_ report: Report) {
        runID = report.runID
        startedAt = report.startedAt
        duration = Format.seconds(report.durationSeconds)
        command = report.command.joined(separator: " ")
        schemaVersion = report.schemaVersion
        verdict = VerdictBanner(report.verdict)
        check = report.check.map(Check.init)
        cells = report.cells.map(CellRow.init)
        steps = report.scenarios.flatMap { scenario in
            scenario.steps.map {
                StepRow(
                    scenario: scenario.name, from: $0.from, to: $0.to, kind: $0.kind,
                    mapping: $0.mapping ?? "inferred")
            }
        }
        budgets = Budgets(report.cells)
        baseline = report.baseline.map(Baseline.init)
        let history = report.history ?? []
        trends =
            history.count < 2 ? [] : report.cells.map { TrendChart(cell: $0.id, history: history).view() }
        scenarios = report.scenarioGroups.map { Scenario($0.summary, cells: $0.cells) }
        environment =
            Entry.all(report.environment)
            + (report.shardEntries + report.parallelEntries).map { Entry(name: $0.name, value: $0.value) }
    }
}

extension HTMLPage.VerdictBanner {
    init(_ verdict: Verdict) {
        passed = verdict.passed
        headline = verdict.passed ? "Passed" : "Failed"
        exitCode = verdict.exitCode
        let figures: [(Int, String, String?, String)] = [
            (verdict.cells, "cell", nil, "neutral"), (verdict.passedCells, "passed", "passed", "good"),
            (verdict.integrityFailures, "integrity failure", nil, "bad"),
            (verdict.crashed, "crashed or error", "crashed or errors", "bad"),
            (verdict.budgetFailures, "budget failure", nil, "warn"), (verdict.regressions, "regression", nil, "warn"),
        ]
        let findings: [(Int, String, String?, String)] =
            verdict.errorFindings.map { [($0, "error finding", nil, "bad")] } ?? []
        counts = (findings + figures).map { value, singular, plural, tone in
            HTMLPage.Count(
                value: Format.count(value), label: Format.noun(value, singular, plural),
                tone: value == 0 && tone != "good" ? "neutral" : tone)
        }
    }
}

extension HTMLPage.CellRow {
    init(_ cell: Cell) {
        anchor = cell.anchor
        scenario = cell.scenario
        size = Format.count(cell.size)
        mode = cell.mode.label
        status = cell.status.rawValue
        statusTitle = cell.status.title
        time = cell.totalTimeText
        timeRange = cell.totalTimeRangeText
        floorRatio = cell.floorRatioText
        peakHeap = cell.peakHeapText
        heapUnavailable = cell.isMeasured && cell.total.heapPeakBytes == nil
        verification = cell.verificationText
        verificationFailed = cell.verification?.isAsExpected == false
    }
}

extension HTMLPage.Scenario {
    init(_ summary: ScenarioSummary, cells: [Cell]) {
        name = summary.name
        title = summary.title
        description = summary.description
        file = summary.file
        chain = summary.chain.joined(separator: " → ")
        findings = (summary.findings ?? []).map(HTMLPage.Check.FindingRow.init)
        charts = SizeCharts(cells: cells).views()
        let largest = cells.map(\.size).max()
        self.cells = cells.map { HTMLPage.CellDetail($0, open: $0.status != .passed || $0.size == largest) }
    }
}

extension HTMLPage.Entry {
    static func all(_ environment: Environment) -> [HTMLPage.Entry] {
        [
            .init(name: "Operating system", value: environment.os),
            .init(name: "Kernel", value: environment.kernel),
            .init(name: "CPU", value: "\(environment.cpu) (\(environment.cpuCount) logical)"),
            .init(name: "Memory", value: Format.bytes(Double(environment.memoryBytes))),
            .init(name: "Swift", value: environment.swiftVersion),
            .init(name: "SQLite", value: environment.sqliteVersion),
            .init(
                name: "jemalloc",
                value: environment.jemallocVersion ?? "unavailable: not the allocator, so heap figures are unavailable"),
            .init(name: "Git commit", value: environment.gitCommit ?? "unknown"),
            .init(name: "Build configuration", value: environment.buildConfiguration),
            .init(name: "Host name", value: environment.hostname),
        ]
    }
}

extension Cell {
    /// The HTML `id` of the cell's details.
    var anchor: String { "cell-" + id.map { $0.isWhitespace ? "-" : String($0) }.joined() }
}
