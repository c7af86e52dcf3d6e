import ObjectModel

/// Where in key order a to-many's edges are held: the quantiles (``FanOutShape/byKey``) of the key position of
/// each edge's source object over all edges. The n source objects in key order share the line from 0 to 1, each a
/// slot of 1/n, and an object's edges are spread evenly over its slot: the object with the lowest primary key holds
/// the edges at 0 … 1/n. So the profile does not depend on the store's size: at ten times the objects, one slot of
/// the measured store is ten objects.
///
/// A store's objects are not alike along their keys: older objects (lower keys) often hold more (the popular
/// courses of a school, the first tags of an app), and which pages of a table an access touches follows from it.
/// Uniform positions give about the levels themselves (p50 = 0.5); edges crowded on the lowest keys give small
/// values (p50 = 0.1: half the edges on the first tenth of the objects). Positions are shares of the key order,
/// no stored value.
enum KeyProfile {
    /// The quantiles of the edges' key positions, from each source object's count in key order; nil without
    /// edges. Type 7, as ``Quantiles/quantile(_:at:)``, over the edges' positions.
    static func quantiles(countsInKeyOrder counts: [Int]) -> Quantiles? {
        let edges = counts.reduce(0, +)
        guard edges > 0 else { return nil }
        var cumulative: [Int] = []
        cumulative.reserveCapacity(counts.count)
        var running = 0
        for count in counts {
            running += count
            cumulative.append(running)
        }
        let objects = Double(counts.count)
        // The position of edge `index` (from 0): in the slot of the first object whose running total exceeds it.
        func position(ofEdge index: Int) -> Double {
            var (low, high) = (0, cumulative.count - 1)
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] > index { high = middle } else { low = middle + 1 }
            }
            let before = low == 0 ? 0 : cumulative[low - 1]
            return (Double(low) + (Double(index - before) + 0.5) / Double(counts[low])) / objects
        }
        let values = Quantiles.levels.map { level -> Double in
            let place = level * Double(edges - 1)
            let below = Int(place.rounded(.down))
            let low = position(ofEdge: below)
            let high = position(ofEdge: min(below + 1, edges - 1))
            return ((low + (place - Double(below)) * (high - low)) * 1_000_000).rounded() / 1_000_000
        }
        return Quantiles(values: values)
    }

    /// `counts` (one per object, in key order) placed again so that the edges' key positions follow `byKey`: the
    /// key order is cut where the quantiles fall, each piece to hold its levels' share of the edges; the counts,
    /// largest first, go each to the piece that still needs the most edges per object it has room for, and are
    /// shuffled within their piece. The counts themselves (their distribution, their total) are unchanged.
    static func arrange(_ counts: [Int], byKey: Quantiles, random: inout RandomSource) -> [Int] {
        let objects = counts.count
        let edges = Double(counts.reduce(0, +))
        guard objects > 1, edges > 0 else { return counts }
        // Pieces of the key order (first ordinal, end, share of the edges), cut where the quantiles fall; a share
        // whose quantiles meet at one place goes to the piece that starts there.
        let places = byKey.values.map { min(max(Int(($0 * Double(objects)).rounded()), 0), objects) }
        var pieces: [(start: Int, end: Int, share: Double)] = []
        var start = 0
        var pending = 0.0
        for index in places.indices {
            let share = index == 0 ? 0 : Quantiles.levels[index] - Quantiles.levels[index - 1]
            if places[index] > start {
                pieces.append((start, places[index], share + pending))
                (start, pending) = (places[index], 0)
            } else {
                pending += share
            }
        }
        if pending > 0 {
            if start < objects {
                pieces.append((start, start + 1, pending))
                start += 1
            } else if !pieces.isEmpty {
                pieces[pieces.count - 1].share += pending
            }
        }
        if start < objects { pieces.append((start, objects, 0)) }

        var deficit = pieces.map { $0.share * edges }
        var room = pieces.map { $0.end - $0.start }
        var held = pieces.map { _ in [Int]() }
        for count in counts.sorted(by: >) {
            var best = -1
            // The piece that still needs the most edges per object it has room for.
            for piece in pieces.indices where room[piece] > 0 {
                if best < 0 || deficit[piece] / Double(room[piece]) > deficit[best] / Double(room[best]) {
                    best = piece
                }
            }
            held[best].append(count)
            deficit[best] -= Double(count)
            room[best] -= 1
        }
        var arranged: [Int] = []
        arranged.reserveCapacity(objects)
        for var piece in held {
            for index in piece.indices.reversed() where index > 0 {
                piece.swapAt(index, random.below(index + 1))
            }
            arranged += piece
        }
        return arranged
    }
}
