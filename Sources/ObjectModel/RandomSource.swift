/// A small, fast, seedable generator (SplitMix64): the same seed gives the same sequence on every platform.
///
/// Shared plumbing for the modules that must be reproducible from a seed (data generation, the engine's
/// `uuid()`); it lives here because every such module already builds on `ObjectModel`.
package struct RandomSource: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    /// A generator for one named stream (an entity or relationship), independent of the order streams are used in.
    package init(seed: UInt64, stream: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stream.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        state = seed ^ hash
        _ = next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }

    /// A value in `0..<bound` (bound > 0), by multiply-shift: fast and unbiased enough for test data.
    package mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: (UInt128(next()) &* UInt128(bound)) >> 64)
    }

    /// A value in `[0, 1)`.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}

extension RandomSource {
    /// The next value, without advancing this copy's caller (a salt derived from the stream).
    package func peek() -> UInt64 {
        var copy = self
        return copy.next()
    }
}
