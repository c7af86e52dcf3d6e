import Foundation

/// A line chart with one line per series, drawn as inline SVG by the HTML template's `chart` partial.
///
/// The chart computes geometry only: every label and tooltip stays plain text in ``ChartView`` and is escaped
/// by the template, like all other text of the page.
struct LineChart {
    /// One line: a label for the legend and its points.
    struct Series {
        let label: String
        var points: [Point]
    }

    /// One point, with the text shown when the pointer rests on it.
    struct Point {
        let x: Double
        let y: Double
        let tooltip: String
    }

    let title: String
    let xTitle: String
    let xAxis: ChartAxis
    let yAxis: ChartAxis
    let series: [Series]
    /// A remark under the chart, such as which figures were unavailable.
    var note: String?
    /// What to show instead of the chart when no series has a point.
    var emptyMessage = "Nothing was measured."

    /// The chart laid out for the template.
    func view() -> ChartView {
        let frame = ChartFrame()
        // Styles follow the series' places in ``series``, so that a mode keeps its color in every chart.
        let drawn = series.enumerated().filter { !$0.element.points.isEmpty }
        return ChartView(
            title: title, note: note, empty: drawn.isEmpty ? emptyMessage : nil, width: frame.width,
            height: frame.height, plotLeft: frame.left.coordinate, plotRight: frame.right.coordinate,
            plotTop: frame.top.coordinate, plotBottom: frame.bottom.coordinate,
            xLabelY: (frame.bottom + 16).coordinate, yLabelX: (frame.left - 8).coordinate,
            xTitle: xTitle, xTitleX: ((frame.left + frame.right) / 2).coordinate,
            xTitleY: (frame.bottom + 36).coordinate,
            xTicks: xAxis.ticks.map {
                .init(position: frame.x(xAxis.fraction($0)).coordinate, label: xAxis.format($0))
            },
            yTicks: yAxis.ticks.map {
                .init(position: frame.y(yAxis.fraction($0)).coordinate, label: yAxis.format($0))
            },
            series: drawn.map { index, series in view(of: series, style: SeriesStyle(index), in: frame) })
    }

    private func view(of series: Series, style: SeriesStyle, in frame: ChartFrame) -> ChartView.Series {
        let positions = series.points.sorted { $0.x < $1.x }.map { point in
            (x: frame.x(xAxis.fraction(point.x)), y: frame.y(yAxis.fraction(point.y)), tooltip: point.tooltip)
        }
        let path = positions.enumerated().map { index, position in
            "\(index == 0 ? "M" : "L")\(position.x.coordinate) \(position.y.coordinate)"
        }
        let showsMarkers = positions.count <= 40
        return ChartView.Series(
            label: series.label, color: style.color, dash: style.dash, path: path.joined(separator: " "),
            legendMarker: style.marker(x: 14, y: 6),
            points: showsMarkers
                ? positions.map { .init(marker: style.marker(x: $0.x, y: $0.y), tooltip: $0.tooltip) } : [])
    }
}

/// Where the plot area lies inside the SVG, in SVG units.
private struct ChartFrame {
    let width = 560
    let height = 300
    let left = 72.0
    let right = 544.0
    let top = 14.0
    let bottom = 250.0
    /// Space kept between the axes and the outermost points, so that markers do not sit on an axis.
    let inset = 10.0

    func x(_ fraction: Double) -> Double { left + inset + fraction * (right - left - 2 * inset) }
    func y(_ fraction: Double) -> Double { bottom - inset - fraction * (bottom - top - 2 * inset) }
}

/// The color, dash pattern and marker shape of the series at one index; each differs, so that lines are told
/// apart without color too. The colors are the Okabe–Ito palette, readable with every common color blindness.
private struct SeriesStyle {
    private static let colors = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]
    private static let dashes = ["", "7 4", "2 3", "9 3 2 3"]

    let index: Int

    init(_ index: Int) { self.index = index }

    var color: String { Self.colors[index % Self.colors.count] }
    var dash: String { Self.dashes[index % Self.dashes.count] }

    /// An SVG path drawing the marker centred at (x, y): a circle, square, diamond or triangle.
    func marker(x: Double, y: Double) -> String {
        let (cx, cy) = (x.coordinate, y.coordinate)
        switch index % 4 {
        case 0: return "M\((x - 4).coordinate) \(cy) a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0 Z"
        case 1: return "M\((x - 3.5).coordinate) \((y - 3.5).coordinate) h7 v7 h-7 Z"
        case 2: return "M\(cx) \((y - 5).coordinate) l5 5 l-5 5 l-5 -5 Z"
        default: return "M\(cx) \((y - 5).coordinate) l5 8.5 h-10 Z"
        }
    }
}

extension Double {
    /// An SVG coordinate: one decimal, and never a locale's comma.
    fileprivate var coordinate: String { String(format: "%.1f", self) }
}
