#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clock `ContinuousClock` reads, as whole nanoseconds, for timing many short intervals: one `clock_gettime`
/// (served without a system call on Linux, by the vDSO) and no arithmetic beyond it. `ContinuousClock.now` reads
/// it as cheaply, but subtracting two instants and turning the `Duration` into seconds costs 128-bit arithmetic on
/// every interval.
///
/// It is the same clock so that intervals timed here (the profiler's segments) and with `ContinuousClock` (the
/// phase meter, the step around them) can be subtracted from one another: Swift's runtime reads
/// `CLOCK_BOOTTIME` on Linux and `CLOCK_MONOTONIC_RAW` on Darwin for `ContinuousClock`
/// (`swift_get_time`, `swift_clock_id_continuous`, in swift/stdlib/public/Concurrency/Clock.cpp).
public enum MonotonicClock {
    /// The clock id `ContinuousClock` reads on this platform.
    #if os(Linux)
        static let clockID = CLOCK_BOOTTIME
    #else
        static let clockID = CLOCK_MONOTONIC_RAW
    #endif

    /// Nanoseconds since an arbitrary moment, never going backwards.
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(clockID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
