import Foundation

/// Memory and I/O figures of this process from Linux's `/proc/self`; nil where the system has no such file.
public enum ProcessStatus {
    /// The resident set now, in bytes (`/proc/self/statm`).
    public static func residentBytes() -> Int? {
        guard let text = read("/proc/self/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The resident set's high-water mark since the process started or the last ``resetPeakResident()``,
    /// in bytes (`VmHWM` in `/proc/self/status`).
    public static func peakResidentBytes() -> Int? {
        guard let text = read("/proc/self/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst(6).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Restarts the resident high-water mark from the current resident set (writes 5 to
    /// `/proc/self/clear_refs`); false where the system does not allow it.
    @discardableResult
    public static func resetPeakResident() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// Bytes this process has passed through read and write calls (`rchar`, `wchar` of `/proc/self/io`):
    /// what SQLite asked of the file system, whether the page cache served it or the disk did.
    public static func ioBytes() -> (read: Int, written: Int)? {
        guard let text = read("/proc/self/io") else { return nil }
        var values: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            if parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) {
                values[parts[0]] = value
            }
        }
        guard let read = values["rchar"], let written = values["wchar"] else { return nil }
        return (read, written)
    }

    private static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
