import ObjectModel

/// The objects of one entity and its subentities: their primary keys are contiguous.
struct ObjectRange: Sendable {
    let firstPrimaryKey: Int64
    let count: Int

    func primaryKey(ofOrdinal ordinal: Int) -> Int64 { firstPrimaryKey + Int64(ordinal) }
}

/// The destination of one object's to-one relationship.
struct ToOneTarget {
    let primaryKey: Int64
    /// The object's position in the destination's ordered to-many inverse, 1-based.
    let orderKey: Int64
}

/// Decides, object by object in primary-key order, where a to-one relationship points.
protocol ToOneAssignment: AnyObject {
    /// `Entity.relationship`.
    var key: String { get }
    /// The number of edges handed out so far.
    var edges: Int { get }
    /// The target of the object with `ordinal` in the declaring entity's range, or nil for none.
    func target(forOrdinal ordinal: Int) -> ToOneTarget?
}

/// A to-one without an inverse: a random destination for a share of the objects.
final class RandomToOne: ToOneAssignment {
    let key: String
    private(set) var edges = 0
    private let chosen: Spread
    private let targets: ObjectRange
    private var random: RandomSource

    init(key: String, sources: Int, fill: Double, targets: ObjectRange, random: RandomSource) {
        self.key = key
        let filled = targets.count == 0 ? 0 : Int((Double(sources) * fill).rounded(.down))
        self.chosen = Spread(total: sources, chosen: min(filled, sources))
        self.targets = targets
        self.random = random
    }

    func target(forOrdinal ordinal: Int) -> ToOneTarget? {
        guard chosen.rank(of: ordinal) != nil else { return nil }
        edges += 1
        return ToOneTarget(primaryKey: targets.primaryKey(ofOrdinal: random.below(targets.count)), orderKey: 1)
    }
}

/// The to-one side of a one-to-many: children are dealt to parents in blocks, in primary-key order,
/// each parent taking a count drawn from the range and kept within the to-many's min/max counts.
///
/// Streaming: the state is one cursor, however many objects there are. The position in the block is
/// the order key of an ordered to-many.
final class BlockToOne: ToOneAssignment {
    let key: String
    private(set) var edges = 0
    private let chosen: Spread
    private let parents: ObjectRange
    private let range: IntRange
    /// The hard bounds of every parent's count: the dataset's range where the totals allow it,
    /// else the model's min/max counts (no upper bound as `Int.max`).
    private let lowest: Int
    private let highest: Int
    private var random: RandomSource
    private var parent = -1
    private var remainingInBlock = 0
    private var position = 0
    private var childrenLeft: Int

    init(
        key: String,
        children: Int,
        filled: Int,
        parents: ObjectRange,
        range: IntRange,
        minCount: Int,
        maxCount: Int,
        random: RandomSource
    ) {
        self.key = key
        self.chosen = Spread(total: children, chosen: filled)
        self.parents = parents
        self.range = range
        let modelMaximum = maxCount == 0 ? Int.max : maxCount
        let lowest = max(minCount, range.min)
        let highest = min(modelMaximum, range.max)
        let fits =
            lowest <= highest && parents.count * lowest <= filled
            && (highest == Int.max || parents.count * highest >= filled)
        self.lowest = fits ? lowest : minCount
        self.highest = fits ? highest : modelMaximum
        self.random = random
        self.childrenLeft = filled
    }

    func target(forOrdinal ordinal: Int) -> ToOneTarget? {
        guard chosen.rank(of: ordinal) != nil else { return nil }
        while remainingInBlock == 0 {
            parent += 1
            remainingInBlock = drawBlock()
            position = 0
        }
        remainingInBlock -= 1
        childrenLeft -= 1
        position += 1
        edges += 1
        return ToOneTarget(primaryKey: parents.primaryKey(ofOrdinal: parent), orderKey: Int64(position))
    }

    /// How many children the current parent takes, leaving the later parents what their bounds allow.
    ///
    /// The draw keeps the range's spread but is centred on the average still needed, so that the children
    /// run out with the parents instead of piling onto the last one.
    private func drawBlock() -> Int {
        let parentsLeft = parents.count - parent
        if parentsLeft <= 1 { return childrenLeft }
        let others = parentsLeft - 1
        let atLeast = highest == Int.max ? lowest : max(lowest, childrenLeft - others * highest)
        let atMost = min(highest, childrenLeft - others * lowest)
        let needed = Double(childrenLeft) / Double(parentsLeft)
        let offset = Double(random.within(range)) - Double(range.min + range.max) / 2
        let count = max(Int((needed + offset).rounded()), 0)
        return min(max(count, atLeast), atMost)
    }
}

/// Both sides of a one-to-one: the chosen objects of the first side are paired, through a shuffled
/// permutation, with objects of the second; each side finds its partner in O(1) from the other's rules.
final class OneToOnePairing {
    let first: ObjectRange
    let second: ObjectRange
    let pairs: Int
    private let chosen: Spread
    private let permutation: AffinePermutation

    init(first: ObjectRange, second: ObjectRange, pairs: Int, random: inout RandomSource) {
        self.first = first
        self.second = second
        self.pairs = pairs
        self.chosen = Spread(total: first.count, chosen: pairs)
        self.permutation = AffinePermutation(count: second.count, random: &random)
    }

    /// The second-side ordinal paired with first-side `ordinal`.
    func partner(ofFirst ordinal: Int) -> Int? {
        chosen.rank(of: ordinal).map { permutation.apply($0) }
    }

    /// The first-side ordinal paired with second-side `ordinal`.
    func partner(ofSecond ordinal: Int) -> Int? {
        guard second.count > 0 else { return nil }
        let rank = permutation.invert(ordinal)
        return rank < pairs ? chosen.ordinal(ofRank: rank) : nil
    }

    /// One side's view, as a to-one assignment.
    final class Side: ToOneAssignment {
        let key: String
        private(set) var edges = 0
        private let pairing: OneToOnePairing
        private let isFirst: Bool

        init(key: String, pairing: OneToOnePairing, isFirst: Bool) {
            self.key = key
            self.pairing = pairing
            self.isFirst = isFirst
        }

        func target(forOrdinal ordinal: Int) -> ToOneTarget? {
            if isFirst {
                guard let partner = pairing.partner(ofFirst: ordinal) else { return nil }
                edges += 1
                return ToOneTarget(primaryKey: pairing.second.primaryKey(ofOrdinal: partner), orderKey: 1)
            }
            guard let partner = pairing.partner(ofSecond: ordinal) else { return nil }
            edges += 1
            return ToOneTarget(primaryKey: pairing.first.primaryKey(ofOrdinal: partner), orderKey: 1)
        }
    }
}

/// A one-to-one that is its own inverse: objects are paired with each other (a ↔ b), through a shuffled
/// permutation, so that both foreign keys of every pair agree; `paired` objects (an even number) get one.
final class SelfPairing: ToOneAssignment {
    let key: String
    private(set) var edges = 0
    private let objects: ObjectRange
    private let paired: Int
    private let permutation: AffinePermutation

    init(key: String, objects: ObjectRange, paired: Int, random: inout RandomSource) {
        self.key = key
        self.objects = objects
        self.paired = paired
        self.permutation = AffinePermutation(count: objects.count, random: &random)
    }

    func target(forOrdinal ordinal: Int) -> ToOneTarget? {
        guard objects.count > 0 else { return nil }
        let position = permutation.apply(ordinal)
        guard position < paired else { return nil }
        edges += 1
        return ToOneTarget(primaryKey: objects.primaryKey(ofOrdinal: permutation.invert(position ^ 1)), orderKey: 1)
    }
}
