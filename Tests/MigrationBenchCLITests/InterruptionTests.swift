import Foundation
import Glibc
import Testing

/// SIGINT and SIGTERM stop a command and its children and remove every working file; a parent killed with
/// SIGKILL takes its children with it.
@Suite("Interrupted commands")
struct InterruptionTests {
    /// A scenario whose one cell generates and migrates a store large enough to be interrupted in the middle.
    private func scenario(in folder: URL) throws -> String {
        let root = Executable.packageRoot.path
        let text = """
            name: long-cell
            model: \(root)/Scenarios/models/library.yaml
            chain: [V1, V2]
            mappings: [\(root)/Scenarios/mappings/library-v1-v2.yaml]
            dataset: \(root)/Scenarios/datasets/library.yaml
            sizes: { quick: [3000000], full: [3000000] }
            modes: { storage: [streaming] }
            repetitions: { quick: 1, full: 1 }
            """
        let path = folder.appendingPathComponent("long-cell.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedRunStopsItsCellAndLeavesNoFiles(signal: Int32) throws {
        try Executable.withTemporaryFolder { folder in
            let reports = folder.appendingPathComponent("reports")
            // Its own temporary folder, to see that nothing is left there either.
            let temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let started = try Executable.start(
                ["run", try scenario(in: folder), "--quick", "--out", reports.path], in: folder,
                environment: ["TMPDIR": temporary.path])
            let parent = started.process.processIdentifier
            let child = try #require(Self.waitForChild(of: parent), "no run-cell child started")
            try #require(Self.waitForFile(under: reports, named: "source.sqlite"), "the cell wrote no store")
            kill(parent, signal)
            started.process.waitUntilExit()
            #expect(started.process.terminationReason == .exit)
            #expect(started.process.terminationStatus == 128 + signal, "\(started.error)")
            #expect(Self.waitUntilGone(child), "the run-cell child outlived the run")
            let left = (try? FileManager.default.subpathsOfDirectory(atPath: reports.path)) ?? []
            #expect(left.isEmpty, "left behind: \(left)")
            let strays = (try? FileManager.default.subpathsOfDirectory(atPath: temporary.path)) ?? []
            #expect(strays.isEmpty, "left in TMPDIR: \(strays)")
        }
    }

    /// The parent killed outright cannot clean up, but its child is told by the kernel and stops.
    @Test func aChildDoesNotOutliveAKilledRun() throws {
        try Executable.withTemporaryFolder { folder in
            let reports = folder.appendingPathComponent("reports")
            let started = try Executable.start(
                ["run", try scenario(in: folder), "--quick", "--out", reports.path], in: folder)
            let child = try #require(Self.waitForChild(of: started.process.processIdentifier))
            started.kill()
            #expect(Self.waitUntilGone(child), "the run-cell child outlived its killed parent")
            let stores = ((try? FileManager.default.subpathsOfDirectory(atPath: reports.path)) ?? [])
                .filter { $0.contains(".sqlite") }
            #expect(stores.isEmpty, "the child left its stores: \(stores)")
        }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedGenerateLeavesNoPartialStore(signal: Int32) throws {
        try Executable.withTemporaryFolder { folder in
            let output = folder.appendingPathComponent("big.sqlite")
            let started = try Executable.start(
                [
                    "generate", "--model", "Scenarios/models/library.yaml", "--version", "V1", "--dataset",
                    "Scenarios/datasets/library.yaml", "--size", "3000000", "--output", output.path,
                ], in: folder)
            try #require(Self.waitForFile(under: folder, named: "big.sqlite.partial-"), "no partial store appeared")
            kill(started.process.processIdentifier, signal)
            started.process.waitUntilExit()
            #expect(started.process.terminationStatus == 128 + signal, "\(started.error)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("big") }
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    /// `migrate` cancels cleanly on the first interruption; one stuck where it cannot check (paused) is ended by
    /// the second, its working stores removed and the store left at its version.
    @Test(arguments: ["step-finished-1", "sealed"])
    func aTwiceInterruptedMigrateLeavesNoWorkingStore(point: String) throws {
        try Executable.withTemporaryFolder { folder in
            let store = folder.appendingPathComponent("library.sqlite").path
            let model = "Scenarios/models/library.yaml"
            let generate = try Executable.run(
                [
                    "generate", "--model", model, "--version", "V1", "--dataset", "Scenarios/datasets/library.yaml",
                    "--size", "2000", "--output", store,
                ], in: folder)
            try #require(generate.status == 0, "\(generate.error)")
            let started = try Executable.start(
                [
                    "migrate", store, "--model", model, "--mapping", "Scenarios/mappings/library-v1-v2.yaml",
                    "--pause-at", point,
                ],
                in: folder)
            try #require(started.wait(for: "paused at \(point)"), "never paused: \(started.error)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.contains(".migrating-") }
            )
            kill(started.process.processIdentifier, SIGINT)
            usleep(200_000)
            kill(started.process.processIdentifier, SIGINT)
            started.process.waitUntilExit()
            #expect(started.process.terminationStatus == 128 + SIGINT, "\(started.error)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.contains(".migrating-")
            }
            #expect(left.isEmpty, "left behind: \(left)")
            let inspect = try Executable.run(["inspect", store, "--model", model, "--json"], in: folder)
            #expect(try inspect.json()["matchingVersion"] as? String == "V1")
        }
    }

    /// The first child process of `parent`, waited for up to two minutes.
    static func waitForChild(of parent: Int32) -> Int32? {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), let stat = Self.stat(pid), stat.parent == parent else { continue }
                return pid
            }
            usleep(20_000)
        }
        return nil
    }

    /// Whether a file whose path contains `name` appears under `folder` within two minutes.
    static func waitForFile(under folder: URL, named name: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let paths = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
            if paths.contains(where: { $0.contains(name) }) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Whether process `pid` stops running (gone, or a zombie that runs nothing) within ten seconds.
    static func waitUntilGone(_ pid: Int32) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard let stat = stat(pid), stat.state != "Z" else { return true }
            usleep(20_000)
        }
        return false
    }

    /// The state letter and parent id in `/proc/<pid>/stat`, nil when there is no such process.
    static func stat(_ pid: Int32) -> (state: Substring, parent: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (fields[0], parent)
    }
}
