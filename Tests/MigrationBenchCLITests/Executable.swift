import Foundation
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
    static func run(_ arguments: [String], in folder: URL) throws -> Run {
        let executable = try #require(url, "migration-bench is not built beside the test bundle")
        let name = UUID().uuidString
        let outputURL = folder.appendingPathComponent("\(name).out")
        let errorURL = folder.appendingPathComponent("\(name).err")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "migration-bench \(arguments) was killed")
        return Run(
            status: process.terminationStatus,
            output: try String(contentsOf: outputURL, encoding: .utf8),
            error: try String(contentsOf: errorURL, encoding: .utf8))
    }

    /// A fresh temporary folder for `body`, removed afterwards, also when `body` throws.
    static func withTemporaryFolder<R>(_ body: (URL) throws -> R) throws -> R {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mb-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}
