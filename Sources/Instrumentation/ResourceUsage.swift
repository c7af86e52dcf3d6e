#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CPU time and memory of this process, from the operating system.
public struct ResourceUsage: Sendable, Hashable {
    /// CPU seconds spent in user mode.
    public let userSeconds: Double
    /// CPU seconds spent in the kernel.
    public let systemSeconds: Double
    /// The resident-set high-water mark, in bytes.
    public let maxResidentBytes: Int

    /// The usage of this process so far.
    public static func current() -> ResourceUsage {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        #if os(Linux)
            let scale = 1024  // ru_maxrss is in KiB on Linux
        #else
            let scale = 1  // and in bytes on Darwin
        #endif
        return ResourceUsage(
            userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
            maxResidentBytes: Int(usage.ru_maxrss) * scale)
    }
}
