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
        /// One judged metric of one cell, or a cell that only one report has.
        struct Row {
            let cell: String
            let metric: String
            let values: String
            let change: String
            /// The count's difference or the timing's interval.
            let evidence: String
            /// The verdict's raw value, for the chip's class.
            let verdict: String
            let verdictText: String
            let rule: String
        }

        let file: String
        let runID: String
        let thresholds: String
        /// How many entries ended in each verdict, such as `3 regressed, 120 unchanged, 19 not judged`.
        let tally: String
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
            "Counts regress past +\(Format.percent(limits.count)) (or the scenario's own threshold), and only "
            + "against a baseline of the same architecture, SQLite, compiler, build and counting method. Timings "
            + "regress only when the Mann–Whitney test puts the whole \(Format.percent(1 - 2 * limits.alpha)) "
            + "interval of the change above zero and the estimated change is above "
            + "+\(Format.percent(limits.minimumEffect)), on the same machine; with too few repetitions they are "
            + "not judged. Memory peaks regress past +\(Format.percent(limits.memoryRelative)) and "
            + "\(Format.bytes(limits.absoluteBytes)). Regressions come first."
        let order: [ComparisonVerdict] = [
            .regressed, .notComparable, .improved, .new, .missing, .unchanged, .notJudged,
        ]
        let sorted = comparison.entries.enumerated().sorted { lhs, rhs in
            let left = order.firstIndex(of: lhs.element.verdict) ?? order.count
            let right = order.firstIndex(of: rhs.element.verdict) ?? order.count
            return left == right ? lhs.offset < rhs.offset : left < right
        }
        tally = order.compactMap { verdict in
            let count = comparison.entries.count { $0.verdict == verdict }
            return count == 0 ? nil : "\(Format.count(count)) \(verdict.title)"
        }.joined(separator: ", ")
        rows = sorted.map { _, entry in
            Row(
                cell: entry.cell, metric: entry.metricTitle,
                values: entry.baseline == nil && entry.current == nil
                    ? "—" : "\(entry.baselineText) → \(entry.currentText)",
                change: entry.changeText, evidence: entry.evidenceText, verdict: entry.verdict.rawValue,
                verdictText: entry.verdictText,
                rule: entry.rule
                    ?? (entry.verdict == .new
                        ? "not in the baseline" : entry.verdict == .missing ? "not measured in this run" : ""))
        }
    }
}
