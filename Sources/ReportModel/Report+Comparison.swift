extension Report {
    /// Compares this report's cells with a baseline's, matching cells by ``Cell/id``: a library function, so
    /// that a report put together from several (a merge of shards) is judged by the same rules.
    ///
    /// Each judged metric (``MetricDefinition/judged``) of each cell in both reports is judged by its noise
    /// class (see ``BaselineThresholds``): counts by a relative threshold when both reports counted the same
    /// way, timings by the rank test on the same machine, memory peaks by a wide threshold. A metric measured
    /// in only one of the two reports is ``ComparisonVerdict/notComparable``; one measured in neither is left
    /// out (the cell says why it is unavailable). Cells that crashed or could not run in either report, and
    /// cells only one report has, are listed as ``ComparisonVerdict/new`` or ``ComparisonVerdict/missing`` (by
    /// wall time) and never fail.
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
            let now = environment(of: cell.id)
            let then = baseline.environment(of: old.id)
            let judge = MetricJudge(
                thresholds: thresholds, countDifferences: now.countingDifferences(from: then),
                machineDifferences: now.machineDifferences(from: then))
            entries += MetricDefinition.all.filter(\.judged).compactMap { judge.entry($0, cell, old) }
        }
        for old in baselineMeasured where !currentIDs.contains(old.id) {
            entries.append(.unmatched(old, verdict: .missing))
        }
        return BaselineComparison(
            baselineFile: baselineFile, baselineRunID: baseline.runID, thresholds: thresholds, entries: entries)
    }

    /// The machine and software the cell ran on: its shard's, in a merged report, else the report's.
    public func environment(of cellID: String) -> Environment {
        shards?.first { $0.cells.contains(cellID) }?.environment ?? environment
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

extension Environment {
    /// What differs between two environments in what changes counts: architecture, SQLite, the compiler and
    /// the build configuration. Empty when counts are comparable.
    func countingDifferences(from other: Environment) -> [String] {
        [
            ("architecture", architecture ?? "unknown", other.architecture ?? "unknown"),
            ("SQLite", sqliteVersion, other.sqliteVersion),
            ("compiler", swiftVersion, other.swiftVersion),
            ("build", buildConfiguration, other.buildConfiguration),
        ].compactMap { name, now, then in now == then ? nil : "\(name) \(now) here, \(then) in the baseline" }
    }

    /// What differs between two machines: timings are never compared across machines.
    func machineDifferences(from other: Environment) -> [String] {
        [
            ("host", hostname, other.hostname), ("CPU", cpu, other.cpu),
            ("CPUs", String(cpuCount), String(other.cpuCount)),
        ].compactMap { name, now, then in now == then ? nil : "\(name) \(now) here, \(then) in the baseline" }
    }
}

/// Judges one metric of one cell against the baseline by the rule of its noise class.
private struct MetricJudge {
    let thresholds: BaselineThresholds
    let countDifferences: [String]
    let machineDifferences: [String]

    func entry(_ metric: MetricDefinition, _ cell: Cell, _ old: Cell) -> ComparisonEntry? {
        let before = metric.value(of: old)
        let now = metric.value(of: cell)
        var entry = ComparisonEntry(
            cell: cell.id, metric: metric.key, baseline: before, current: now, change: nil, verdict: .notComparable)
        guard let before, let now else {
            if before == nil && now == nil { return nil }
            let side = now == nil ? "here" : "in the baseline"
            let why = (now == nil ? cell : old).unavailable?[metric.key] ?? "not measured"
            entry.rule = "not comparable: unavailable \(side) (\(why))"
            return entry
        }
        switch metric.noise {
        case .count: judgeCount(metric, cell, old, &entry, before, now)
        case .timing: judgeTiming(metric, cell, old, &entry, before, now)
        case .memory: judgeMemory(metric, &entry, before, now)
        }
        return entry
    }

    private func judgeCount(
        _ metric: MetricDefinition, _ cell: Cell, _ old: Cell, _ entry: inout ComparisonEntry, _ before: Statistic,
        _ now: Statistic
    ) {
        entry.difference = now.median - before.median
        entry.change = before.median == 0 ? (now.median == 0 ? 0 : nil) : now.median / before.median - 1
        var differences = countDifferences
        let method = cell.countingMethods?[metric.key]
        let oldMethod = old.countingMethods?[metric.key]
        if method != oldMethod {
            differences.append("counted by \(method ?? "unknown") here, \(oldMethod ?? "unknown") in the baseline")
        }
        guard differences.isEmpty else {
            entry.rule = "not comparable: " + differences.joined(separator: "; ")
            return
        }
        let threshold = cell.countThresholds?[metric.key] ?? thresholds.count
        let worse = metric.polarity == .lowerIsBetter ? entry.difference ?? 0 : -(entry.difference ?? 0)
        let relative = before.median == 0 ? (worse == 0 ? 0 : Double.infinity) : worse / before.median
        entry.verdict = relative > threshold ? .regressed : relative < -threshold ? .improved : .unchanged
        entry.rule = "count: fails past +\(percent(threshold)) (same build, SQLite and counting method)"
    }

    private func judgeTiming(
        _ metric: MetricDefinition, _ cell: Cell, _ old: Cell, _ entry: inout ComparisonEntry, _ before: Statistic,
        _ now: Statistic
    ) {
        entry.change = before.median == 0 ? nil : now.median / before.median - 1
        if cell.measuredInParallel == true || old.measuredInParallel == true {
            entry.verdict = .notJudged
            entry.rule = ComparisonEntry.parallelRule
            return
        }
        // Valgrind runs the cell 20 to 50 times slower, and not evenly: its times say nothing of the machine's.
        if cell.timedUnderValgrind == true || old.timedUnderValgrind == true {
            entry.verdict = .notJudged
            entry.rule = ComparisonEntry.valgrindRule
            return
        }
        guard machineDifferences.isEmpty else {
            entry.rule =
                "not comparable: timings are never compared across machines ("
                + machineDifferences.joined(separator: "; ") + ")"
            return
        }
        let alpha = thresholds.alpha
        guard let test = RankTest(baseline: before.samples, current: now.samples, alpha: alpha) else {
            entry.verdict = .notJudged
            entry.rule =
                "timing: not judged, \(before.samples.count) and \(now.samples.count) samples are too few for the "
                + "Mann–Whitney test at one-sided level \(percent(alpha))"
            return
        }
        entry.change = test.change
        entry.interval = [test.interval.lower, test.interval.upper]
        let sign = metric.polarity == .lowerIsBetter ? 1.0 : -1.0
        let worse = sign > 0 ? test.interval.lower > 0 : test.interval.upper < 0
        let better = sign > 0 ? test.interval.upper < 0 : test.interval.lower > 0
        let effect = sign * test.change
        entry.verdict =
            worse && effect > thresholds.minimumEffect
            ? .regressed : better && effect < -thresholds.minimumEffect ? .improved : .unchanged
        entry.rule =
            "timing: Mann–Whitney, fails when the \(percent(1 - 2 * alpha)) interval of the change is above 0 "
            + "and the Hodges–Lehmann change is above +\(percent(thresholds.minimumEffect))"
    }

    private func judgeMemory(
        _ metric: MetricDefinition, _ entry: inout ComparisonEntry, _ before: Statistic, _ now: Statistic
    ) {
        entry.change = before.median == 0 ? nil : now.median / before.median - 1
        entry.difference = now.median - before.median
        let exceeds = { (higher: Double, lower: Double) in
            higher > lower * (1 + thresholds.memoryRelative) && higher - lower > thresholds.absoluteBytes
        }
        let (worse, better) =
            metric.polarity == .lowerIsBetter
            ? (exceeds(now.median, before.median), exceeds(before.median, now.median))
            : (exceeds(before.median, now.median), exceeds(now.median, before.median))
        entry.verdict = worse ? .regressed : better ? .improved : .unchanged
        entry.rule =
            "memory: fails past +\(percent(thresholds.memoryRelative)) and +\(mebibytes(thresholds.absoluteBytes)) MiB"
    }

    private func mebibytes(_ bytes: Double) -> String {
        let value = (bytes / 1_048_576 * 100).rounded() / 100
        return value == value.rounded() ? "\(Int(value))" : "\(value)"
    }

    private func percent(_ value: Double) -> String {
        let scaled = (value * 10_000).rounded() / 100
        return scaled == scaled.rounded() ? "\(Int(scaled)) %" : "\(scaled) %"
    }
}
