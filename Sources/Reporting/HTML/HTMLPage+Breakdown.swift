import ReportModel

extension HTMLPage {
    /// "Where it went" for one step of a cell: its parts, costliest first, with their share of the step.
    struct BreakdownView {
        let step: String
        /// `553 ms; its parts account for 99.6% of it.`
        let summary: String
        /// `pass 1 · creating objects: 171 ms, 99.8% of it in its parts.`, one per stage.
        let stages: [String]
        let rows: [BreakdownRow]
        /// Whether any part's instructions were counted (`--instructions`): the column is shown only then.
        let countsInstructions: Bool
        /// `12 more parts, 0.4% of the step together.`
        let rest: String?
        let statements: [StatementRow]
    }

    /// One part of a step.
    struct BreakdownRow {
        let rank: String
        let label: String
        let share: String
        /// The share as a percentage of the bar's full width, for its `style`.
        let bar: String
        let wall: String
        let wallRange: String
        let cpu: String
        let rows: String
        let objects: String
        let edges: String
        let heapGrowth: String
        /// The deterministic counts, such as `12.3M`; "—" where not counted (instructions only under
        /// `--instructions`).
        let instructions: String
        let allocations: String
        let sqliteSteps: String
        /// `createDestinationInstances: 9,170 calls, 194 ms`, one per policy callback.
        let callbacks: [String]
        let hint: String?
    }

    /// One SQL statement of a lightweight step.
    struct StatementRow {
        let share: String
        let time: String
        let text: String
        let runs: String
        let rows: String
    }
}

extension HTMLPage.BreakdownView {
    /// Parts whose share is below this are counted in ``rest`` rather than listed.
    static let smallestShown = 0.001

    init(_ step: StepBreakdown) {
        self.step = step.step
        summary =
            "\(Format.seconds(step.wallSeconds.median)), measured around the step; its parts account for "
            + "\(Format.percent(step.accounted.median)) of it (median over the repetitions)."
        stages = step.stages.map { stage in
            "\(stage.phase): \(Format.seconds(stage.wallSeconds)), \(Format.percent(stage.accounted)) of it in its "
                + "entity mappings and its own work."
        }
        let shown = step.parts.filter { $0.share >= Self.smallestShown }
        let hidden = step.parts.filter { $0.share < Self.smallestShown }
        rows = shown.enumerated().map { HTMLPage.BreakdownRow($1, rank: $0 + 1) }
        countsInstructions = step.parts.contains { $0.counts[MetricDefinition.instructions.key] != nil }
        rest =
            hidden.isEmpty
            ? nil
            : "\(Format.counted(hidden.count, "more part")), "
                + "\(Format.percent(hidden.reduce(0) { $0 + $1.share })) of the step together."
        statements = step.statements.filter { $0.share >= Self.smallestShown }.map { statement in
            HTMLPage.StatementRow(
                share: Format.percent(statement.share), time: Format.seconds(statement.seconds.median),
                text: statement.text, runs: Format.count(statement.runs),
                rows: statement.rows.map(Format.count) ?? "—")
        }
    }
}

extension HTMLPage.BreakdownRow {
    init(_ part: BreakdownPart, rank: Int) {
        self.rank = "\(rank)"
        label = part.label
        share = Format.percent(part.share)
        bar = Format.significant(min(max(part.share, 0), 1) * 100, trimmed: true)
        wall = Format.seconds(part.wallSeconds.median)
        wallRange = part.wallSeconds.rangeText { Format.seconds($0) }
        // A part timed by the wall clock alone (a stage's rest, the meter's and the profiler's own reads): "—".
        if let user = part.userSeconds, let system = part.systemSeconds {
            cpu = Format.seconds(user.median + system.median)
        } else {
            cpu = "—"
        }
        rows = Format.count(part.rowsRead)
        objects = Format.count(part.objectsCreated)
        edges = Format.count(part.edgesMade)
        // A part the phase meter measured (a whole phase, a stage's rest) has no growth of its own: "—".
        heapGrowth = part.heapPeakGrowthBytes.map { Format.bytes($0.median) } ?? "—"
        let count = { (metric: MetricDefinition) in part.counts[metric.key].map { Format.compactCount($0.median) } }
        instructions = count(.instructions) ?? "—"
        allocations = count(.allocations) ?? "—"
        sqliteSteps = count(.sqliteSteps) ?? "—"
        callbacks = part.callbacks.map { callback in
            "\(callback.callback): \(Format.counted(callback.calls, "call")), "
                + Format.seconds(callback.seconds.median)
        }
        hint = part.hint
    }
}
