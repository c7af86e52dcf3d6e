import Foundation
import Testing

@testable import MigrationBenchCLI

/// `check --instructions`: each store measured again under callgrind in a process of its own, its counts in every
/// report; without valgrind, unavailable with the reason.
@Suite("check --instructions")
struct CheckInstructionsTests {
    static let shop = ["check", "Scenarios/models/shop.yaml", "--mapping", "Scenarios/mappings/shop-v1-v2.yaml"]

    static func report(_ out: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: out.appendingPathComponent("latest/report.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func instructions(_ phase: Any?) -> Double? {
        (((phase as? [String: Any])?["counts"] as? [String: Any])?["instructions"] as? [String: Any])?["median"]
            as? Double
    }

    /// The counting run gets the check's own arguments, whatever their form, without those that write files
    /// or choose the output, and with the options that make it the counting run of one store.
    @Test func theCountingRunKeepsWhatDecidesTheWork() {
        let arguments = CheckCounting.arguments(
            [
                "check", "m.yaml", "--out", "r", "--sizes", "20", "--json", "--history=h", "--instructions",
                "--dataset", "d.yaml", "--out=x", "--shard", "1/2",
            ], samples: "s.json")
        #expect(
            arguments == [
                "check", "m.yaml", "--sizes", "20", "--dataset", "d.yaml", "--shard", "1/2",
                "--instruction-samples", "s.json",
            ])
    }

    @Test func withoutValgrindTheyAreUnavailableWithTheReason() throws {
        try Executable.withTemporaryFolder { folder in
            let out = folder.appendingPathComponent("reports")
            let run = try Executable.run(
                Self.shop + ["--sizes", "20", "--instructions", "--out", out.path], in: folder,
                environment: ["PATH": "/nonexistent"])
            #expect(run.status == 0, "\(run.error)")
            let report = try Self.report(out)
            let cell = try #require((report["cells"] as? [[String: Any]])?.first)
            #expect((cell["unavailable"] as? [String: String])?["instructions"]?.contains("valgrind") == true)
            #expect(Self.instructions(cell["total"]) == nil)
            let steps = try #require((report["check"] as? [String: Any])?["steps"] as? [[String: Any]])
            #expect(steps.count == 1 && steps[0]["instructions"] == nil)
            let summary = try String(
                contentsOf: out.appendingPathComponent("latest/summary.md"), encoding: .utf8)
            #expect(summary.contains("Counts unavailable: instructions"), "\(summary)")
            let json = try Executable.run(
                Self.shop + ["--sizes", "20", "--instructions", "--json"], in: folder,
                environment: ["PATH": "/nonexistent"])
            let step = try #require((try json.json()["steps"] as? [[String: Any]])?.first)
            #expect(step.keys.contains("instructions") && step["instructions"] is NSNull, "\(step)")
        }
    }

    /// Under callgrind every phase of every store is counted, in a process of its own: the store of 40 objects
    /// per entity counts the same whether the store of 20 ran before it or not (in one process, the first store's
    /// migration also pays every first use of the code, about a quarter more), and more than the store of 20.
    /// The verification runs on the measuring thread alone, so that its count is whole (two threads shared it by
    /// chance: 14.7 M in one run, 17.7 M in the next). Needs valgrind (installed on this project's machines).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")))
    func underCallgrindEveryPhaseIsCountedInAProcessOfItsOwn() throws {
        try Executable.withTemporaryFolder { folder in
            var counts: [[String: [Double]]] = []
            for sizes in ["20,40", "40"] {
                let out = folder.appendingPathComponent("reports-\(sizes)")
                let run = try Executable.run(
                    Self.shop + ["--sizes", sizes, "--instructions", "--out", out.path], in: folder)
                #expect(run.status == 0, "\(run.error)")
                let report = try Self.report(out)
                let cells = try #require(report["cells"] as? [[String: Any]])
                let steps = try #require((report["check"] as? [String: Any])?["steps"] as? [[String: Any]])
                var bySize: [String: [Double]] = [:]
                for (cell, step) in zip(cells, steps) {
                    #expect((cell["unavailable"] as? [String: String])?["instructions"] == nil, "\(cell)")
                    let method = (cell["countingMethods"] as? [String: String])?["instructions"]
                    #expect(method?.contains("callgrind") == true)
                    let phases = try #require(cell["phases"] as? [[String: Any]])
                    let phaseCounts = phases.compactMap { Self.instructions($0) }
                    #expect(phaseCounts.count == 3 && phaseCounts.allSatisfy { $0 > 1_000_000 }, "\(phases)")
                    let total = try #require(Self.instructions(cell["total"]))
                    #expect(step["instructions"] as? Double == total)
                    bySize["\(step["size"] ?? "")"] = phaseCounts
                }
                counts.append(bySize)
            }
            let (after, alone) = (try #require(counts[0]["40"]), try #require(counts[1]["40"]))
            for (first, second) in zip(after, alone) {
                #expect(abs(first / second - 1) < 0.005, "\(after) \(alone)")
            }
            #expect(try #require(counts[0]["20"])[1] < alone[1])
        }
    }
}
