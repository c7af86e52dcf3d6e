import ObjectModel

/// Picks exactly `chosen` of `total` ordinals, evenly spread, without state or randomness.
///
/// Ordinal `i` is chosen when `⌊(i+1)·chosen/total⌋ > ⌊i·chosen/total⌋`; its rank among the chosen is
/// `⌊i·chosen/total⌋`. Both directions are O(1), which lets the two sides of a one-to-one agree on their
/// partners without remembering anything.
struct Spread: Sendable {
    let total: Int
    let chosen: Int

    init(total: Int, chosen: Int) {
        precondition(chosen >= 0 && chosen <= total)
        self.total = total
        self.chosen = chosen
    }

    /// The rank of ordinal `i` among the chosen ones, or nil when it is not chosen.
    func rank(of ordinal: Int) -> Int? {
        guard chosen > 0 else { return nil }
        let before = (ordinal * chosen) / total
        let after = ((ordinal + 1) * chosen) / total
        return after > before ? before : nil
    }

    /// The ordinal with rank `rank`.
    func ordinal(ofRank rank: Int) -> Int {
        ((rank + 1) * total + chosen - 1) / chosen - 1
    }
}

/// A bijection of `0..<count`, `i ↦ (a·i + c) mod count`, with its inverse: partners that look shuffled.
struct AffinePermutation: Sendable {
    let count: Int
    private let multiplier: Int
    private let inverseMultiplier: Int
    private let offset: Int

    init(count: Int, random: inout RandomSource) {
        self.count = max(count, 1)
        var multiplier = self.count > 2 ? Int(random.below(self.count - 1)) + 1 : 1
        while Self.gcd(multiplier, self.count) != 1 { multiplier += 1 }
        self.multiplier = multiplier % self.count == 0 ? 1 : multiplier
        self.inverseMultiplier = Self.modularInverse(self.multiplier, self.count)
        self.offset = random.below(self.count)
    }

    func apply(_ value: Int) -> Int {
        Int((Int128(multiplier) * Int128(value) + Int128(offset)) % Int128(count))
    }

    func invert(_ value: Int) -> Int {
        let shifted = ((value - offset) % count + count) % count
        return Int((Int128(inverseMultiplier) * Int128(shifted)) % Int128(count))
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    private static func modularInverse(_ a: Int, _ modulus: Int) -> Int {
        guard modulus > 1 else { return 0 }
        var (oldR, r) = (a, modulus)
        var (oldS, s) = (1, 0)
        while r != 0 {
            let quotient = oldR / r
            (oldR, r) = (r, oldR - quotient * r)
            (oldS, s) = (s, oldS - quotient * s)
        }
        return (oldS % modulus + modulus) % modulus
    }
}

/// A keyed permutation of `0..<count` with no structure between neighbouring values: a four-round Feistel network
/// over the smallest square power of two that holds `count` (two halves of equal bits), a value that falls outside
/// the range walked on until it falls inside (cycle-walking; fewer than four steps on average). An
/// ``AffinePermutation`` sends consecutive values a fixed stride apart, a lattice: dealing a many-to-many's edge
/// slots through one gave each destination sources evenly spaced along the keys, where independent choices give
/// random ones (on `scripts/shape-benchmark`'s store, 42 % more pages read by the migration than the same
/// counts paired at random). Stateless: 48 bytes, its four round keys held inline (no heap).
struct FeistelPermutation: Sendable {
    let count: Int
    private let halfBits: UInt64
    private let key0: UInt64
    private let key1: UInt64
    private let key2: UInt64
    private let key3: UInt64

    init(count: Int, random: inout RandomSource) {
        self.count = max(count, 1)
        var bits: UInt64 = 1
        while UInt64(1) << (2 * bits) < UInt64(self.count) { bits += 1 }
        self.halfBits = bits
        (key0, key1, key2, key3) = (random.next(), random.next(), random.next(), random.next())
    }

    /// The image of `value`, which must lie in `0..<count`.
    func apply(_ value: Int) -> Int {
        precondition(value >= 0 && value < count, "FeistelPermutation: \(value) outside 0..<\(count)")
        var walked = UInt64(value)
        repeat { walked = encrypt(walked) } while walked >= UInt64(count)
        return Int(walked)
    }

    private func encrypt(_ value: UInt64) -> UInt64 {
        let mask = (UInt64(1) << halfBits) - 1
        var (left, right) = (value >> halfBits, value & mask)
        func round(_ key: UInt64) { (left, right) = (right, left ^ (Self.mix(right &+ key) & mask)) }
        round(key0)
        round(key1)
        round(key2)
        round(key3)
        return left << halfBits | right
    }

    /// SplitMix64's finalizer: every bit of the result depends on every bit of `value`.
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }
}
