import Foundation
import Testing

/// `run --shard`, `check --shard` and `merge` through the built executable: the merged report of N shards is the
/// unsharded run's, timings aside.
@Suite("sharded runs", .serialized)
struct ShardRunTests {
    /// Two small scenarios: a clean transform in two storage modes at two sizes, and Core Data's cross-pass loss
    /// declared clean, so that its cells are integrity failures (exit 2).
    private func scenarios(in folder: URL) throws -> [String] {
        let root = Executable.packageRoot.path
        let transform = """
            name: tiny-transform
            title: Tiny transform
            model: \(root)/Scenarios/models/library.yaml
            chain: [V1, V2]
            mappings: [\(root)/Scenarios/mappings/library-v1-v2.yaml]
            dataset: \(root)/Scenarios/datasets/library.yaml
            sizes: { quick: [300, 600], full: [1000000] }
            modes: { storage: [in-memory, streaming] }
            repetitions: { quick: 1, full: 3 }
            """
        let lost = """
            name: lost-edges
            title: Cross-pass edges lost, declared clean
            model: \(root)/Scenarios/models/shop.yaml
            chain: [V1, V2]
            mappings: [\(root)/Scenarios/mappings/shop-v1-v2.yaml]
            dataset: \(root)/Scenarios/datasets/shop.yaml
            sizes: { quick: [300], full: [1000000] }
            modes: { passes: [per-entity], storage: [streaming] }
            crossPass: core-data
            repetitions: { quick: 1, full: 1 }
            expect: { integrity: clean }
            """
        return try [("tiny-transform", transform), ("lost-edges", lost)].map { name, text in
            let path = folder.appendingPathComponent("\(name).yaml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    /// What must not differ between the merged and the unsharded report: each cell's id, status, verification
    /// and budgets, in order; the verdict; the scenarios.
    private func essence(_ report: [String: Any]) -> [String] {
        let cells = (report["cells"] as? [[String: Any]]) ?? []
        let lines = cells.map { cell in
            [cell["id"], cell["status"], cell["repetitions"], cell["objects"], cell["edges"]].map { "\($0 ?? "nil")" }
                .joined(separator: " ") + " " + canonical(cell["verification"]) + " "
                + canonical((cell["budgets"] as? [[String: Any]])?.map { $0.filter { $0.key != "measured" } })
        }
        return lines + [canonical(report["verdict"]), canonical(report["scenarios"])]
    }

    private func canonical(_ value: Any?) -> String {
        guard let value, JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        else { return "nil" }
        return String(decoding: data, as: UTF8.self)
    }

    private func report(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func mergedShardsAreTheUnshardedRun() throws {
        try Executable.withTemporaryFolder { folder in
            let files = try scenarios(in: folder)
            let whole = try Executable.run(
                ["run"] + files + ["--quick", "--out", folder.appendingPathComponent("whole").path], in: folder)
            #expect(whole.status == 2, "\(whole.error)")
            let expected = essence(try report(folder.appendingPathComponent("whole/latest/report.json").path))
            #expect(expected.count == 5 + 2)
            #expect(expected.contains { $0.contains("integrity-failure") }, "the run must have a failure to keep")

            for count in [1, 3, 7] {
                var outs: [String] = []
                var empty = 0
                for index in 1...count {
                    let out = folder.appendingPathComponent("n\(count)/shard-\(index)").path
                    let shard = try Executable.run(
                        ["run"] + files + ["--quick", "--shard", "\(index)/\(count)", "--out", out], in: folder)
                    #expect([0, 2].contains(shard.status), "\(shard.error)")
                    #expect(shard.output.hasPrefix("shard \(index)/\(count) (from --shard)"), "\(shard.output)")
                    let record = try #require(try report("\(out)/latest/report.json")["shard"] as? [String: Any])
                    #expect(record["index"] as? Int == index && record["count"] as? Int == count)
                    empty += (record["positions"] as? [Int])?.isEmpty == true ? 1 : 0
                    outs.append(out)
                }
                if count == 7 { #expect(empty >= 2, "7 shards of 5 cells leave some empty") }
                let merged = folder.appendingPathComponent("n\(count)/merged").path
                let merge = try Executable.run(["merge"] + outs + ["--out", merged], in: folder)
                #expect(merge.status == 2, "the merged verdict's exit code: \(merge.error)")
                let mergedReport = try report("\(merged)/report.json")
                #expect(essence(mergedReport) == expected, "\(count) shards")
                #expect((mergedReport["shards"] as? [[String: Any]])?.count == count)
                for file in ["index.html", "junit.xml", "summary.md"] {
                    #expect(FileManager.default.fileExists(atPath: "\(merged)/\(file)"), "no \(file)")
                }
            }
        }
    }

    /// Four shards side by side in one reports folder: each its own run folder and working files, all merged.
    @Test func fourShardsSideBySideMergeCleanly() throws {
        try Executable.withTemporaryFolder { folder in
            let files = try scenarios(in: folder)
            let out = folder.appendingPathComponent("reports").path
            let temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let started = try (1...4).map { index in
                try Executable.start(
                    ["run"] + files + ["--quick", "--shard", "\(index)/4", "--out", out], in: folder,
                    environment: ["TMPDIR": temporary.path])
            }
            for shard in started {
                shard.process.waitUntilExit()
                #expect([0, 2].contains(shard.process.terminationStatus))
            }
            let runs = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix("latest") }
            #expect(runs.count == 4, "\(runs)")
            for run in runs {
                let left = try FileManager.default.contentsOfDirectory(atPath: "\(out)/\(run)").sorted()
                #expect(left == ["index.html", "junit.xml", "report.json", "summary.md"], "\(run): \(left)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
            let merge = try Executable.run(
                ["merge", out, "--out", folder.appendingPathComponent("merged").path], in: folder)
            #expect(merge.status == 2, "\(merge.error)")
            #expect(merge.output.contains("merged 4 shard(s)"), "\(merge.output)")
        }
    }

    /// CI variables choose the shard when --shard is not given, and say so first; --shard wins over them.
    @Test func ciVariablesChooseTheShardAndTheOptionWins() throws {
        try Executable.withTemporaryFolder { folder in
            let files = try scenarios(in: folder)
            let gitLab = try Executable.run(
                ["run", files[1], "--quick", "--out", folder.appendingPathComponent("a").path], in: folder,
                environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"])
            #expect(
                gitLab.output.hasPrefix("shard 2/2 (from GitLab CI_NODE_INDEX=2, CI_NODE_TOTAL=2)"), "\(gitLab.output)")
            let option = try Executable.run(
                ["run", files[1], "--quick", "--shard", "1/1", "--out", folder.appendingPathComponent("b").path],
                in: folder, environment: ["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "4"])
            #expect(option.output.hasPrefix("shard 1/1 (from --shard)"), "\(option.output)")
            let bad = try Executable.run(
                ["run", files[1], "--quick", "--out", folder.appendingPathComponent("c").path], in: folder,
                environment: ["BUILDKITE_PARALLEL_JOB": "4", "BUILDKITE_PARALLEL_JOB_COUNT": "4"])
            #expect(bad.status == 1)
            #expect(bad.errorLines.count == 1 && bad.error.contains("BUILDKITE_PARALLEL_JOB=4"), "\(bad.error)")
        }
    }

    /// A missing shard: exit 1 and one line naming it and the files given.
    @Test func aMissingShardIsRefusedInOneLine() throws {
        try Executable.withTemporaryFolder { folder in
            let files = try scenarios(in: folder)
            let out = folder.appendingPathComponent("s1").path
            let shard = try Executable.run(["run", files[0], "--quick", "--shard", "1/2", "--out", out], in: folder)
            #expect(shard.status == 0, "\(shard.error)")
            let merge = try Executable.run(
                ["merge", out, "--out", folder.appendingPathComponent("m").path], in: folder)
            #expect(merge.status == 1)
            #expect(merge.errorLines.count == 1)
            #expect(merge.error.hasPrefix("error: shard 2/2 is missing (have 1/2 \(out)/"), "\(merge.error)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("m").path))
        }
    }

    /// check --shard: the merged check has the unsharded check's cells, steps' outcomes, findings and verdict.
    @Test func mergedCheckShardsAreTheUnshardedCheck() throws {
        try Executable.withTemporaryFolder { folder in
            let model = Executable.packageRoot.appendingPathComponent("Scenarios/models/library-history.yaml").path
            let whole = try Executable.run(
                ["check", model, "--sizes", "50,100", "--out", folder.appendingPathComponent("whole").path], in: folder)
            let expected = try report(folder.appendingPathComponent("whole/latest/report.json").path)
            var outs: [String] = []
            for index in 1...3 {
                let out = folder.appendingPathComponent("shard-\(index)").path
                let shard = try Executable.run(
                    ["check", model, "--sizes", "50,100", "--shard", "\(index)/3", "--out", out], in: folder)
                #expect(shard.output.hasPrefix("shard \(index)/3 (from --shard)"), "\(shard.output)")
                outs.append(out)
            }
            let merge = try Executable.run(
                ["merge"] + outs + ["--out", folder.appendingPathComponent("m").path], in: folder)
            #expect(merge.status == whole.status, "\(merge.error)")
            let merged = try report(folder.appendingPathComponent("m/report.json").path)
            #expect(essence(merged) == essence(expected))
            func steps(_ report: [String: Any]) -> [String] {
                ((report["check"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []).map {
                    [$0["origin"], $0["size"], $0["from"], $0["to"], $0["kind"], $0["outcome"]].map { "\($0 ?? "")" }
                        .joined(separator: " ")
                }
            }
            #expect(steps(merged) == steps(expected))
            #expect(steps(merged).count >= 6)
            #expect(
                canonical((merged["check"] as? [String: Any])?["findings"])
                    == canonical((expected["check"] as? [String: Any])?["findings"]))
        }
    }

    /// check --strategy progressive --shard: where a store's two paths end differently (pathsDiffer) is found
    /// over every shard's steps when they are merged, not only where one shard ran the single step and every step
    /// of the walk. Version 1's single step to 4 fails (Book.isbn, required without default), the walk 1 → 2
    /// (default 'none') → 3 → 4 passes.
    @Test func pathsDifferAcrossShardsIsFoundWhenMerged() throws {
        try Executable.withTemporaryFolder { folder in
            let book = { (attributes: String) in
                "    entities:\n      - name: Book\n        attributes: [\(attributes)]\n"
            }
            let isbn = "{ name: isbn, type: String }"
            let model = folder.appendingPathComponent("model.yaml").path
            try
                ("versions:\n  - name: V1\n" + book("{ name: title, type: String }") + "  - name: V2\n"
                + book("{ name: title, type: String }, { name: isbn, type: String, default: none }") + "  - name: V3\n"
                + book("{ name: title, type: String }, \(isbn), { name: pages, type: Integer 32, optional: true }")
                + "  - name: V4\n"
                + book(
                    "{ name: title, type: String }, \(isbn), { name: pages, type: Integer 32, optional: true }, "
                        + "{ name: note, type: String, optional: true }"))
                .write(toFile: model, atomically: true, encoding: .utf8)
            let common = ["check", model, "--sizes", "20,40", "--strategy", "progressive"]
            let whole = try Executable.run(common + ["--out", folder.appendingPathComponent("whole").path], in: folder)
            let expected = try findings(folder.appendingPathComponent("whole/latest/report.json").path)
            #expect(expected.contains { $0.hasPrefix("warning pathsDiffer V1 → V4") }, "\(expected) \(whole.error)")
            var outs: [String] = []
            var seenByShards: [String] = []
            for index in 1...3 {
                let out = folder.appendingPathComponent("shard-\(index)").path
                _ = try Executable.run(common + ["--shard", "\(index)/3", "--out", out], in: folder)
                seenByShards += try findings("\(out)/latest/report.json").filter { $0.contains("pathsDiffer") }
                outs.append(out)
            }
            // The case this test is for: no shard ran both paths of version 1's store at every size.
            #expect(seenByShards.count < expected.count { $0.contains("pathsDiffer") }, "\(seenByShards)")
            let merge = try Executable.run(
                ["merge"] + outs + ["--out", folder.appendingPathComponent("m").path], in: folder)
            #expect(merge.status == whole.status, "\(merge.error)")
            #expect(try findings(folder.appendingPathComponent("m/report.json").path).sorted() == expected.sorted())
        }
    }

    /// A check report's findings, one line each: severity, code, steps and message.
    private func findings(_ path: String) throws -> [String] {
        let check = try report(path)["check"] as? [String: Any]
        return (check?["findings"] as? [[String: Any]] ?? []).map { finding in
            let steps = [finding["from"], finding["to"]].compactMap { $0 as? String }.joined(separator: " → ")
            return [finding["severity"], finding["code"], steps, finding["message"]].map { "\($0 ?? "")" }
                .joined(separator: " ")
        }
    }
}
