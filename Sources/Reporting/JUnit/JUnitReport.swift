import Foundation
public import ReportModel

/// Writes `junit.xml` for CI: one `<testsuite>` per scenario and one `<testcase>` per cell, named by the cell's
/// identifier and timed by its median total wall time. Integrity failures, exceeded budgets and regressions are
/// `<failure>`s; crashed cells and cells that could not run are `<error>`s. A check's report, or a run's whose
/// scenarios raise findings, starts with a `findings` suite: a test case per finding, a `<failure>` for each of
/// severity error.
public enum JUnitReport {
    /// The JUnit XML document for `report`.
    public static func render(_ report: Report) -> String {
        let regressions = report.baseline?.regressionsByCell ?? [:]
        // A check's findings, or a run's scenarios' (warnings such as policyNotSimulated).
        let found = report.check?.findings ?? report.scenarioFindings.map(\.finding)
        let findings =
            report.check != nil || !found.isEmpty ? [Suite(name: "findings", cases: found.map(TestCase.init))] : []
        let suites =
            findings
            + report.scenarioGroups.map { group in
                Suite(
                    name: group.summary.name,
                    cases: group.cells.map { TestCase($0, regressions: regressions[$0.id] ?? []) })
            }
        let allCases = suites.flatMap(\.cases)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites name=\"MigrationBench\" tests=\"\(allCases.count)\" "
                + "failures=\"\(allCases.count { $0.outcome?.element == "failure" })\" "
                + "errors=\"\(allCases.count { $0.outcome?.element == "error" })\" "
                + "time=\"\(seconds(report.durationSeconds))\">",
        ]
        for suite in suites { lines += suite.lines }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds as JUnit writes them: three decimals, a point whatever the locale.
    fileprivate static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// The attribute `name="value"`, escaped.
    fileprivate static func attribute(_ name: String, _ value: String) -> String {
        "\(name)=\"\(XMLText.escape(value))\""
    }
}

/// A scenario's cells.
private struct Suite {
    let name: String
    let cases: [TestCase]

    var lines: [String] {
        let time = cases.reduce(0) { $0 + $1.seconds }
        let header =
            "  <testsuite \(JUnitReport.attribute("name", name)) tests=\"\(cases.count)\" "
            + "failures=\"\(cases.count { $0.outcome?.element == "failure" })\" "
            + "errors=\"\(cases.count { $0.outcome?.element == "error" })\" skipped=\"0\" "
            + "time=\"\(JUnitReport.seconds(time))\">"
        return [header] + cases.flatMap { $0.lines(suite: name) } + ["  </testsuite>"]
    }
}

/// A cell, and why it failed, if it did.
private struct TestCase {
    /// A `<failure>` or `<error>` element.
    struct Outcome {
        let element: String
        let type: String
        let message: String
        let details: [String]
    }

    let name: String
    let seconds: Double
    let outcome: Outcome?
    /// The cell's counts and why any is unavailable, as `<property>` elements.
    var properties: [(name: String, value: String)] = []

    init(_ finding: Finding) {
        name = [finding.code, finding.steps, finding.subject].filter { !$0.isEmpty }.joined(separator: " ")
        seconds = 0
        outcome =
            finding.severity == .error
            ? Outcome(element: "failure", type: finding.code, message: finding.message, details: [finding.message])
            : nil
    }

    init(_ cell: Cell, regressions: [ComparisonEntry]) {
        name = cell.id
        seconds = cell.isMeasured ? cell.total.wallSeconds.median : 0
        outcome = Self.outcome(of: cell, regressions: regressions)
        guard cell.isMeasured else { return }
        for metric in MetricDefinition.counts {
            if let value = metric.value(in: cell.total) {
                properties.append(
                    (metric.key, Format.significant(value.median).replacingOccurrences(of: ",", with: "")))
            } else if let reason = cell.unavailable?[metric.key] {
                properties.append((metric.key, "\(Format.unavailable): \(reason)"))
            }
        }
    }

    private static func outcome(of cell: Cell, regressions: [ComparisonEntry]) -> Outcome? {
        guard cell.isMeasured else {
            let failure = cell.failure ?? (cell.status == .error ? "the cell could not run" : "the cell crashed")
            return Outcome(element: "error", type: cell.status.rawValue, message: failure, details: [failure])
        }
        var messages: [String] = []
        var details: [String] = []
        if let verification = cell.verification, !verification.isAsExpected, !verification.passed {
            messages.append("\(cell.verificationText): \(verification.violationSummary)")
            details += verification.violations.flatMap { group in
                [group.summary] + group.examples.map { "    \($0)" }
            }
        } else if cell.status == .integrityFailure {
            messages.append("integrity failure")
        }
        let budgets = cell.failedBudgets
        if !budgets.isEmpty {
            messages.append("budget exceeded: " + budgets.map(\.summary).joined(separator: "; "))
            details += budgets.map { "budget exceeded: \($0.summary)" }
        } else if cell.status == .budgetExceeded {
            messages.append("budget exceeded")
        }
        if !regressions.isEmpty {
            messages.append("regressed against the baseline: " + regressions.map(\.summary).joined(separator: "; "))
            details += regressions.map { "regressed: \($0.summary)" }
        } else if cell.status == .regressed {
            messages.append("regressed against the baseline")
        }
        guard !messages.isEmpty else { return nil }
        let type = cell.status == .passed ? "failed" : cell.status.rawValue
        return Outcome(element: "failure", type: type, message: messages.joined(separator: " | "), details: details)
    }

    func lines(suite: String) -> [String] {
        let open =
            "    <testcase \(JUnitReport.attribute("classname", suite)) \(JUnitReport.attribute("name", name)) "
            + "time=\"\(JUnitReport.seconds(seconds))\""
        let properties =
            self.properties.isEmpty
            ? []
            : ["      <properties>"]
                + self.properties.map {
                    "        <property \(JUnitReport.attribute("name", $0.name)) \(JUnitReport.attribute("value", $0.value))/>"
                } + ["      </properties>"]
        guard let outcome else {
            return properties.isEmpty ? [open + "/>"] : [open + ">"] + properties + ["    </testcase>"]
        }
        return [open + ">"] + properties + [
            "      <\(outcome.element) \(JUnitReport.attribute("type", outcome.type)) "
                + "\(JUnitReport.attribute("message", outcome.message))>"
                + XMLText.escape(outcome.details.joined(separator: "\n")) + "</\(outcome.element)>",
            "    </testcase>",
        ]
    }
}
