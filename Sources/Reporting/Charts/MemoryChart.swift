import ReportModel

/// Heap and resident memory against time during one migration, on linear axes.
struct MemoryChart {
    let samples: [MemorySample]

    init(_ samples: [MemorySample]) { self.samples = samples }

    func view() -> ChartView {
        let heap = samples.compactMap { sample in sample.heapBytes.map { (sample.seconds, $0) } }
        let resident = samples.map { ($0.seconds, $0.residentBytes) }
        let highest = (heap + resident).map(\.1).max() ?? 0
        var chart = LineChart(
            title: "Memory over time", xTitle: "seconds since the migration started",
            xAxis: .linear(covering: samples.map(\.seconds), unit: 1) { Format.seconds($0, trimmed: true) },
            yAxis: .linear(covering: [highest], unit: ChartAxis.binaryUnit(for: highest)) {
                Format.bytes($0, trimmed: true)
            },
            series: [series("heap (jemalloc)", heap), series("resident (RSS)", resident)])
        if heap.isEmpty {
            chart.note = "Heap unavailable: jemalloc was not the allocator; resident memory only."
        }
        return chart.view()
    }

    private func series(_ label: String, _ values: [(Double, Double)]) -> LineChart.Series {
        LineChart.Series(
            label: label,
            points: values.map { seconds, bytes in
                .init(
                    x: seconds, y: bytes,
                    tooltip: "\(label) at \(Format.seconds(seconds)): \(Format.bytes(bytes))")
            })
    }
}
