import Foundation
public import ReportModel

extension BreakdownPart {
    /// `pass 1 · creating objects · BookToBook`, `pass 1 · validating · (committing)`, or `prepare`.
    public var label: String {
        if let mapping { return "\(phase) · \(mapping)" }
        if work == phase { return phase }
        return "\(phase) · (\(work ?? "other"))"
    }
}

/// "Where it went", as text: for every cell with a breakdown, each step's costliest parts with their share of the
/// step, time and cause — what `profile` prints.
public enum BreakdownText {
    /// The lines for `report`, the `top` costliest parts of each step (and, for a lightweight step, its `top`
    /// costliest statements).
    public static func render(_ report: Report, top: Int) -> String {
        var lines: [String] = []
        for cell in report.cells where cell.isMeasured {
            guard let steps = cell.breakdown, !steps.isEmpty else { continue }
            lines.append("Where the time went — \(cell.id):")
            for step in steps {
                lines.append(
                    "  \(step.step): \(Format.seconds(step.wallSeconds.median)), its parts account for "
                        + "\(Format.percent(step.accounted.median))")
                for (rank, part) in step.parts.prefix(top).enumerated() {
                    lines.append("    " + line(rank: rank + 1, part))
                }
                if !step.statements.isEmpty {
                    lines.append("    statements, by SQLite's own clock:")
                    for statement in step.statements.prefix(top) {
                        let rows = statement.rows.map { ", \(Format.counted($0, "row"))" } ?? ""
                        lines.append(
                            "      " + pad(Format.percent(statement.share), 6) + "  "
                                + pad(Format.seconds(statement.seconds.median), 9) + "  \(statement.text) "
                                + "(\(Format.counted(statement.runs, "run"))\(rows))")
                    }
                }
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// ` 1.  62.1%  766 ms  pass 1 · creating objects · BookToBook — to-many key path …`; where instructions were
    /// counted (`--instructions`), their number follows the time: `766 ms  1.23G instr`.
    static func line(rank: Int, _ part: BreakdownPart) -> String {
        let instructions = part.counts[MetricDefinition.instructions.key].map {
            "  " + pad(Format.compactCount($0.median), 6) + " instr"
        }
        return pad("\(rank).", 3) + " " + pad(Format.percent(part.share), 6) + "  "
            + pad(Format.seconds(part.wallSeconds.median), 9) + (instructions ?? "") + "  " + part.label
            + (part.hint.map { " — \($0)" } ?? "")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(width - text.count, 0)) + text
    }
}
