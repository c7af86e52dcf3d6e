import Foundation
import ReportModel

// The words and figures that every writer shows for a cell, so that HTML, Markdown and JUnit agree.

extension Cell {
    /// The median total wall time, or a dash for a cell that was not measured.
    var totalTimeText: String {
        isMeasured ? Format.seconds(total.wallSeconds.median) : "—"
    }

    /// The range of the total wall time over the repetitions, such as `1.20 s – 1.31 s`.
    var totalTimeRangeText: String {
        isMeasured ? total.wallSeconds.rangeText { Format.seconds($0) } : ""
    }

    /// The engine-to-floor ratio, or a dash.
    var floorRatioText: String {
        guard isMeasured, let floor else { return "—" }
        return Format.ratio(floor.ratio)
    }

    /// The median heap peak of the whole migration; `unavailable` when the heap could not be read.
    var peakHeapText: String {
        isMeasured ? Format.bytes(total.heapPeakBytes?.median) : "—"
    }

    /// What the verifier said, such as `passed, 1,234 checked` or `12 violations`.
    var verificationText: String {
        guard let verification else { return isMeasured ? "not run" : "—" }
        if verification.passed { return "passed, \(Format.count(verification.checked)) checked" }
        let count = verification.violationCount
        let expected = verification.isAsExpected ? " (expected)" : ""
        return "\(Format.count(count)) violation\(count == 1 ? "" : "s")\(expected)"
    }

    /// The budgets that did not hold.
    var failedBudgets: [BudgetResult] { budgets.filter { !$0.passed } }

    /// The mode and size, for people: `100,000 objects · single · streaming · direct`.
    var title: String { "\(Format.count(size)) objects · \(mode.label)" }
}

extension CellStatus {
    /// The status for people, such as `integrity failure`.
    var title: String { rawValue.replacingOccurrences(of: "-", with: " ") }
}

extension Statistic {
    /// `min – max` in the given format.
    func rangeText(_ format: (Double) -> String) -> String {
        "\(format(min)) – \(format(max))"
    }
}

extension BudgetResult {
    /// The phase measured, or `total`.
    var phaseText: String { phase ?? "total" }

    /// The limit in the budget's unit.
    var limitText: String { Format.value(limit, unit: unit) }

    /// The measured figure in the budget's unit, or `unavailable`.
    var measuredText: String { measured.map { Format.value($0, unit: unit) } ?? Format.unavailable }

    /// The budget in one line, such as `peak heap (total): 80.0 MiB, limit 64.0 MiB`.
    var summary: String { "\(name) (\(phaseText)): \(measuredText), limit \(limitText)" }
}

extension Verification.ViolationGroup {
    /// Where the violation is, such as `Book.tags`, `Book` or a dash.
    var location: String {
        [entity, property].compactMap { $0 }.joined(separator: ".").nonEmpty ?? "—"
    }

    /// The group in one line, such as `missing-edge on Book.tags: 12`.
    var summary: String { "\(kind) on \(location): \(Format.count(count))" }
}

extension Verification {
    /// Every violation group in one line, separated by semicolons.
    var violationSummary: String { violations.map(\.summary).joined(separator: "; ") }
}

extension ComparisonEntry {
    /// The metric's definition, or nil for a metric this version does not know.
    var definition: MetricDefinition? { MetricDefinition.named(metric) }

    /// Formats one of this entry's figures in the metric's unit.
    func format(_ value: Double) -> String {
        definition.map { Format.value(value, unit: $0.unit.rawValue) } ?? Format.significant(value)
    }

    /// The metric for people.
    var metricTitle: String { definition?.title ?? metric }

    /// The baseline's median, or a dash.
    var baselineText: String { baseline.map { format($0.median) } ?? "—" }
    /// The current median, or a dash.
    var currentText: String { current.map { format($0.median) } ?? "—" }
    /// The relative change, or a dash.
    var changeText: String { change.map(Format.change) ?? "—" }
    /// The count's difference (`+1,204`) or the timing's interval (`[+2.1%, +4.0%]`), or a dash.
    var evidenceText: String {
        if let interval, interval.count == 2 {
            return "[\(Format.change(interval[0])), \(Format.change(interval[1]))]"
        }
        if let difference {
            let text = format(abs(difference))
            return difference == 0 ? "±0" : (difference < 0 ? "−" : "+") + text
        }
        return "—"
    }
    /// The verdict for people, such as `not comparable`.
    var verdictText: String {
        switch rule {
        case Self.parallelRule: "not judged (parallel)"
        case Self.valgrindRule: "not judged (valgrind)"
        default: verdict.title
        }
    }
}

extension ComparisonVerdict {
    /// The verdict for people, such as `not comparable`.
    var title: String { rawValue.replacingOccurrences(of: "-", with: " ") }
}

extension String {
    /// The string, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension ComparisonEntry {
    /// The change in one line, such as `wall time: 1.00 s → 1.30 s (+30.0%)`.
    var summary: String { "\(metricTitle): \(baselineText) → \(currentText) (\(changeText))" }
}

extension BaselineComparison {
    /// The regressed entries of each cell, by cell identifier.
    var regressionsByCell: [String: [ComparisonEntry]] { Dictionary(grouping: regressions, by: \.cell) }
}
