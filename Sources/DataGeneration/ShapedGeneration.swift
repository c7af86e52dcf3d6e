import ObjectModel

/// Values of one attribute drawn from a measured distribution (``AttributeShape``), evenly over the objects:
/// each object's rank in a shuffled order (an ``AffinePermutation`` of its ordinal) decides whether it is nil
/// (the first `nulls` ranks) and else its level in the distribution, so that the nil count and the quantiles of
/// the generated values are those asked for, at any size, without state.
struct ShapedValues {
    /// The first primary key of the entity's own rows, from which ordinals count.
    let firstPrimaryKey: Int64
    let count: Int
    let nulls: Int
    let permutation: AffinePermutation
    let quantiles: Quantiles?
    let lengths: Quantiles?
    /// Integer values and the cumulative share up to and including each, for booleans (0, 1) and enumerations.
    let frequencies: [(value: Int64, cumulative: Double)]?
    /// Values are drawn from this many different ones (0: unrestricted).
    let pool: Int

    /// One object's draw: its level in the distribution (0 … 1, the ends included), its stratum (the middle of
    /// its share, for frequencies), with a pool, the index of its value in it, and the number of levels drawn
    /// (the pool's values, else the non-nil values).
    struct Draw {
        let level: Double
        let stratum: Double
        let poolIndex: Int?
        let draws: Int
    }

    init(
        shape: AttributeShape, nullRatio: Double, count: Int, firstPrimaryKey: Int64, random: inout RandomSource
    ) {
        self.firstPrimaryKey = firstPrimaryKey
        self.count = count
        self.nulls = min(Int((Double(count) * min(max(nullRatio, 0), 1)).rounded()), count)
        self.permutation = AffinePermutation(count: count, random: &random)
        self.quantiles = shape.quantiles
        self.lengths = shape.lengths
        self.frequencies = shape.frequencies.flatMap { table in
            var entries = table.compactMap { key, share -> (Int64, Double)? in
                switch key {
                case "true": (1, share)
                case "false": (0, share)
                default: Int64(key).map { ($0, share) }
                }
            }.sorted { $0.0 < $1.0 }
            guard !entries.isEmpty else { return nil }
            let total = entries.reduce(0) { $0 + $1.1 }
            var running = 0.0
            for index in entries.indices {
                running += entries[index].1 / (total > 0 ? total : 1)
                entries[index].1 = running
            }
            return entries.map { (value: $0.0, cumulative: $0.1) }
        }
        let values = count - nulls
        // A pool makes duplicates of strings and binary values; numbers repeat as their quantiles say.
        let share = shape.quantiles == nil && shape.frequencies == nil ? shape.distinctShare ?? 1 : 1
        self.pool = share >= 1 || values == 0 ? 0 : max(1, Int((share * Double(values)).rounded()))
    }

    /// The draw of the object with `primaryKey`, or nil when it is nil.
    func draw(primaryKey: Int64) -> Draw? {
        let rank = permutation.apply(Int(primaryKey - firstPrimaryKey))
        guard rank >= nulls else { return nil }
        let valueRank = rank - nulls
        let values = count - nulls
        let stratum = (Double(valueRank) + 0.5) / Double(values)
        if pool > 0 {
            // Consecutive ranks share a value, so that every value has as many objects and the levels stay even.
            let index = Int(Int128(valueRank) * Int128(pool) / Int128(values))
            return Draw(
                level: Quantiles.level(ofRank: index, count: pool), stratum: stratum, poolIndex: index, draws: pool)
        }
        return Draw(
            level: Quantiles.level(ofRank: valueRank, count: values), stratum: stratum, poolIndex: nil, draws: values)
    }

    /// The integer at `draw`: from the frequencies, else the quantiles, kept within `range`; nil without either.
    func integer(_ draw: Draw, in range: ClosedRange<Int64>) -> Int64? {
        if let value = frequentValue(draw) { return min(max(value, range.lowerBound), range.upperBound) }
        guard let value = quantiles?.value(at: draw.level).rounded() else { return nil }
        if value >= Double(range.upperBound) { return range.upperBound }
        if value <= Double(range.lowerBound) { return range.lowerBound }
        return Int64(value)
    }

    /// The integer at `draw` from the frequencies, or nil without them.
    func frequentValue(_ draw: Draw) -> Int64? {
        guard let frequencies else { return nil }
        return (frequencies.first { draw.stratum < $0.cumulative } ?? frequencies.last!).value
    }
}

/// The counts of a to-many fan-out drawn from its measured quantiles, one per source object in ordinal order:
/// each object's rank in a shuffled order gives its level in the distribution. When a total is asked for (the
/// children that have a parent, or the mean fan-out times the objects), the objects drawn from the top 5 % of
/// the distribution are scaled, with carried rounding, to make it up: the tail of a measured distribution is the
/// part its quantiles tell least well (a single largest object), and scaling only the tail keeps the rest of the
/// distribution as measured (a Kolmogorov–Smirnov distance of at most 0.05 from it). When the tail cannot make up
/// the difference, every count is scaled.
///
/// Streaming: the scale comes from a first walk over the draws, which keeps nothing.
struct ShapedFanOut {
    /// The level from which draws belong to the tail.
    static let tailLevel = 0.95

    let sources: Int
    private let permutation: AffinePermutation
    private let fanOut: Quantiles
    private let bodyScale: Double
    private let tailScale: Double
    /// Bounds of each count (the model's, and the number of destination objects for a join table).
    private let lowest: Int
    private let highest: Int
    private var drawnSoFar = 0.0
    private var handedOut = 0
    /// With a measured key profile: every object's count, placed as ``KeyProfile/arrange(_:byKey:random:)`` says.
    private var arranged: [Int]?
    /// The sum of the counts as they will be handed out.
    let total: Int

    /// - Parameters:
    ///   - total: the number of edges to hand out, or nil to hand out the draws as they are.
    ///   - byKey: where in key order the edges are held (``FanOutShape/byKey``); without it, the counts fall on
    ///     the objects in a shuffled order. With it, the counts are drawn first (8 bytes per object) and placed
    ///     along the keys as it says.
    init(
        fanOut: Quantiles, sources: Int, total: Int?, lowest: Int, highest: Int, byKey: Quantiles? = nil,
        random: inout RandomSource
    ) {
        self.sources = sources
        self.fanOut = fanOut
        self.permutation = AffinePermutation(count: sources, random: &random)
        self.lowest = lowest
        self.highest = max(highest, lowest)
        var (body, tail) = (0.0, 0.0)
        for ordinal in 0..<sources {
            let (count, isTail) = Self.raw(fanOut, permutation, ordinal, sources, lowest, max(highest, lowest))
            if isTail { tail += count } else { body += count }
        }
        switch total.map(Double.init) {
        case let wanted? where tail > 0 && wanted >= body:
            (bodyScale, tailScale) = (1, (wanted - body) / tail)
        case let wanted? where body + tail > 0:
            (bodyScale, tailScale) = (wanted / (body + tail), wanted / (body + tail))
        default:
            (bodyScale, tailScale) = (1, 1)
        }
        self.total = total ?? Int((body + tail).rounded())
        if let byKey {
            var drawing = self
            let counts = (0..<sources).map { drawing.next(ordinal: $0) }
            arranged = KeyProfile.arrange(counts, byKey: byKey, random: &random)
        }
    }

    private static func raw(
        _ fanOut: Quantiles, _ permutation: AffinePermutation, _ ordinal: Int, _ sources: Int, _ lowest: Int,
        _ highest: Int
    ) -> (count: Double, isTail: Bool) {
        let level = Quantiles.level(ofRank: permutation.apply(ordinal), count: sources)
        let count = min(max(fanOut.countValue(at: level, draws: sources).rounded(), Double(lowest)), Double(highest))
        return (count, level >= tailLevel)
    }

    /// The count of the next source object (call in ordinal order, once each).
    mutating func next(ordinal: Int) -> Int {
        if let arranged { return arranged.indices.contains(ordinal) ? arranged[ordinal] : 0 }
        let (count, isTail) = Self.raw(fanOut, permutation, ordinal, sources, lowest, highest)
        drawnSoFar += count * (isTail ? tailScale : bodyScale)
        let handed = min(max(Int(drawnSoFar.rounded()) - handedOut, lowest), highest)
        handedOut += handed
        return handed
    }
}

/// The to-one side of a one-to-many whose to-many side has a measured fan-out: parents take their counts from
/// ``ShapedFanOut`` (scaled to the children that have a parent), children are dealt to them in primary-key order,
/// and placed in an ordered parent's list as ``ListOrder`` says.
final class ShapedBlockToOne: ToOneAssignment {
    let key: String
    private(set) var edges = 0
    private let chosen: Spread
    private let parents: ObjectRange
    private var fanOut: ShapedFanOut
    private var order: ListOrder
    private var parent = -1
    private var remainingInBlock = 0
    private var blockSize = 0
    private var index = 0

    init(
        key: String, children: Int, filled: Int, parents: ObjectRange, fanOut: Quantiles, minCount: Int, maxCount: Int,
        inKeyOrder: Double? = nil, byKey: Quantiles? = nil, random: inout RandomSource
    ) {
        self.key = key
        self.chosen = Spread(total: children, chosen: filled)
        self.parents = parents
        self.order = ListOrder(
            inKeyOrder: inKeyOrder, random: RandomSource(seed: random.peek(), stream: "\(key) order"))
        self.fanOut = ShapedFanOut(
            fanOut: fanOut, sources: parents.count, total: filled, lowest: minCount,
            highest: maxCount == 0 ? Int.max / 2 : maxCount, byKey: byKey, random: &random)
    }

    func target(forOrdinal ordinal: Int) -> ToOneTarget? {
        guard chosen.rank(of: ordinal) != nil, parents.count > 0 else { return nil }
        while remainingInBlock == 0 {
            guard parent + 1 < parents.count else {
                // The carried rounding fell short by a child or two: the last parent takes them.
                remainingInBlock = 1
                break
            }
            parent += 1
            remainingInBlock = fanOut.next(ordinal: parent)
            blockSize = remainingInBlock
            index = 0
        }
        remainingInBlock -= 1
        index += 1
        edges += 1
        // A child past the drawn block (the last parent's share of the rounding) goes at the end of the list.
        let position = index <= blockSize ? order.position(ofIndex: index, in: blockSize) : index
        return ToOneTarget(primaryKey: parents.primaryKey(ofOrdinal: parent), orderKey: Int64(position))
    }
}

/// Where each child goes in its parent's ordered list, so that the share of consecutive children whose keys
/// ascend is about ``FanOutShape/inKeyOrder`` (s): the children, dealt in key order, are listed in that order
/// when s ≥ 0.5 (else in reverse), and neighbouring pairs (1 2, 3 4, …) swap places each with the chance that
/// makes the expected share s in a list of n — each swap turns one of its n − 1 steps the other way. Streaming:
/// the state is the swap decided for the pair under way. Without s, or with s = 1, the key order, drawing nothing.
struct ListOrder {
    private let inKeyOrder: Double?
    private var random: RandomSource
    private var swapped = false

    init(inKeyOrder: Double?, random: RandomSource) {
        self.inKeyOrder = inKeyOrder
        self.random = random
    }

    /// The 1-based place in a list of `size` of the child that is `index`th (from 1) in key order; call for
    /// each index of a list in turn.
    mutating func position(ofIndex index: Int, in size: Int) -> Int {
        guard let share = inKeyOrder, share < 1, size > 1 else { return index }
        let (chance, reversed) = Self.rule(share: share, size: size)
        if index % 2 == 1 { swapped = index < size && random.unit() < chance }
        let partner = Self.partner(ofIndex: index, swapped: swapped)
        return reversed ? size - partner + 1 : partner
    }

    /// The chance that a pair of neighbours swaps in a list of `size`, and whether the list runs against the
    /// keys, for a share `share` of ascending steps.
    static func rule(share: Double, size: Int) -> (chance: Double, reversed: Bool) {
        let reversed = share < 0.5
        let turned = (reversed ? share : 1 - share) * Double(size - 1)
        return (min(1, turned / Double(max(size / 2, 1))), reversed)
    }

    /// The place, in key order, that the `index`th object takes: its neighbour's when its pair is `swapped`.
    static func partner(ofIndex index: Int, swapped: Bool) -> Int {
        guard swapped else { return index }
        return index % 2 == 1 ? index + 1 : index - 1
    }
}

/// Where each source object goes in the lists of the destinations of a many-to-many that is ordered on the
/// other side too (``FanOutShape/inKeyOrder`` of the inverse): the sources come in key order, so each
/// destination's list receives them in key order, and ``ListOrder``'s rule places them — pairs of neighbours
/// swap with its chance for the destination's expected list size, decided by a draw seeded with the destination
/// and the pair (no state but a count per destination: 4 bytes each); a list against the keys takes places
/// counted down from the number of sources, so that every place is positive.
struct TargetListOrder {
    private let share: Double
    private let seed: UInt64
    private let highest: Int64
    private var counts: [Int32]

    init(share: Double, targets: Int, sources: Int, seed: UInt64) {
        self.share = share
        self.seed = seed
        self.highest = Int64(sources) + 1
        self.counts = Array(repeating: 0, count: targets)
    }

    /// The place of the next source in the list of destination `ordinal`, whose expected size is `size`.
    mutating func position(ofTarget ordinal: Int, expectedSize size: Int) -> Int64 {
        counts[ordinal] += 1
        let index = Int(counts[ordinal])
        guard share < 1, size > 1 else { return Int64(index) }
        let (chance, reversed) = ListOrder.rule(share: share, size: size)
        let pair = (index + 1) / 2
        var draw = RandomSource(seed: seed ^ (UInt64(ordinal) << 24 ^ UInt64(pair)))
        let swapped = 2 * pair <= size && draw.unit() < chance
        let partner = Int64(ListOrder.partner(ofIndex: index, swapped: swapped))
        return reversed ? highest - partner : partner
    }
}

/// The destination objects of a many-to-many whose inverse has a measured fan-out: each destination object
/// takes a share of the edges given by its draw from the inverse's quantiles, edges are spread over those shares
/// through a shuffled order, and an object never gets the same destination twice.
///
/// Keeps the running totals of the destinations' shares: 8 bytes per destination object. One instance serves
/// every subentity of the driving entity, so that the slots are taken once each.
final class ShapedTargets {
    private let targets: ObjectRange
    private let cumulative: [Int64]
    /// The order in which the edge slots are dealt: a keyed permutation with no lattice, so that each destination's
    /// sources are chosen as independently as in a store filled by people (``FeistelPermutation``).
    private let permutation: FeistelPermutation
    private let edges: Int
    private var next = 0
    /// With a measured order of the destinations' own lists: where each source goes in them.
    private var listOrder: TargetListOrder?
    /// Slots a source object could not take (their destination was already its own), for the next ones.
    private var deferred: [Int] = []

    /// - Parameter inKeyOrder: the measured order of the destinations' lists, when they are ordered too.
    init(
        targets: ObjectRange, fanOut: Quantiles, byKey: Quantiles? = nil, edges: Int, sources: Int,
        inKeyOrder: Double? = nil, random: inout RandomSource
    ) {
        self.targets = targets
        var weights = ShapedFanOut(
            fanOut: fanOut, sources: targets.count, total: edges, lowest: 0, highest: max(sources, 1), byKey: byKey,
            random: &random)
        var running: Int64 = 0
        var cumulative: [Int64] = []
        cumulative.reserveCapacity(targets.count)
        for ordinal in 0..<targets.count {
            running += Int64(weights.next(ordinal: ordinal))
            cumulative.append(running)
        }
        self.cumulative = cumulative
        self.edges = max(edges, 1)
        self.permutation = FeistelPermutation(count: self.edges, random: &random)
        if let inKeyOrder {
            listOrder = TargetListOrder(
                share: inKeyOrder, targets: targets.count, sources: sources, seed: random.next())
        }
    }

    /// The place of the next source (sources come in key order) in the list of destination `ordinal`, or nil
    /// when the destinations' lists have no measured order.
    func position(inListOf ordinal: Int) -> Int64? {
        guard listOrder != nil else { return nil }
        let size = Int(cumulative[ordinal] - (ordinal == 0 ? 0 : cumulative[ordinal - 1]))
        return listOrder!.position(ofTarget: ordinal, expectedSize: size)
    }

    /// `count` different destination ordinals for the next source object.
    ///
    /// Slots are taken in a shuffled order; a slot whose destination the object already has is deferred to the
    /// next objects, so that every destination still gets its share of the edges.
    func pick(_ count: Int) -> [Int] {
        let count = min(count, targets.count)
        var picked: [Int] = []
        picked.reserveCapacity(count)
        // Many edges: remember them in a set, not by searching the list.
        var seen = count > 32 ? Set<Int>(minimumCapacity: count) : nil
        var stillDeferred: [Int] = []
        var pending = deferred[...]
        var attempts = 0
        while picked.count < count {
            let slot: Int
            if let first = pending.first {
                slot = first
                pending = pending.dropFirst()
            } else {
                slot = permutation.apply(next % edges)
                next += 1
            }
            attempts += 1
            var ordinal = target(ofSlot: slot)
            if seen?.contains(ordinal) ?? picked.contains(ordinal) {
                guard attempts > 4 * count + 64 else {
                    stillDeferred.append(slot)
                    continue
                }
                // Too crowded: the next destination along instead.
                while seen?.contains(ordinal) ?? picked.contains(ordinal) { ordinal = (ordinal + 1) % targets.count }
            }
            picked.append(ordinal)
            seen?.insert(ordinal)
        }
        deferred = Array(pending) + stillDeferred
        return picked
    }

    private func target(ofSlot slot: Int) -> Int {
        let weight = cumulative.last ?? 0
        guard weight > 0 else { return slot % targets.count }
        return Self.firstAbove(Int64((Double(slot) + 0.5) / Double(edges) * Double(weight)), in: cumulative)
    }

    /// The first index whose running total exceeds `position`.
    private static func firstAbove(_ position: Int64, in cumulative: [Int64]) -> Int {
        var (low, high) = (0, cumulative.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > position { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
