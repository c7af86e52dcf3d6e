import ReportModel

extension HTMLPage {
    /// Every budget of the run: the exceeded ones in view, all of them folded away.
    struct Budgets {
        /// A table of budgets.
        struct Table {
            let rows: [Row]
        }

        /// One budget of one cell.
        struct Row {
            let cell: String
            let anchor: String
            let name: String
            let phase: String
            let limit: String
            let measured: String
            let passed: Bool
        }

        let summary: String
        let exceeded: Table?
        let all: Table?
    }

    /// The baseline comparison: one row per cell, with its three metrics side by side.
    struct Baseline {
        /// One cell's comparison.
        struct Row {
            let cell: String
            let wall: Metric?
            let heap: Metric?
            let floor: Metric?
            /// `new` or `missing` for a cell that only one report has.
            let unmatched: String?
            let unmatchedNote: String
        }

        /// One metric: both figures, the change, and the verdict.
        struct Metric {
            let values: String
            let change: String
            let verdict: String
        }

        let file: String
        let runID: String
        let thresholds: String
        let rows: [Row]
    }
}

extension HTMLPage.Budgets {
    init(_ cells: [Cell]) {
        let rows = cells.flatMap { cell in
            cell.budgets.map {
                Row(
                    cell: cell.id, anchor: cell.anchor, name: $0.name, phase: $0.phaseText, limit: $0.limitText,
                    measured: $0.measuredText, passed: $0.passed)
            }
        }
        let exceeded = rows.filter { !$0.passed }
        summary =
            rows.isEmpty
            ? "No budget applies to these cells."
            : "\(Format.counted(rows.count, "budget")): \(Format.count(exceeded.count)) exceeded, "
                + "\(Format.count(rows.count - exceeded.count)) held."
        self.exceeded = exceeded.isEmpty ? nil : Table(rows: exceeded)
        all = rows.isEmpty ? nil : Table(rows: rows)
    }
}

extension HTMLPage.Baseline {
    init(_ comparison: BaselineComparison) {
        file = comparison.baselineFile
        runID = comparison.baselineRunID
        let limits = comparison.thresholds
        thresholds =
            "A metric regresses when its median is worse by more than \(Format.percent(limits.relative)) and "
            + "\(Format.seconds(limits.absoluteSeconds)) (time) or \(Format.percent(limits.memoryRelative)) and "
            + "\(Format.bytes(limits.absoluteBytes)) (memory), and the ranges of the repetitions do not overlap; "
            + "floor ratios use the relative threshold alone. Regressed cells come first."
        var cells: [String] = []
        let entries = Dictionary(grouping: comparison.entries, by: \.cell)
        for entry in comparison.entries where !cells.contains(entry.cell) { cells.append(entry.cell) }
        let rows = cells.map { Row(entries[$0] ?? [], cell: $0) }
        let regressed = Set(comparison.regressions.map(\.cell))
        self.rows = rows.filter { regressed.contains($0.cell) } + rows.filter { !regressed.contains($0.cell) }
    }
}

extension HTMLPage.Baseline.Row {
    init(_ entries: [ComparisonEntry], cell: String) {
        self.cell = cell
        let metric = { (name: String) -> HTMLPage.Baseline.Metric? in
            guard let entry = entries.first(where: { $0.metric == name }), entry.baseline != nil, entry.current != nil
            else { return nil }
            return .init(
                values: "\(entry.baselineText) → \(entry.currentText)", change: entry.changeText,
                verdict: entry.verdict.rawValue)
        }
        wall = metric(ComparisonEntry.wallSeconds)
        heap = metric(ComparisonEntry.heapPeakBytes)
        floor = metric(ComparisonEntry.floorRatio)
        let verdict = entries.first?.verdict
        unmatched = verdict == .new || verdict == .missing ? verdict?.rawValue : nil
        unmatchedNote = verdict == .new ? "not in the baseline" : "not measured in this run"
    }
}
