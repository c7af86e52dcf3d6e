#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's monotonic clock read as whole nanoseconds, for timing many short intervals: one
/// `clock_gettime(CLOCK_MONOTONIC)` (served without a system call on Linux, by the vDSO) and no arithmetic
/// beyond it. `ContinuousClock.now` reads a clock as cheaply, but subtracting two instants and turning the
/// `Duration` into seconds costs 128-bit arithmetic on every interval.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary moment, never going backwards.
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
