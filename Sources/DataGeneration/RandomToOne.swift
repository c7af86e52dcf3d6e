import ObjectModel

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
