import ReportModel

/// One cell's key metrics over the last runs of its history, each as a percentage of its figure in the first
/// run charted, so that counts, times and bytes share an axis; a run where a metric regressed says so in its
/// tooltip and in the note under the chart.
struct TrendChart {
    /// The metrics charted, when measured: the counts CI judges, then the floor ratio.
    static let metrics: [MetricDefinition] = [
        .instructions, .allocations, .allocatedBytes, .sqliteSteps, .sqlitePagesWritten, .floorRatio,
    ]

    let cell: String
    let history: [HistoryEntry]

    func view() -> ChartView {
        let runs = history.enumerated().compactMap { index, entry in
            entry.cells.first { $0.id == cell }.map { (index + 1, entry, $0) }
        }
        var regressions: [String] = []
        let series = Self.metrics.map { metric in
            let values = runs.compactMap { run, entry, figures in
                figures.metrics[metric.key].map { (run, entry, figures, $0) }
            }
            let first = values.first?.3 ?? 0
            return LineChart.Series(
                label: metric.title,
                points: first == 0
                    ? []
                    : values.map { run, entry, figures, value in
                        let regressed = figures.regressed.contains(metric.key)
                        if regressed { regressions.append("\(metric.title) in run \(run) (\(entry.runID))") }
                        let commit = entry.commit.map { " at \($0.prefix(10))" } ?? ""
                        return .init(
                            x: Double(run), y: value / first * 100,
                            tooltip: "run \(run) \(entry.runID)\(commit): \(metric.title) "
                                + Format.value(value, unit: metric.unit.rawValue)
                                + (regressed ? " — REGRESSED against its baseline" : ""))
                    })
        }
        let highest = series.flatMap(\.points).map(\.y).max() ?? 100
        var chart = LineChart(
            title: "Last \(Format.counted(runs.count, "run")): \(cell)", xTitle: "run (oldest first)",
            xAxis: .linear(covering: [Double(max(runs.count, 1))], unit: 1) { Format.significant($0, trimmed: true) },
            yAxis: .linear(covering: [highest], unit: 10) { Format.significant($0, trimmed: true) + "%" },
            series: series)
        chart.note =
            "Each metric as a percentage of its figure in the first run charted. "
            + (regressions.isEmpty
                ? "No regression in these runs." : "Regressed: " + regressions.joined(separator: "; ") + ".")
        chart.emptyMessage = "No run of this cell in the history."
        return chart.view()
    }
}
