import Foundation
import Testing

/// `plan` and `migrate` through the built executable, including processes killed mid-migration.
@Suite("migrate and plan commands")
struct MigrateCommandTests {
    static let model = "Scenarios/models/library.yaml"
    static let mapping = "Scenarios/mappings/library-v1-v2.yaml"
    static let objects = ["Author": 2_000, "Book": 18_000]

    /// A generated V1 library store of 20,000 objects in `folder`.
    private func makeStore(in folder: URL) throws -> String {
        let store = folder.appendingPathComponent("library.sqlite").path
        let generate = try Executable.run(
            [
                "generate", "--model", Self.model, "--version", "V1", "--dataset", "Scenarios/datasets/library.yaml",
                "--size", "20000", "--output", store,
            ], in: folder)
        try #require(generate.status == 0, "\(generate.error)")
        return store
    }

    /// The store's version and object counts, as `inspect` sees them.
    private func inspect(_ store: String, in folder: URL) throws -> (version: String?, objects: [String: Int]?) {
        let run = try Executable.run(["inspect", store, "--model", Self.model, "--json"], in: folder)
        try #require(run.status == 0, "\(run.error)")
        let json = try run.json()
        return (json["matchingVersion"] as? String, json["entities"] as? [String: Int])
    }

    private func workingFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".migrating-") }
    }

    @Test func planThenMigrateEndToEnd() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try makeStore(in: folder)
            let plan = try Executable.run(
                ["plan", store, "--model", Self.model, "--mapping", Self.mapping, "--json"], in: folder)
            #expect(plan.status == 0, "\(plan.error)")
            let planned = try plan.json()
            #expect(planned["from"] as? String == "V1" && planned["to"] as? String == "V2")
            let plannedSteps = try #require(planned["steps"] as? [[String: Any]])
            #expect(plannedSteps.count == 1)
            #expect(plannedSteps[0]["from"] as? String == "V1" && plannedSteps[0]["to"] as? String == "V2")
            #expect(plannedSteps[0]["kind"] as? String == "heavyweight" && plannedSteps[0]["problem"] == nil)
            #expect(plannedSteps[0]["mappingModels"] as? [String] == [Self.mapping])

            let migrate = try Executable.run(
                ["migrate", store, "--model", Self.model, "--mapping", Self.mapping, "--json"], in: folder)
            #expect(migrate.status == 0, "\(migrate.error)")
            let steps = try #require(try migrate.json()["steps"] as? [[String: Any]])
            #expect(steps.count == 1 && steps[0]["kind"] as? String == "heavyweight" && steps[0]["seconds"] is Double)
            #expect(
                migrate.errorLines.contains { $0.hasPrefix("migrate: 100%") }, "no progress lines: \(migrate.error)")
            let after = try inspect(store, in: folder)
            #expect(after.version == "V2" && after.objects == Self.objects)
            #expect(try workingFiles(in: folder).isEmpty)

            let again = try Executable.run(["plan", store, "--model", Self.model, "--json"], in: folder)
            #expect((try again.json()["steps"] as? [Any])?.isEmpty == true, "\(again.output)")
        }
    }

    @Test func aStepThatNeedsAMappingIsOneClearError() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try makeStore(in: folder)
            let mappingless = try Executable.run(["migrate", store, "--model", Self.model, "--to", "V1"], in: folder)
            #expect(mappingless.status == 0, "already at V1: \(mappingless.error)")
            let backwards = try Executable.run(
                ["plan", store, "--model", Self.model, "--chain", "V2,V1"], in: folder)
            #expect(backwards.status == 1)
            #expect(
                backwards.errorLines == ["error: 'V2' comes before 'V1' in the chain: migrations never go backwards"])
        }
    }

    static let killPoints: [(point: String, version: String)] = [
        ("source-checkpointed", "V1"), ("step-finished-1", "V1"), ("sealed", "V1"), ("sidecars-removed", "V1"),
        ("renamed", "V2"),
    ]

    /// SIGKILL at each moment of the safe replacement: the store opens at exactly one version, complete, and
    /// the next migration finishes the job.
    @Test(arguments: killPoints)
    func aKillAtAnyMomentOfTheSwapLeavesOneWholeVersion(point: String, version: String) throws {
        try Executable.withTemporaryFolder { folder in
            let store = try makeStore(in: folder)
            let started = try Executable.start(
                ["migrate", store, "--model", Self.model, "--mapping", Self.mapping, "--pause-at", point], in: folder)
            #expect(started.wait(for: "paused at \(point)"), "never paused: \(started.error)")
            started.kill()
            let after = try inspect(store, in: folder)
            #expect(after.version == version && after.objects == Self.objects)

            let resumed = try Executable.run(
                ["migrate", store, "--model", Self.model, "--mapping", Self.mapping], in: folder)
            #expect(resumed.status == 0, "\(resumed.error)")
            #expect(try inspect(store, in: folder).version == "V2")
            #expect(try workingFiles(in: folder).isEmpty)
        }
    }

    /// SIGKILL after a range of delays, landing anywhere in the migration.
    @Test(arguments: [5, 20, 40, 70, 100, 130, 160, 190])
    func aKillAtAnyTimeLeavesOneWholeVersion(milliseconds: Int) throws {
        try Executable.withTemporaryFolder { folder in
            let store = try makeStore(in: folder)
            let started = try Executable.start(
                ["migrate", store, "--model", Self.model, "--mapping", Self.mapping, "--storage", "in-memory"],
                in: folder)
            usleep(UInt32(milliseconds * 1_000))
            started.kill()
            let after = try inspect(store, in: folder)
            #expect(["V1", "V2"].contains(after.version) && after.objects == Self.objects, "after \(milliseconds) ms")
        }
    }
}
