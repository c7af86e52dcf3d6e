import Instrumentation
import Testing

/// The profiler's segments (``MonotonicClock``) and the phase meter around them (`ContinuousClock`) read one clock,
/// so that a stage's unattributed time (the phase's less its segments') is never a difference of two clocks.
@Suite struct MonotonicClockTests {
    @Test func readsTheClockContinuousClockReads() {
        let epoch = ContinuousClock().systemEpoch
        let nanoseconds = { (instant: ContinuousClock.Instant) -> Int64 in
            let elapsed = (instant - epoch).components
            return elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000
        }
        let before = nanoseconds(.now)
        let read = Int64(MonotonicClock.nanoseconds())
        let after = nanoseconds(.now)
        // CLOCK_MONOTONIC and CLOCK_BOOTTIME (ContinuousClock's on Linux) differ by the time the machine has
        // slept since it booted: on a machine that never slept they agree, and this cannot tell them apart.
        #expect(before <= read && read <= after, "\(before) \(read) \(after)")
    }
}
