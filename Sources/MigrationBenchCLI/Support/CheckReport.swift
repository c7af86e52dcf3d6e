import Foundation
import ReportModel
import Reporting
import ScenarioRunner

/// The report of a check: the same four files as a run's, with the findings and the steps.
struct CheckReport {
    var report: Report
    let outcome: ModelChecker.Outcome

    init(outcome: ModelChecker.Outcome, started: Date) {
        self.outcome = outcome
        report = Report(
            runID: ReportRun.runID(started), startedAt: ISO8601DateFormatter().string(from: started),
            durationSeconds: Date().timeIntervalSince(started), command: ["check"] + CommandLine.arguments.dropFirst(2),
            environment: EnvironmentProbe.current(
                jemallocVersion: JemallocHeap.make()?.allocatorDescription, buildConfiguration: ReportRun.configuration),
            scenarios: outcome.scenarios, cells: outcome.cells, baseline: nil,
            verdict: Verdict.decide(cells: outcome.cells, findings: outcome.check.findings), check: outcome.check,
            shard: outcome.shard)
    }

    /// Writes the four files to `<out>/<run id>/` and points `<out>/latest` at them.
    func write(to out: String) throws -> [String] {
        let written = try ReportWriter.write(report, toPath: "\(out)/\(report.runID)")
        ReportRun.pointLatest(at: report.runID, in: out)
        return written.map(\.path)
    }

    /// The findings, one per line, then a summary line and the files written.
    func text(files: [String]) -> String {
        let check = outcome.check
        var lines = check.findings.map { finding in
            let place = [finding.steps, finding.subject].filter { !$0.isEmpty }.joined(separator: ": ")
            return
                "\(finding.severity.rawValue): \(finding.code): \(place.isEmpty ? "" : place + ": ")\(finding.message)"
        }
        let errors = check.errors.count
        let verdict = report.verdict
        let measured = outcome.stepSeconds + outcome.verifySeconds
        lines.append(
            "\(verdict.passed ? "PASSED" : "FAILED") — \(check.model) to \(check.current): \(check.steps.count) "
                + "step(s) run, \(errors) error(s), \(check.warnings.count) warning(s)"
                + (check.notes.isEmpty ? "" : ", \(check.notes.count) note(s)") + "; "
                + String(
                    format: "migrations %.2f s, verifications %.2f s, check's own overhead %.2f s", outcome.stepSeconds,
                    outcome.verifySeconds, outcome.overheadSeconds)
                // A share of nothing (every step refused before it ran) is no figure.
                + (measured < 0.001
                    ? "" : String(format: " (%.1f%% of them)", 100 * outcome.overheadSeconds / measured))
                + "; exit code \(verdict.exitCode)")
        lines += files.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// `check --json`: every key written, `null` where a value is absent.
struct CheckJSON: Encodable {
    let check: ModelCheck

    init(_ check: ModelCheck) {
        self.check = check
    }

    private enum Key: String, CodingKey {
        case model, current, steps, findings, origin, size, from, to, kind, mapping, outcome, seconds, peakHeapBytes
        case instructions
        case code, severity, entity, property, message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(check.model, forKey: .model)
        try container.encode(check.current, forKey: .current)
        var steps = container.nestedUnkeyedContainer(forKey: .steps)
        for step in check.steps {
            var item = steps.nestedContainer(keyedBy: Key.self)
            try item.encode(step.origin, forKey: .origin)
            try item.encode(step.size, forKey: .size)
            try item.encode(step.from, forKey: .from)
            try item.encode(step.to, forKey: .to)
            try item.encode(step.kind, forKey: .kind)
            try item.encode(step.mapping, forKey: .mapping)
            try item.encode(step.outcome, forKey: .outcome)
            try item.encode(step.seconds, forKey: .seconds)
            try item.encode(step.peakHeapBytes, forKey: .peakHeapBytes)
            try item.encode(step.instructions, forKey: .instructions)
        }
        var findings = container.nestedUnkeyedContainer(forKey: .findings)
        for finding in check.findings {
            var item = findings.nestedContainer(keyedBy: Key.self)
            try item.encode(finding.code, forKey: .code)
            try item.encode(finding.severity, forKey: .severity)
            try item.encode(finding.from, forKey: .from)
            try item.encode(finding.to, forKey: .to)
            try item.encode(finding.entity, forKey: .entity)
            try item.encode(finding.property, forKey: .property)
            try item.encode(finding.message, forKey: .message)
        }
    }
}
