import Foundation
import Glibc
import Testing

/// The built `migration-bench` executable, run in a child process as a user would run it.
enum Executable {
    /// What one run printed and how it ended.
    struct Run {
        let status: Int32
        let output: String
        let error: String

        /// Standard output as a JSON object.
        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(output)")
        }

        /// The lines of standard error.
        var errorLines: [String] {
            error.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fixture files, read in place (only copies of the stores are ever opened).
    static let fixtures = packageRoot.appendingPathComponent("Tests/TestFixtures/Fixtures")

    /// The executable, built into the same folder as the test bundle that runs this code.
    static let url: URL? = {
        let manager = FileManager.default
        var candidates: [URL] = []
        if let running = try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: running).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL)
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return candidates.lazy.map { $0.appendingPathComponent("migration-bench") }
            .first { manager.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `migration-bench arguments` to completion, with standard output and error captured in files.
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Run {
        try runTogether([arguments], in: folder, environment: environment)[0]
    }

    /// Starts `migration-bench` once for each argument list, all at once, and waits for every one to end (a run
    /// still going after `timeout` is killed, and the test fails); their runs in the order given. Standard output
    /// and error go through files in `folder`, removed afterwards.
    static func runTogether(
        _ commands: [[String]], in folder: URL, environment: [String: String] = [:],
        timeout: Duration = .seconds(600)
    ) throws -> [Run] {
        var started: [(process: Process, output: URL, error: URL)] = []
        defer {
            for run in started {
                if run.process.isRunning { Glibc.kill(run.process.processIdentifier, SIGKILL) }
                try? FileManager.default.removeItem(at: run.output)
                try? FileManager.default.removeItem(at: run.error)
            }
        }
        for arguments in commands {
            let name = UUID().uuidString
            let output = folder.appendingPathComponent("\(name).out")
            let error = folder.appendingPathComponent("\(name).err")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: error.path, contents: nil)
            let process = try process(arguments, environment: environment)
            let outputHandle = try FileHandle(forWritingTo: output)
            let errorHandle = try FileHandle(forWritingTo: error)
            defer {
                try? outputHandle.close()
                try? errorHandle.close()
            }
            process.standardOutput = outputHandle
            process.standardError = errorHandle
            try process.run()
            started.append((process, output, error))
        }
        let deadline = ContinuousClock.now + timeout
        return try zip(commands, started).map { arguments, run in
            while run.process.isRunning && ContinuousClock.now < deadline { usleep(2_000) }
            if run.process.isRunning {
                Issue.record("migration-bench \(arguments) still ran after \(timeout); killed")
                Glibc.kill(run.process.processIdentifier, SIGKILL)
            }
            run.process.waitUntilExit()
            #expect(run.process.terminationReason == .exit, "migration-bench \(arguments) was killed")
            return Run(
                status: run.process.terminationStatus,
                output: try String(contentsOf: run.output, encoding: .utf8),
                error: try String(contentsOf: run.error, encoding: .utf8))
        }
    }

    /// A running `migration-bench`, for tests that kill it.
    struct Started {
        let process: Process
        let errorURL: URL

        /// What it has written to standard error so far.
        var error: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

        /// Waits until standard error contains `text` or the process ends; false after `timeout`.
        func wait(for text: String, timeout: Duration = .seconds(120)) -> Bool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if error.contains(text) { return true }
                if !process.isRunning { return error.contains(text) }
                usleep(5_000)
            }
            return false
        }

        /// Sends SIGKILL and waits for the process to end.
        func kill() {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Starts `migration-bench arguments` without waiting for it, with `environment` added to the test's;
    /// standard output is discarded.
    static func start(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Started {
        let errorURL = folder.appendingPathComponent("\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = try process(arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        return Started(process: process, errorURL: errorURL)
    }

    /// `migration-bench arguments`, not started, run from the package's root with no standard input.
    private static func process(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let executable: URL = try #require(url, "migration-bench is not built beside the test bundle")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// A fresh temporary folder for `body`, removed afterwards, also when `body` throws.
    static func withTemporaryFolder<R>(_ body: (URL) throws -> R) throws -> R {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mb-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}
