/// One run as a history folder keeps it (`run --history <dir>`, `check --history <dir>`): when, on what, and
/// each cell's key figures and verdicts, small enough to keep hundreds of runs in a CI cache or a repository.
public struct HistoryEntry: Sendable, Hashable, Codable {
    /// One cell's figures in the run.
    public struct CellFigures: Sendable, Hashable, Codable {
        /// The ``Cell/id``.
        public var id: String
        /// The cell's status in the run.
        public var status: CellStatus
        /// The median of each metric of the cell's total, keyed by ``MetricDefinition/key``.
        public var metrics: [String: Double]
        /// The metrics that regressed against the run's baseline.
        public var regressed: [String]

        /// Creates a cell's figures.
        public init(id: String, status: CellStatus, metrics: [String: Double], regressed: [String]) {
            self.id = id
            self.status = status
            self.metrics = metrics
            self.regressed = regressed
        }
    }

    /// The run's identifier.
    public var runID: String
    /// When the run started.
    public var startedAt: String
    /// The git commit measured, when known.
    public var commit: String?
    /// The machine and the software: what decides whether counts and timings compare.
    public var environment: Environment
    /// The run's exit code.
    public var exitCode: Int
    /// Every measured cell.
    public var cells: [CellFigures]

    /// The entry of `report`.
    public init(_ report: Report) {
        runID = report.runID
        startedAt = report.startedAt
        commit = report.environment.gitCommit
        environment = report.environment
        exitCode = report.verdict.exitCode
        let regressed = Dictionary(grouping: report.baseline?.regressions ?? [], by: \.cell)
        cells = report.cells.filter(\.isMeasured).map { cell in
            var metrics: [String: Double] = [:]
            for metric in MetricDefinition.all {
                if let value = metric.value(of: cell) { metrics[metric.key] = value.median }
            }
            return CellFigures(
                id: cell.id, status: cell.status, metrics: metrics,
                regressed: (regressed[cell.id] ?? []).map(\.metric))
        }
    }
}
