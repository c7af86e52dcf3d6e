import Foundation
import SQLiteDatabase
import Testing

/// Several `migrate` processes at once, as an app and its extensions migrating at launch: on one store, exactly
/// one migrates and the others are refused with one line; on different stores in one folder, all migrate.
@Suite("concurrent migrations", .serialized)
struct ConcurrentMigrationTests {
    static let model = MigrateCommandTests.model
    static let mapping = MigrateCommandTests.mapping
    static let trials = 50

    /// A generated V1 library store of `size` objects at `path`.
    private func generate(_ path: String, size: Int, in folder: URL) throws {
        let generate = try Executable.run(
            [
                "generate", "--model", Self.model, "--version", "V1", "--dataset", "Scenarios/datasets/library.yaml",
                "--size", "\(size)", "--output", path,
            ], in: folder)
        try #require(generate.status == 0, "\(generate.error)")
    }

    private func migrate(_ store: String) -> [String] {
        ["migrate", store, "--model", Self.model, "--mapping", Self.mapping]
    }

    @Test(arguments: [2, 8])
    func oneStoreManyMigratorsExactlyOneMigrates(processes: Int) throws {
        try Executable.withTemporaryFolder { folder in
            let logs = folder.appendingPathComponent("logs")
            let trialFolder = folder.appendingPathComponent("trial")
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            let original = folder.appendingPathComponent("original.sqlite").path
            try generate(original, size: 20_000, in: logs)
            var refused = 0
            var late = 0
            var withoutPid = 0
            for trial in 1...Self.trials {
                try? FileManager.default.removeItem(at: trialFolder)
                try FileManager.default.createDirectory(at: trialFolder, withIntermediateDirectories: true)
                let store = trialFolder.appendingPathComponent("library.sqlite").path
                try FileManager.default.copyItem(atPath: original, toPath: store)
                let runs = try Executable.runTogether(
                    Array(repeating: migrate(store), count: processes), in: logs, timeout: .seconds(300))
                let migrated = runs.filter { $0.status == 0 && $0.output.contains(": V1 → V2") }
                #expect(migrated.count == 1, "trial \(trial): \(runs.map { ($0.status, $0.output, $0.error) })")
                for run in runs where !(run.status == 0 && run.output.contains(": V1 → V2")) {
                    // A process that starts after the winner has finished finds the store migrated: that is
                    // right too, but it is not a refusal, and it is counted apart.
                    if run.status == 0 && run.output == "\(store) is at V2: no migration needed\n" {
                        late += 1
                        continue
                    }
                    #expect(run.status == 1, "trial \(trial): \(run.error)")
                    let line = try #require(run.errorLines.last, "trial \(trial): nothing on standard error")
                    // The pid is named where the lock file already holds it (the holder writes it just after
                    // taking the lock).
                    let named =
                        line.hasPrefix("error: \(store): the store is being migrated by another process (pid ")
                        && line.hasSuffix("); it was not migrated")
                    #expect(
                        named
                            || line == "error: \(store): the store is being migrated by another process; it was not "
                                + "migrated",
                        "trial \(trial): \(run.error)")
                    refused += 1
                    if !named { withoutPid += 1 }
                }
                let inspect = try Executable.run(["inspect", store, "--model", Self.model, "--json"], in: logs)
                #expect(inspect.status == 0, "trial \(trial): \(inspect.error)")
                let json = try inspect.json()
                #expect(json["matchingVersion"] as? String == "V2", "trial \(trial)")
                #expect(json["entities"] as? [String: Int] == MigrateCommandTests.objects, "trial \(trial)")
                let files = try FileManager.default.contentsOfDirectory(atPath: trialFolder.path)
                #expect(files == ["library.sqlite"], "trial \(trial): \(files)")
            }
            // Every refusal above was checked; the lock must have been met, not only late starters.
            #expect(refused > 0, "no process was ever refused (late: \(late))")
            print(
                "\(processes) processes × \(Self.trials) trials: \(refused) refused (\(withoutPid) without a pid), "
                    + "\(late) started after the end")
        }
    }

    @Test func eightStoresInOneFolderMigrateAtOnce() throws {
        try Executable.withTemporaryFolder { folder in
            let logs = folder.appendingPathComponent("logs")
            let stores = folder.appendingPathComponent("stores")
            for made in [logs, stores] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            }
            let original = logs.appendingPathComponent("original.sqlite").path
            try generate(original, size: 20_000, in: logs)
            let paths = (1...8).map { stores.appendingPathComponent("store-\($0).sqlite").path }
            for path in paths { try FileManager.default.copyItem(atPath: original, toPath: path) }
            let runs = try Executable.runTogether(paths.map(migrate), in: logs, timeout: .seconds(300))
            for (path, run) in zip(paths, runs) {
                #expect(run.status == 0 && run.output.contains("\(path): V1 → V2"), "\(path): \(run.error)")
                let verify = try Executable.run(
                    [
                        "verify", "--source", original, "--destination", path, "--model", Self.model, "--mapping",
                        Self.mapping,
                    ], in: logs)
                #expect(verify.status == 0, "\(path): \(verify.output) \(verify.error)")
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: stores.path).sorted()
            #expect(files == paths.map { ($0 as NSString).lastPathComponent }.sorted())
        }
    }
}

/// A store another process is writing: retried for `--busy-timeout`, then refused with one line, unchanged.
@Suite("a busy store")
struct BusyStoreTests {
    private func store(in folder: URL) throws -> String {
        let store = folder.appendingPathComponent("library.sqlite").path
        let generate = try Executable.run(
            [
                "generate", "--model", MigrateCommandTests.model, "--version", "V1", "--dataset",
                "Scenarios/datasets/library.yaml", "--size", "2000", "--output", store,
            ], in: folder)
        try #require(generate.status == 0, "\(generate.error)")
        return store
    }

    /// A writer that holds its transaction open: the checkpoint cannot finish, and `migrate` gives up.
    @Test func aWriterThatStaysBusyIsRefusedAfterTheTimeout() throws {
        try Executable.withTemporaryFolder { folder in
            let logs = folder.appendingPathComponent("logs")
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            let store = try store(in: folder)
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            let writer = try Connection(path: store, mode: .readWrite)
            try writer.execute("BEGIN IMMEDIATE; UPDATE ZAUTHOR SET ZNAME = ZNAME || '!' WHERE Z_PK = 1")
            let start = ContinuousClock.now
            let run = try Executable.run(
                [
                    "migrate", store, "--model", MigrateCommandTests.model, "--mapping", MigrateCommandTests.mapping,
                    "--busy-timeout", "1",
                ], in: logs)
            let waited = ContinuousClock.now - start
            #expect(run.status == 1)
            #expect(
                run.errorLines.last
                    == "error: \(store): the store is in use by another process (still busy after 1.0 s); it was not "
                    + "migrated", "\(run.error)")
            #expect(waited >= .seconds(1), "gave up after \(waited)")
            try writer.execute("ROLLBACK")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(!files.contains { $0.contains(".migrating-") || $0.contains(".migration-lock") }, "\(files)")
        }
    }

    /// A writer that finishes within the timeout: `migrate` waits for it and migrates.
    @Test func aWriterThatFinishesInTimeIsWaitedFor() throws {
        try Executable.withTemporaryFolder { folder in
            let logs = folder.appendingPathComponent("logs")
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            let store = try store(in: folder)
            let writer = try Connection(path: store, mode: .readWrite)
            try writer.execute("BEGIN IMMEDIATE; UPDATE ZAUTHOR SET ZNAME = ZNAME || '!' WHERE Z_PK = 1")
            let started = try Executable.start(
                [
                    "migrate", store, "--model", MigrateCommandTests.model, "--mapping", MigrateCommandTests.mapping,
                    "--busy-timeout", "60",
                ], in: logs)
            usleep(1_500_000)
            #expect(started.process.isRunning, "did not wait: \(started.error)")
            try writer.execute("COMMIT")
            started.process.waitUntilExit()
            #expect(started.process.terminationStatus == 0, "\(started.error)")
            let inspect = try Executable.run(
                ["inspect", store, "--model", MigrateCommandTests.model, "--json"], in: logs)
            #expect(try inspect.json()["matchingVersion"] as? String == "V2")
        }
    }
}
