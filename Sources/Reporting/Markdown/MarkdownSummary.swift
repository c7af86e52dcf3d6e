public import ReportModel

/// Writes `summary.md`, for a CI job summary: the verdict, a table of cells, then what failed: budgets,
/// integrity violations, crashed cells and baseline regressions.
public enum MarkdownSummary {
    /// The summary of `report`.
    public static func render(_ report: Report) -> String {
        var lines = verdictLines(report)
        if let check = report.check {
            lines += ["### Findings", ""]
            lines += table(
                header: ["Severity", "Code", "Steps", "Where", "Finding"],
                alignments: "| --- | --- | --- | --- | --- |",
                rows: check.findings.map { [$0.severity.rawValue, $0.code, $0.steps, $0.subject, $0.message] })
            lines += ["", "### Steps", ""]
            // Instructions have a column when a step's were counted (`check --instructions`).
            let counted = check.steps.contains { $0.instructions != nil }
            lines += table(
                header: ["Store made at", "Objects per entity", "Step", "Kind", "Outcome", "Time", "Peak heap"]
                    + (counted ? ["Instructions"] : []),
                alignments: "| --- | ---: | --- | --- | --- | ---: | ---: |" + (counted ? " ---: |" : ""),
                rows: check.steps.map { step in
                    [
                        step.origin, Format.count(step.size), "\(step.from) → \(step.to)", step.kind,
                        step.outcome.rawValue, step.seconds.map { Format.seconds($0) } ?? "—",
                        Format.bytes(step.peakHeapBytes.map(Double.init)),
                    ] + (counted ? [step.instructions.map { Format.count($0) } ?? Format.unavailable] : [])
                })
            lines += ["", "### Stores", ""]
        }
        let scenarioFindings = report.scenarioFindings
        if !scenarioFindings.isEmpty {
            lines += ["### Findings", ""]
            lines += table(
                header: ["Severity", "Code", "Scenario", "Steps", "Finding"],
                alignments: "| --- | --- | --- | --- | --- |",
                rows: scenarioFindings.map { scenario, finding in
                    [finding.severity.rawValue, finding.code, scenario, finding.steps, finding.message]
                })
            lines += ["", "### Cells", ""]
        }
        lines += table(
            header: ["Status", "Scenario", "Size", "Mode", "Total time", "Floor ratio", "Peak heap", "Verification"],
            alignments: "| --- | --- | ---: | --- | ---: | ---: | ---: | --- |",
            rows: report.cells.map { cell in
                [
                    "\(cell.status.emoji) \(cell.status.title)", cell.scenario, Format.count(cell.size),
                    cell.mode.label,
                    cell.totalTimeText, cell.floorRatioText, cell.peakHeapText, cell.verificationText,
                ]
            })
        let budgets = report.cells.flatMap { cell in cell.failedBudgets.map { (cell, $0) } }
        if !budgets.isEmpty {
            lines += ["", "### Failing budgets", ""]
            lines += table(
                header: ["Cell", "Budget", "Phase", "Limit", "Measured"],
                alignments: "| --- | --- | --- | ---: | ---: |",
                rows: budgets.map { cell, budget in
                    [cell.id, budget.name, budget.phaseText, budget.limitText, budget.measuredText]
                })
        }
        // Violations a scenario expects (what Core Data's behaviour loses) are in the HTML, not in the failures.
        let unexpected = report.cells.filter { $0.verification?.isAsExpected == false }
        let violations = unexpected.flatMap { cell in (cell.verification?.violations ?? []).map { (cell, $0) } }
        if !violations.isEmpty {
            lines += ["", "### Integrity violations", ""]
            lines += table(
                header: ["Cell", "Violation", "Where", "Count", "First example"],
                alignments: "| --- | --- | --- | ---: | --- |",
                rows: violations.map { cell, group in
                    [cell.id, group.kind, group.location, Format.count(group.count), group.examples.first ?? "—"]
                })
        }
        let crashed = report.cells.filter { !$0.isMeasured }
        if !crashed.isEmpty {
            lines += ["", "### Crashed cells and cells that could not run", ""]
            lines += table(
                header: ["Cell", "Status", "Failure"], alignments: "| --- | --- | --- |",
                rows: crashed.map { [$0.id, $0.status.title, $0.failure ?? "—"] })
        }
        lines += breakdownLines(report.cells)
        if let baseline = report.baseline { lines += baselineLines(baseline) }
        lines += unavailableLines(report.cells)
        return lines.joined(separator: "\n") + "\n"
    }

    /// What changed against the baseline, in one short table for a pull-request comment: regressions first,
    /// then what could not be compared and what improved; unchanged and unjudged entries are only counted.
    private static func baselineLines(_ baseline: BaselineComparison) -> [String] {
        let shown: [ComparisonVerdict] = [.regressed, .notComparable, .improved]
        let entries = shown.flatMap { verdict in baseline.entries.filter { $0.verdict == verdict } }
        let tally = ComparisonVerdict.allCases.compactMap { verdict in
            let count = baseline.entries.count { $0.verdict == verdict }
            return count == 0 ? nil : "\(Format.count(count)) \(verdict.title)"
        }
        var lines = [
            "", "### Against the baseline", "",
            "Against \(escape(baseline.baselineFile)) (run \(escape(baseline.baselineRunID))): "
                + (tally.isEmpty ? "nothing to compare" : tally.joined(separator: ", ")) + ".",
        ]
        guard !entries.isEmpty else { return lines }
        let limit = 15
        lines.append("")
        lines += table(
            header: ["Cell", "Metric", "Baseline → now", "Change", "Difference or interval", "Verdict"],
            alignments: "| --- | --- | ---: | ---: | ---: | --- |",
            rows: entries.prefix(limit).map {
                [
                    $0.cell, $0.metricTitle, "\($0.baselineText) → \($0.currentText)", $0.changeText, $0.evidenceText,
                    $0.verdictText,
                ]
            })
        if entries.count > limit {
            lines += ["", "… and \(Format.count(entries.count - limit)) more in the HTML report."]
        }
        let rules = Set(entries.prefix(limit).compactMap(\.rule)).sorted()
        lines += [""] + rules.map { "- " + escape($0) }
        return lines
    }

    /// Where the time went: each measured cell's three costliest parts, over its steps, with their share of
    /// their step and the cause where the engine knows it.
    private static func breakdownLines(_ cells: [Cell]) -> [String] {
        let rows = cells.filter(\.isMeasured).flatMap { cell in
            (cell.breakdown ?? []).flatMap { step in step.parts.map { (cell, step, $0) } }
                .sorted { $0.2.wallSeconds.median > $1.2.wallSeconds.median }.prefix(3)
        }
        guard !rows.isEmpty else { return [] }
        return ["", "### Where the time went", ""]
            + table(
                header: ["Cell", "Step", "Part", "Share of step", "Time", "Cause"],
                alignments: "| --- | --- | --- | ---: | ---: | --- |",
                rows: rows.map { cell, step, part in
                    [
                        cell.id, step.step, part.label, Format.percent(part.share),
                        Format.seconds(part.wallSeconds.median), part.hint ?? "—",
                    ]
                })
    }

    /// The counts no cell could measure, each once with its reason.
    private static func unavailableLines(_ cells: [Cell]) -> [String] {
        var reasons: [String: String] = [:]
        for cell in cells { reasons.merge(cell.unavailable ?? [:]) { first, _ in first } }
        guard !reasons.isEmpty else { return [] }
        return [""]
            + reasons.sorted { $0.key < $1.key }.map { key, reason in
                "Counts \(Format.unavailable): \(escape(MetricDefinition.named(key)?.title ?? key)) — \(escape(reason))."
            }
    }

    /// The heading and the line of counts.
    private static func verdictLines(_ report: Report) -> [String] {
        let verdict = report.verdict
        let headline =
            verdict.passed
            ? "## ✅ MigrationBench passed (exit code \(verdict.exitCode))"
            : "## ❌ MigrationBench failed (exit code \(verdict.exitCode))"
        let findings = verdict.errorFindings.map { [Format.counted($0, "error finding")] } ?? []
        let counts =
            findings + [
                "\(Format.count(verdict.passedCells)) passed",
                Format.counted(verdict.integrityFailures, "integrity failure"),
                Format.counted(verdict.crashed, "crashed or error", "crashed or errors"),
                Format.counted(verdict.budgetFailures, "budget failure"),
                Format.counted(verdict.regressions, "regression"),
            ]
        return [
            headline, "",
            "Run \(escape(report.runID)), started \(escape(report.startedAt)), took "
                + "\(Format.seconds(report.durationSeconds)): **\(Format.counted(verdict.cells, "cell"))**, "
                + counts.joined(separator: ", ") + ".",
            "",
        ] + (report.shardEntries + report.parallelEntries).map { "- \(escape($0.name)): \(escape($0.value))" }
            + (report.shardEntries.isEmpty && report.parallelEntries.isEmpty ? [] : [""])
    }

    /// A Markdown table; every cell is escaped.
    private static func table(header: [String], alignments: String, rows: [[String]]) -> [String] {
        let line = { (cells: [String]) in "| " + cells.map(escape).joined(separator: " | ") + " |" }
        return [line(header), alignments] + rows.map(line)
    }

    /// Text that Markdown shows as it is, also inside a table: markup characters are backslash-escaped, `<`, `>`
    /// and `&` become entities, and line breaks become `<br>`, so that a cell never breaks its table.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\", "`", "*", "_", "[", "]", "|", "#", "~": escaped += "\\\(character)"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\n", "\r\n", "\r": escaped += "<br>"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension CellStatus {
    /// A sign for the status, for a quick scan of a table.
    fileprivate var emoji: String {
        switch self {
        case .passed: "✅"
        case .integrityFailure: "❌"
        case .budgetExceeded: "⚠️"
        case .regressed: "📈"
        case .crashed: "💥"
        case .error: "⛔"
        }
    }
}
