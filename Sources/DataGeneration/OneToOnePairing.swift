import ObjectModel

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
