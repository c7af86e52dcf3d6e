import ObjectModel

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
