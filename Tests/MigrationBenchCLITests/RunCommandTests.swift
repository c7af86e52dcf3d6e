import Foundation
import Testing

/// `run`, `validate`, `compare` and `profile` through the built executable.
@Suite("run command")
struct RunCommandTests {
    /// A small scenario over the library model, written into `folder`.
    private func scenario(in folder: URL, budget: String = "64 MiB") throws -> String {
        let root = Executable.packageRoot.path
        let text = """
            name: tiny-transform
            title: Tiny transform
            model: \(root)/Scenarios/models/library.yaml
            chain: [V1, V2]
            mappings: [\(root)/Scenarios/mappings/library-v1-v2.yaml]
            dataset: \(root)/Scenarios/datasets/library.yaml
            sizes: { quick: [1000, 3000], full: [1000000] }
            modes: { storage: [in-memory, streaming] }
            repetitions: { quick: 2, full: 3 }
            budgets:
              - { name: heap, metric: heapPeakBytes, max: \(budget) }
            """
        let path = folder.appendingPathComponent("tiny-transform.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aQuickRunWritesEveryReportAndPointsLatestAtIt() throws {
        try Executable.withTemporaryFolder { folder in
            let reports = folder.appendingPathComponent("reports").path
            let run = try Executable.run(["run", try scenario(in: folder), "--quick", "--out", reports], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let latest = reports + "/latest"
            for file in ["report.json", "index.html", "junit.xml", "summary.md"] {
                #expect(FileManager.default.fileExists(atPath: "\(latest)/\(file)"), "no \(file)")
            }
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(latest)/report.json")))
                    as? [String: Any])
            #expect(report["schemaVersion"] as? Int == 2)
            let cells = try #require(report["cells"] as? [[String: Any]])
            #expect(cells.count == 4)
            #expect(cells.allSatisfy { $0["breakdown"] != nil })
            #expect(cells.allSatisfy { $0["status"] as? String == "passed" && $0["repetitions"] as? Int == 2 })
            let phases = try #require(cells.first?["phases"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(phases.first == "generate" && phases.contains("V1 → V2") && phases.contains("verify V1 → V2"))
            #expect(phases.contains("pass 1 · creating objects") && phases.contains("seal and swap"))
            let junit = try String(contentsOfFile: "\(latest)/junit.xml", encoding: .utf8)
            #expect(junit.components(separatedBy: "<testcase").count - 1 == 4)
            #expect(run.errorLines.filter { $0.hasPrefix("[") && $0.contains("ok tiny-transform") }.count == 4)

            // The same run as its own baseline: nothing regresses.
            let compare = try Executable.run(["compare", "\(latest)/report.json", "\(latest)/report.json"], in: folder)
            #expect(compare.status == 0 && compare.output.contains("no regression"), "\(compare.output)")
        }
    }

    /// A scenario whose mapping model names a policy class bound to nothing, run with `unboundPolicies: base`
    /// (CoreDataPlus's V2toV3 and its `V2to3MakerPolicy`): the policyNotSimulated warning, naming the class and
    /// the entity mapping, reaches every report of the run and its standard error; the cells pass.
    @Test func policyNotSimulatedReachesTheRunsReports() throws {
        try Executable.withTemporaryFolder { folder in
            let plus = Executable.packageRoot.appendingPathComponent("Tests/TestFixtures/Fixtures/coredataplus").path
            let path = folder.appendingPathComponent("base-policy.yaml").path
            try """
            name: base-policy
            title: An unbound policy run as the base policy
            model: \(plus)/SampleModel/SampleModel.xcdatamodeld
            chain: [SampleModel2, SampleModel3]
            mappings: [\(plus)/SampleModel/MappingModels/V2toV3.xcmappingmodel]
            unboundPolicies: base
            sizes: { quick: [30], full: [30] }
            repetitions: { quick: 1, full: 1 }
            """.write(toFile: path, atomically: true, encoding: .utf8)
            let reports = folder.appendingPathComponent("reports").path
            let run = try Executable.run(["run", path, "--quick", "--out", reports], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let warning = "warning: policyNotSimulated: base-policy: entity mapping '"
            #expect(
                run.errorLines.contains { $0.hasPrefix(warning) && $0.contains("'V2to3MakerPolicy'") }, "\(run.error)")
            let latest = reports + "/latest"
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(latest)/report.json")))
                    as? [String: Any])
            let scenarios = try #require(report["scenarios"] as? [[String: Any]])
            let findings = try #require(scenarios.first?["findings"] as? [[String: Any]])
            #expect(!findings.isEmpty)
            #expect(
                findings.allSatisfy {
                    $0["code"] as? String == "policyNotSimulated" && $0["severity"] as? String == "warning"
                })
            #expect(findings.allSatisfy { ($0["message"] as? String ?? "").contains("'V2to3MakerPolicy'") })
            #expect(
                findings.allSatisfy { $0["from"] as? String == "SampleModel2" && $0["to"] as? String == "SampleModel3" }
            )
            let files = try ["index.html", "summary.md", "junit.xml"].map {
                try String(contentsOfFile: "\(latest)/\($0)", encoding: .utf8)
            }
            #expect(files.allSatisfy { $0.contains("policyNotSimulated") })
            #expect(files[0].contains("V2to3MakerPolicy") && files[1].contains("V2to3MakerPolicy"))
            #expect(files[1].contains("| warning | policyNotSimulated | base-policy | SampleModel2 → SampleModel3 |"))
            #expect(!files[2].contains("<failure type=\"policyNotSimulated\""), "a warning fails nothing")
        }
    }

    @Test func anExceededBudgetExitsThree() throws {
        try Executable.withTemporaryFolder { folder in
            let run = try Executable.run(
                ["run", try scenario(in: folder, budget: "1 KiB"), "--quick", "--sizes", "1000", "--out", folder.path],
                in: folder)
            #expect(run.status == 3, "\(run.error)")
            #expect(run.output.contains("FAILED"))
        }
    }

    @Test func aCrashingCellIsAFailedCellNotACrashedRun() throws {
        try Executable.withTemporaryFolder { folder in
            let run = try Executable.run(
                ["run", try scenario(in: folder), "--quick", "--sizes", "1000", "--out", folder.path], in: folder,
                environment: ["MIGRATION_BENCH_CRASH_CELLS": "1"])
            #expect(run.status == 2, "\(run.error)")
            #expect(run.errorLines.filter { $0.contains("CRASHED tiny-transform") }.count == 2)
            let report = try String(contentsOfFile: folder.path + "/latest/summary.md", encoding: .utf8)
            #expect(report.contains("crashed"))
        }
    }

    @Test func validateNamesTheFileAndLineOfABadScenario() throws {
        try Executable.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("bad.yaml").path
            try "name: bad\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\nspeed: 3\n".write(
                toFile: path, atomically: true, encoding: .utf8)
            let run = try Executable.run(["validate", path], in: folder)
            #expect(run.status == 1)
            #expect(
                run.errorLines == [
                    "error: \(path):5: unknown key 'speed' (expected one of: name, title, description, model, chain, mappings, policies, unboundPolicies, dataset, store, sizes, modes, crossPass, repetitions, expect, budgets, thresholds, instructions)"
                ])
        }
    }

    @Test func profileMeasuresACopyAndLeavesTheStoreAlone() throws {
        try Executable.withTemporaryFolder { folder in
            let store = folder.appendingPathComponent("mine.sqlite").path
            let generate = try Executable.run(
                [
                    "generate", "--model", "Scenarios/models/library.yaml", "--version", "V1", "--dataset",
                    "Scenarios/datasets/library.yaml", "--size", "2000", "--output", store,
                ], in: folder)
            try #require(generate.status == 0, "\(generate.error)")
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            let profile = try Executable.run(
                [
                    "profile", store, "--model", "Scenarios/models/library.yaml", "--mapping",
                    "Scenarios/mappings/library-v1-v2.yaml", "--repetitions", "2", "--out", folder.path + "/reports",
                ], in: folder)
            #expect(profile.status == 0, "\(profile.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
            #expect(FileManager.default.fileExists(atPath: folder.path + "/reports/latest/index.html"))
        }
    }
}
