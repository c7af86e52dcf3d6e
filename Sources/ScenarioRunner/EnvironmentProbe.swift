import Foundation
public import ReportModel
import SQLiteDatabase

/// What the run ran on, for the report.
public enum EnvironmentProbe {
    /// The environment of this process; `allocator` is the heap statistics' description (nil version when
    /// jemalloc is not the allocator).
    public static func current(jemallocVersion: String?, buildConfiguration: String) -> Environment {
        let info = ProcessInfo.processInfo
        return Environment(
            os: osName(), kernel: firstLine(of: "/proc/sys/kernel/osrelease") ?? info.operatingSystemVersionString,
            cpu: cpuModel() ?? "unknown", cpuCount: info.activeProcessorCount, memoryBytes: Int(info.physicalMemory),
            swiftVersion: swiftVersion(), sqliteVersion: Connection.sqliteVersion, jemallocVersion: jemallocVersion,
            gitCommit: command(["git", "rev-parse", "HEAD"]), buildConfiguration: buildConfiguration,
            hostname: info.hostName, architecture: architecture())
    }

    /// The machine's architecture (`uname -m`), such as `x86_64` or `aarch64`.
    private static func architecture() -> String {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func osName() -> String {
        guard let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else {
            return ProcessInfo.processInfo.operatingSystemVersionString
        }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: ["\""])
        }
        return "Linux"
    }

    private static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The compiler this executable was built with.
    private static func swiftVersion() -> String {
        #if compiler(>=6.3)
            let compiler = "6.3 or newer"
        #elseif compiler(>=6.2)
            let compiler = "6.2"
        #elseif compiler(>=6.1)
            let compiler = "6.1"
        #else
            let compiler = "older than 6.1"
        #endif
        // `swift-frontend --version` prints the line `swift --version` prints, without the driver's start-up, which
        // leaves a `TemporaryDirectory.*` behind in `$TMPDIR` every time.
        return command(["swift-frontend", "--version"])?.components(separatedBy: "\n").first ?? "Swift \(compiler)"
    }

    private static func firstLine(of path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").first.map(String.init)
    }

    /// What a command (found through `PATH`) prints, or nil when it cannot run or fails.
    package static func command(_ arguments: [String]) -> String? {
        #if canImport(Darwin) && !os(macOS)
            return nil  // iOS and its kin run no other programs
        #else
            return run(arguments)
        #endif
    }

    #if !canImport(Darwin) || os(macOS)
        private static func run(_ arguments: [String]) -> String? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    #endif
}
