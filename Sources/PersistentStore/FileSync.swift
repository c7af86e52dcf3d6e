#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes what was written durable: a file's data, or a folder's entries (a file created or renamed in it),
/// with `fsync`. A store that must survive a crash needs both: its data before it is renamed into place, and
/// its folder after, or the rename itself may be lost.
package enum FileSync {
    /// A system call that failed, with its `errno`.
    package struct Failure: Error, CustomStringConvertible {
        package let operation: String
        package let errno: Int32
        package var description: String { "\(operation): \(String(cString: strerror(errno)))" }
    }

    /// Syncs the file, or with `directory` the folder, at `path`.
    package static func sync(_ path: String, directory: Bool = false) throws(Failure) {
        let descriptor = open(path, directory ? O_RDONLY | O_DIRECTORY : O_RDWR)
        guard descriptor >= 0 else { throw Failure(operation: "open", errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", errno: errno) }
    }

    /// The folder that holds `path` (`.` for a bare name).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
