/// A chart as the HTML template's `chart` partial draws it: positions as SVG numbers, labels as plain text.
struct ChartView {
    /// A tick on an axis: its position along the axis and its label.
    struct Tick {
        let position: String
        let label: String
    }

    /// A line, its legend entry, and the markers of its points.
    struct Series {
        let label: String
        let color: String
        let dash: String
        let path: String
        let legendMarker: String
        let points: [Marker]
    }

    /// The marker of one point and its tooltip.
    struct Marker {
        let marker: String
        let tooltip: String
    }

    let title: String
    let note: String?
    /// Shown instead of the chart when there is nothing to draw.
    let empty: String?
    let width: Int
    let height: Int
    let plotLeft: String
    let plotRight: String
    let plotTop: String
    let plotBottom: String
    let xLabelY: String
    let yLabelX: String
    let xTitle: String
    let xTitleX: String
    let xTitleY: String
    let xTicks: [Tick]
    let yTicks: [Tick]
    let series: [Series]
}
