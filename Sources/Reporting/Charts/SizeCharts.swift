import ReportModel

/// A scenario's two charts against store size: median total wall time, and median total heap peak, with one
/// line per mode and both axes logarithmic.
struct SizeCharts {
    let cells: [Cell]

    /// The wall-time chart, then the heap chart.
    func views() -> [ChartView] {
        let measured = cells.filter(\.isMeasured)
        let sizes = measured.map { Double($0.size) }
        let xAxis = ChartAxis.logarithmic(covering: sizes, base: 10, format: Format.compactCount)
        let time = series(of: measured, format: { Format.seconds($0) }) { $0.total.wallSeconds }
        var timeChart = LineChart(
            title: "Wall time against store size", xTitle: "store size (objects)", xAxis: xAxis,
            yAxis: .logarithmic(covering: time.flatMap { $0.points.map(\.y) }, base: 10) {
                Format.seconds($0, trimmed: true)
            },
            series: time)
        timeChart.emptyMessage = "No cell of this scenario was measured."

        let heap = series(of: measured, format: { Format.bytes($0) }) { $0.total.heapPeakBytes }
        var heapChart = LineChart(
            title: "Peak heap against store size", xTitle: "store size (objects)", xAxis: xAxis,
            yAxis: .logarithmic(covering: heap.flatMap { $0.points.map(\.y) }, base: 2) {
                Format.bytes($0, trimmed: true)
            },
            series: heap)
        heapChart.emptyMessage =
            measured.isEmpty
            ? timeChart.emptyMessage : "Peak heap unavailable: jemalloc was not the allocator of any cell."
        let unavailable = measured.count { $0.total.heapPeakBytes == nil }
        if unavailable > 0, unavailable < measured.count {
            heapChart.note =
                "Peak heap unavailable for \(unavailable) of \(measured.count) cells "
                + "(jemalloc was not the allocator); they are left out."
        }
        return [timeChart.view(), heapChart.view()]
    }

    /// One series per mode, in the order modes first appear, of the metric's median at each size.
    private func series(
        of cells: [Cell], format: (Double) -> String, metric: (Cell) -> Statistic?
    ) -> [LineChart.Series] {
        var labels: [String] = []
        var points: [String: [LineChart.Point]] = [:]
        for cell in cells {
            let label = cell.mode.label
            if points[label] == nil {
                labels.append(label)
                points[label] = []
            }
            guard let statistic = metric(cell), statistic.median > 0 else { continue }
            let tooltip =
                "\(label), \(Format.count(cell.size)) objects: \(format(statistic.median)) "
                + "(\(statistic.rangeText(format)))"
            points[label, default: []].append(.init(x: Double(cell.size), y: statistic.median, tooltip: tooltip))
        }
        return labels.map { LineChart.Series(label: $0, points: points[$0] ?? []) }
    }
}
