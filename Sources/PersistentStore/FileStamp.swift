#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file's size and modification time, read with `stat`, to notice that something wrote to it.
///
/// Foundation's `attributesOfItem` hands the same figures back as `Any` values whose first casts cost about a
/// million instructions in the Swift runtime, and builds an error object for a file that is not there.
package struct FileStamp: Equatable, Sendable {
    /// The size in bytes.
    package let size: Int
    /// The modification time: seconds since 1970, and nanoseconds within that second.
    package let modifiedSeconds: Int
    package let modifiedNanoseconds: Int

    /// The stamp of the file at `path`, or nil when there is none.
    package init?(of path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        size = Int(status.st_size)
        #if canImport(Darwin)
            (modifiedSeconds, modifiedNanoseconds) = (Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
        #else
            (modifiedSeconds, modifiedNanoseconds) = (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
        #endif
    }

    /// The size in bytes of the file at `path`; nil when there is none.
    package static func size(of path: String) -> Int? {
        FileStamp(of: path)?.size
    }
}
