import ReportModel

extension HTMLPage {
    /// A check's findings and steps, shown first.
    struct Check {
        /// One finding.
        struct FindingRow {
            let severity: String
            /// The chip's class: an error as an integrity failure, a warning as a warning, a note plain.
            let chip: String
            let code: String
            let steps: String
            let subject: String
            let message: String
        }

        /// One step run.
        struct StepRow {
            let origin: String
            let size: String
            let step: String
            let kind: String
            let mapping: String
            let outcome: String
            let status: String
            let time: String
            let peakHeap: String
            let verifyTime: String
            /// The migration's instructions (`check --instructions`), or "unavailable".
            let instructions: String
        }

        static let chips: [Finding.Severity: String] = [
            .error: "status-integrity-failure", .warning: "chip-warn", .note: "comparison-unchanged",
        ]

        let model: String
        let current: String
        let findings: [FindingRow]
        let steps: [StepRow]
        /// Whether any step's instructions were counted: only then has the table their column.
        let counted: Bool

        init(_ check: ModelCheck) {
            model = check.model
            current = check.current
            findings = check.findings.map(FindingRow.init)
            steps = check.steps.map { step in
                StepRow(
                    origin: step.origin, size: Format.count(step.size), step: "\(step.from) → \(step.to)",
                    kind: step.kind, mapping: step.mapping ?? "inferred", outcome: step.outcome.rawValue,
                    status: step.outcome == .passed ? "passed" : "integrity-failure",
                    time: step.seconds.map { Format.seconds($0) } ?? "—",
                    peakHeap: Format.bytes(step.peakHeapBytes.map(Double.init)),
                    verifyTime: step.verifySeconds.map { Format.seconds($0) } ?? "—",
                    instructions: step.instructions.map { Format.count($0) } ?? Format.unavailable)
            }
            counted = check.steps.contains { $0.instructions != nil }
        }
    }
}

extension HTMLPage.Check.FindingRow {
    init(_ finding: Finding) {
        self.init(
            severity: finding.severity.rawValue, chip: HTMLPage.Check.chips[finding.severity] ?? "", code: finding.code,
            steps: finding.steps, subject: finding.subject.isEmpty ? "—" : finding.subject, message: finding.message)
    }
}

extension HTMLTemplate {
    /// A table of `findings` (a check's, or a scenario's).
    static let findings = """
        <div class="table-wrap">
        <table>
          <thead><tr><th>Severity</th><th>Code</th><th>Steps</th><th>Where</th><th>Finding</th></tr></thead>
          <tbody>
          {{#findings}}
          <tr><td><span class="chip {{chip}}">{{severity}}</span></td>
            <td><code>{{code}}</code></td><td>{{steps}}</td><td>{{subject}}</td><td>{{message}}</td></tr>
          {{/findings}}
          {{^findings}}<tr><td colspan="5" class="muted">No findings.</td></tr>{{/findings}}
          </tbody>
        </table>
        </div>
        """

    /// The check's section: findings, then every step.
    static let checkSection = """
        {{#check}}
        <section class="card">
          <h2>Findings</h2>
          <p class="meta"><code>{{model}}</code> to {{current}}</p>
          {{> findings}}
        </section>
        <section class="card">
          <h2>Steps, version by version</h2>
          <div class="table-wrap">
          <table>
            <thead><tr><th>Store made at</th><th class="num">Objects per entity</th><th>Step</th><th>Kind</th>
              <th>Mapping</th><th>Outcome</th><th class="num">Time</th><th class="num">Peak heap</th>
              <th class="num">Verification time</th>{{#counted}}<th class="num">Instructions</th>{{/counted}}</tr></thead>
            <tbody>
            {{#steps}}
            <tr><td>{{origin}}</td><td class="num">{{size}}</td><td>{{step}}</td><td class="kind">{{kind}}</td>
              <td>{{mapping}}</td><td><span class="chip status-{{status}}">{{outcome}}</span></td>
              <td class="num">{{time}}</td><td class="num">{{peakHeap}}</td><td class="num">{{verifyTime}}</td>
              {{#counted}}<td class="num">{{instructions}}</td>{{/counted}}</tr>
            {{/steps}}
            </tbody>
          </table>
          </div>
        </section>
        {{/check}}
        """
}
