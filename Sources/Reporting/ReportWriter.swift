public import Foundation
public import ReportModel

/// Writes a run's four report files into its folder: ``jsonFileName``, ``htmlFileName``, ``junitFileName`` and
/// ``summaryFileName``.
///
/// ```swift
/// try ReportWriter.write(report, to: URL(fileURLWithPath: "Reports/\(report.runID)"))
/// ```
public enum ReportWriter {
    /// The report itself, as JSON (``ReportJSON``).
    public static let jsonFileName = "report.json"
    /// The self-contained HTML page (``HTMLReport``).
    public static let htmlFileName = "index.html"
    /// JUnit XML for CI (``JUnitReport``).
    public static let junitFileName = "junit.xml"
    /// The Markdown summary for a CI job summary (``MarkdownSummary``).
    public static let summaryFileName = "summary.md"

    /// Creates `folder` if needed and writes the four files into it, each atomically, replacing older ones.
    ///
    /// - Returns: The files written.
    @discardableResult
    public static func write(_ report: Report, to folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try files(for: report).map { name, contents in
            let url = folder.appendingPathComponent(name)
            try contents.write(to: url, options: .atomic)
            return url
        }
    }

    /// Writes the four files into the folder at `path`; see ``write(_:to:)``.
    @discardableResult
    public static func write(_ report: Report, toPath path: String) throws -> [URL] {
        try write(report, to: URL(fileURLWithPath: path, isDirectory: true))
    }

    /// Each file's name and contents.
    public static func files(for report: Report) throws -> [(name: String, contents: Data)] {
        [
            (jsonFileName, try ReportJSON.encode(report)),
            (htmlFileName, Data(HTMLReport.render(report).utf8)),
            (junitFileName, Data(JUnitReport.render(report).utf8)),
            (summaryFileName, Data(MarkdownSummary.render(report).utf8)),
        ]
    }
}
