import Foundation
import ReportModel

/// A `--history` folder: one small JSON file per run (`<run id>.json`, a ``HistoryEntry``), which CI can cache or
/// commit. A run appends its own and puts the last ``kept`` runs in its report, for the HTML's trend charts.
struct RunHistory {
    /// How many runs a report charts.
    static let kept = 20

    let folder: String

    /// Adds `report`'s entry to the folder and returns the report with its ``Report/history`` set.
    func record(_ report: Report) throws -> Report {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw InputError("--history: cannot create \(folder): \(error.localizedDescription)")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        var entries: [HistoryEntry] = names.suffix(Self.kept - 1).compactMap { name in
            // A file this version cannot read is left out of the charts, never a failed run.
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)") else { return nil }
            return try? JSONDecoder().decode(HistoryEntry.self, from: data)
        }
        let entry = HistoryEntry(report)
        entries.append(entry)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try encoder.encode(entry).write(to: URL(fileURLWithPath: "\(folder)/\(report.runID).json"))
        } catch {
            throw InputError("--history: cannot write \(folder)/\(report.runID).json: \(error.localizedDescription)")
        }
        var recorded = report
        recorded.history = entries
        return recorded
    }
}
