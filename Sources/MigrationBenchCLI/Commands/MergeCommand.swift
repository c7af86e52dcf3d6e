import ArgumentParser
import Foundation
import ReportModel
import Reporting

/// `migration-bench merge`: one report from the reports of a run's shards.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the reports of a run's shards (run --shard I/N, check --shard I/N) into one report.",
        discussion: """
            Every report.json given, and every one in the folders given (searched through, symbolic links such as \
            latest skipped, exact copies read once), must be a shard of one run: same commit, same scenarios and \
            cells, each shard once. The merged report has every cell once in the matrix's order, the verdict \
            decided again over all cells, each shard's run and environment, and the baseline comparison \
            (--baseline, or the shards' own comparisons put together); it is written as report.json, index.html, \
            junit.xml and summary.md into <dir>. Exit codes: the merged verdict's (0, 2 or 3); 1 when the \
            reports are not the shards of one run (different commits or scenario sets, a cell twice, a shard \
            missing: the line names the files and the shard).
            """)

    @Argument(help: ArgumentHelp("The shards' report.json files, or folders holding them.", valueName: "report"))
    var reports: [String]

    @Option(name: .long, help: ArgumentHelp("The folder for the merged report's four files.", valueName: "dir"))
    var out: String

    @Option(
        name: .long,
        help: ArgumentHelp("A report.json to compare the merged cells with; a regression exits 3.", valueName: "file"))
    var baseline: String?

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("give the shards' report.json files or folders") }
    }

    func run() throws {
        var exitCode: Int32 = 0
        try reportingInputErrors {
            let files = try Self.reportFiles(reports).map {
                ReportFile(file: $0, report: try ReportRun.readReport($0))
            }
            let baselineFile = try baseline.map { ReportFile(file: $0, report: try ReportRun.readReport($0)) }
            let started = Date()
            let report: Report
            do {
                report = try Report.merging(
                    files, runID: "merged-" + ReportRun.runID(started),
                    startedAt: ISO8601DateFormatter().string(from: started),
                    command: ["merge"] + CommandLine.arguments.dropFirst(2), baseline: baselineFile)
            } catch {
                throw InputError("\(error)")
            }
            let written = try ReportWriter.write(report, toPath: out)
            print("merged \(files.count) shard(s): " + ReportRun.summary(report, files: written.map(\.path)))
            exitCode = Int32(report.verdict.exitCode)
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// The report files among `paths`: each file as given, each folder's `report.json` files at any depth
    /// (symbolic links not followed), in order; a file whose bytes an earlier one has is read once.
    static func reportFiles(_ paths: [String]) throws -> [String] {
        let manager = FileManager.default
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw InputError("\(path): no such file or folder")
            }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            let found = try reports(in: path)
            guard !found.isEmpty else { throw InputError("\(path): no report.json in this folder") }
            files += found
        }
        var seen: Set<Data> = []
        return files.filter { file in
            guard let data = manager.contents(atPath: file) else { return true }
            return seen.insert(data).inserted
        }
    }

    /// The `report.json` files under `folder`, sorted, without following symbolic links.
    private static func reports(in folder: String) throws -> [String] {
        let manager = FileManager.default
        var found: [String] = []
        for name in try manager.contentsOfDirectory(atPath: folder).sorted() {
            let path = "\(folder)/\(name)"
            let attributes = try manager.attributesOfItem(atPath: path)
            if attributes[.type] as? FileAttributeType == .typeSymbolicLink { continue }
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                found += try reports(in: path)
            } else if name == ReportWriter.jsonFileName {
                found.append(path)
            }
        }
        return found
    }
}
