import Foundation
import ReportModel
import Reporting
import Testing

/// Each writer's output for ``SampleReport`` must equal its golden file in `Golden/`, byte for byte.
///
/// After an intended change of a writer, regenerate the golden files and review their diff:
///
///     UPDATE_GOLDEN=1 swift test --filter ReportingTests
///
/// That writes the files into `Tests/ReportingTests/Golden/` in the source tree (and fails, so that a run that
/// updates is never mistaken for a run that checks); run the tests again without it to check.
@Suite("Golden files")
struct GoldenFileTests {
    static let files = [
        ReportWriter.jsonFileName, ReportWriter.htmlFileName, ReportWriter.junitFileName,
        ReportWriter.summaryFileName,
    ]

    @Test(arguments: files)
    func writerOutputMatchesGoldenFile(name: String) throws {
        let output = try #require(try ReportWriter.files(for: SampleReport.report).first { $0.name == name }).contents
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
            try output.write(to: source.appendingPathComponent(name), options: .atomic)
            Issue.record("updated Golden/\(name); run the tests again without UPDATE_GOLDEN to check it")
            return
        }
        let url = try #require(Bundle.module.url(forResource: "Golden/\(name)", withExtension: nil))
        let golden = try Data(contentsOf: url)
        #expect(output == golden, "\(name) differs from its golden file: \(firstDifference(output, golden))")
    }

    @Test func writerWritesTheFourFilesIntoAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mb-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try ReportWriter.write(SampleReport.report, to: folder.appendingPathComponent("run"))
        #expect(written.map(\.lastPathComponent) == Self.files)
        for (name, contents) in try ReportWriter.files(for: SampleReport.report) {
            #expect(try Data(contentsOf: folder.appendingPathComponent("run/\(name)")) == contents)
        }
    }

    /// The first line that differs, for a readable failure.
    private func firstDifference(_ output: Data, _ golden: Data) -> String {
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let expected = String(decoding: golden, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(lines.count, expected.count) {
            let line = index < lines.count ? lines[index] : "<end of output>"
            let want = index < expected.count ? expected[index] : "<end of golden file>"
            if line != want {
                return "line \(index + 1): got \(line.debugDescription), golden has \(want.debugDescription)"
            }
        }
        return "no line differs"
    }
}
