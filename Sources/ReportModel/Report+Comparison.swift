extension Report {
    /// Compares this report's cells with a baseline's, matching cells by ``Cell/id``.
    ///
    /// For each cell in both, the comparison covers the total's median wall time, its heap peak when both
    /// reports have one, and the engine-to-floor ratio when both cells have a floor; that last one is the most
    /// robust to a noisy machine, since each floor is measured in the same run as its engine. Cells that
    /// crashed or could not run in either report, and cells only one report has, are listed as
    /// ``ComparisonVerdict/new`` or ``ComparisonVerdict/missing`` (by wall time) and never fail.
    ///
    /// ```swift
    /// report.baseline = report.compare(to: old, baselineFile: "Reports/baselines/ci.json")
    /// ```
    public func compare(
        to baseline: Report, baselineFile: String, thresholds: BaselineThresholds = BaselineThresholds()
    ) -> BaselineComparison {
        let measured = cells.filter(\.isMeasured)
        let baselineMeasured = baseline.cells.filter(\.isMeasured)
        let baselineCells = Dictionary(baselineMeasured.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let currentIDs = Set(measured.map(\.id))
        var entries: [ComparisonEntry] = []
        for cell in measured {
            guard let old = baselineCells[cell.id] else {
                entries.append(.unmatched(cell, verdict: .new))
                continue
            }
            entries += Self.compare(cell, with: old, thresholds: thresholds)
        }
        for old in baselineMeasured where !currentIDs.contains(old.id) {
            entries.append(.unmatched(old, verdict: .missing))
        }
        return BaselineComparison(
            baselineFile: baselineFile, baselineRunID: baseline.runID, thresholds: thresholds, entries: entries)
    }

    /// Records `comparison` as this report's ``baseline``: cells that passed but regressed become
    /// ``CellStatus/regressed``, and the ``verdict`` is decided again.
    ///
    /// ```swift
    /// report.applyBaseline(report.compare(to: old, baselineFile: "Reports/baselines/ci.json"))
    /// ```
    public mutating func applyBaseline(_ comparison: BaselineComparison) {
        baseline = comparison
        let regressed = Set(comparison.regressions.map(\.cell))
        for index in cells.indices where cells[index].status == .passed && regressed.contains(cells[index].id) {
            cells[index].status = .regressed
        }
        verdict = .decide(cells: cells, baseline: comparison)
    }

    private static func compare(_ cell: Cell, with old: Cell, thresholds: BaselineThresholds) -> [ComparisonEntry] {
        let time = NoiseRule(relative: thresholds.relative, absolute: thresholds.absoluteSeconds)
        let memory = NoiseRule(relative: thresholds.memoryRelative, absolute: thresholds.absoluteBytes)
        let ratio = NoiseRule(relative: thresholds.relative, absolute: 0)
        var entries = [
            time.entry(cell.id, ComparisonEntry.wallSeconds, old.total.wallSeconds, cell.total.wallSeconds)
        ]
        if let before = old.total.heapPeakBytes, let now = cell.total.heapPeakBytes {
            entries.append(memory.entry(cell.id, ComparisonEntry.heapPeakBytes, before, now))
        }
        if let before = old.floor, let now = cell.floor {
            let entry = ratio.entry(
                cell.id, ComparisonEntry.floorRatio, Statistic(samples: [before.ratio]),
                Statistic(samples: [now.ratio]))
            entries.append(entry)
        }
        return entries
    }
}

extension ComparisonEntry {
    /// The entry of a cell that only one of the two reports has.
    fileprivate static func unmatched(_ cell: Cell, verdict: ComparisonVerdict) -> ComparisonEntry {
        let wall = cell.total.wallSeconds
        return ComparisonEntry(
            cell: cell.id, metric: wallSeconds, baseline: verdict == .missing ? wall : nil,
            current: verdict == .new ? wall : nil, change: nil, verdict: verdict)
    }
}

/// When a change of one metric is more than noise, in both directions.
private struct NoiseRule {
    let relative: Double
    let absolute: Double

    func entry(_ cell: String, _ metric: String, _ baseline: Statistic, _ current: Statistic) -> ComparisonEntry {
        let change = baseline.median == 0 ? nil : current.median / baseline.median - 1
        return ComparisonEntry(
            cell: cell, metric: metric, baseline: baseline, current: current, change: change,
            verdict: verdict(baseline, current))
    }

    /// Worse (or better) by more than both thresholds, with ranges that do not overlap.
    func verdict(_ baseline: Statistic, _ current: Statistic) -> ComparisonVerdict {
        if exceeds(current, baseline) { return .regressed }
        if exceeds(baseline, current) { return .improved }
        return .unchanged
    }

    private func exceeds(_ higher: Statistic, _ lower: Statistic) -> Bool {
        higher.median > lower.median * (1 + relative) && higher.median - lower.median > absolute
            && higher.min > lower.max
    }
}
