import Foundation

/// A distribution told by its quantiles at fixed levels (``levels``): p0, p5, …, p95, then p96 … p99, p99.5,
/// p99.9 and p100, so that a long tail (a few very long strings, a power-law fan-out) keeps its shape.
///
/// Written in dataset files as the list of values, one per level. Values between levels are interpolated
/// linearly, as the quantiles were measured (R's type 7: the sorted values' positions `p·(n−1)`).
public struct Quantiles: Sendable, Hashable, Codable {
    /// The levels, from 0 to 1.
    public static let levels: [Double] =
        (0...19).map { Double($0) / 20 } + [0.96, 0.97, 0.98, 0.99, 0.995, 0.999, 1]

    /// One value per level.
    public var values: [Double]

    /// Quantiles from their values, one per level.
    public init?(values: [Double]) {
        guard values.count == Self.levels.count, values.allSatisfy(\.isFinite),
            zip(values, values.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return nil }
        self.values = values
    }

    /// The quantiles of `sorted` (ascending, not empty), each value passed through `round`.
    public init(sorted: [Double], round: (Double) -> Double = { $0 }) {
        values = Self.levels.map { round(Self.quantile(sorted, at: $0)) }
        // Rounding keeps the order, but make it plain for readers of the file.
        for index in values.indices.dropFirst() where values[index] < values[index - 1] {
            values[index] = values[index - 1]
        }
    }

    /// The type-7 quantile of `sorted` at level `p`.
    public static func quantile(_ sorted: [Double], at p: Double) -> Double {
        guard sorted.count > 1 else { return sorted.first ?? 0 }
        let position = p * Double(sorted.count - 1)
        let low = Int(position.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (position - Double(low)) * (sorted[high] - sorted[low])
    }

    /// Decodes the list of values, one per level.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        let values = try single.decode([Double].self)
        guard let quantiles = Quantiles(values: values) else {
            throw DecodingError.dataCorruptedError(
                in: single,
                debugDescription: "expected \(Self.levels.count) ascending numbers (quantiles p0 … p100)")
        }
        self = quantiles
    }

    /// Encodes the list of values.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(values)
    }

    /// The value at level `u` (0 … 1), interpolated between the levels around it.
    public func value(at u: Double) -> Double {
        let levels = Self.levels
        guard u > 0 else { return values[0] }
        guard u < 1 else { return values[values.count - 1] }
        // Levels are few (27): a linear walk is as fast as a search.
        var index = 1
        while levels[index] < u { index += 1 }
        let (low, high) = (levels[index - 1], levels[index])
        return values[index - 1] + (u - low) / (high - low) * (values[index] - values[index - 1])
    }

    /// The value at level `u` of a distribution of counts or lengths (never negative, often heavy-tailed: a few
    /// lists or strings far longer than the rest): as ``value(at:)``, except above p99.9, where only the largest
    /// value (p100) is known. There the tail goes on as the measured one does from p99 to p99.9, a power law —
    /// x = p99.9 · t^−k with t = (1 − u) / 0.001 and k = log(p99.9 / p99) / log 10 — up to p100, which level 1
    /// reaches. A straight line from p99.9 to p100 gave the top 0.1 % of objects on average about half the
    /// single largest: on `scripts/shape-benchmark`'s store, whose 30 most popular courses hold 26,959, 8,630,
    /// 6,400, 5,163, … students (104,577 in all), the line gave 14,735, 14,268, 13,801, … (239,131) and the power
    /// law gives 24,625, 11,635, 7,371, 5,644, … (105,211); its 8 names of 60,000 characters became 158 names of
    /// 30,600 on average, and are 1 now (the store's 0.005 % is below what p99.9 tells).
    ///
    /// Of `draws` values drawn at the levels r / (draws − 1) (``level(ofRank:count:)``), the second largest lies
    /// at t = 1 / (0.001 · (draws − 1)). The exponent is kept at most log(p100 / p99.9) / log(0.001 · (draws − 1)),
    /// so that the tail reaches p100 there at the earliest: only the largest one or two of the draws are p100,
    /// at any size. Without it, a tail steeper than p100 allows was cut flat at p100, a pile that grew with the
    /// size (p99 40, p99.9 200, p100 300: 56 % of the top 0.1 % at exactly 300, 113 values of 200,000 and 1,123
    /// of 2,000,000, where the measured store had 1). The figures above were measured before this limit.
    func countValue(at u: Double, draws: Int) -> Double {
        let (p99, p999, p100) = (values[Self.p99Index], values[Self.p999Index], values[values.count - 1])
        guard u > 0.999, u < 1, p99 > 0 else { return value(at: u) }
        var exponent = log(p999 / p99) / log(10)
        let span = 0.001 * Double(draws - 1)
        if span > 1 { exponent = min(exponent, log(p100 / p999) / log(span)) }
        return min(p999 * pow((1 - u) / 0.001, -exponent), p100)
    }

    /// Where p99 and p99.9 sit in ``levels``, looked up there so that a change of the levels cannot shift them.
    private static let p99Index = index(ofLevel: 0.99)
    private static let p999Index = index(ofLevel: 0.999)

    private static func index(ofLevel level: Double) -> Int {
        guard let index = levels.firstIndex(of: level) else { preconditionFailure("no level \(level) in levels") }
        return index
    }

    /// The level of the `rank`-th of `count` values drawn evenly over the distribution: 0 for the first, 1 for the
    /// last, so that drawing as many values as were measured gives back the measured quantiles.
    static func level(ofRank rank: Int, count: Int) -> Double {
        count > 1 ? Double(rank) / Double(count - 1) : 0.5
    }
}

/// How a store's values of one attribute are distributed, as `shape` writes it: nothing in it is a stored value.
///
/// - `quantiles`: numbers (integers, decimals, floating point, dates as seconds since 2001), each quantile
///   rounded to two significant digits (``roundedForPrivacy(_:)``);
/// - `lengths`: strings (characters) and binary values (bytes);
/// - `distinctShare`: the number of different non-nil values over the number of non-nil values;
/// - `frequencies`: booleans (`true`/`false`) and integer attributes with at most 16 different values, each
///   held by at least 5 objects: the share of each value among the non-nil ones.
public struct AttributeShape: Sendable, Hashable, Codable {
    /// The quantiles of numbers, rounded.
    public var quantiles: Quantiles?
    /// The quantiles of lengths.
    public var lengths: Quantiles?
    /// Different values over non-nil values.
    public var distinctShare: Double?
    /// The share of each value among the non-nil ones.
    public var frequencies: [String: Double]?

    /// Creates a shape.
    public init(
        quantiles: Quantiles? = nil, lengths: Quantiles? = nil, distinctShare: Double? = nil,
        frequencies: [String: Double]? = nil
    ) {
        self.quantiles = quantiles
        self.lengths = lengths
        self.distinctShare = distinctShare
        self.frequencies = frequencies
    }

    /// The keys an attribute entry of a dataset file may hold besides `nullRatio`, `length` and `distinct`.
    static let keys = ["quantiles", "lengths", "distinctShare", "frequencies"]

    /// The most different values an integer attribute may have for its frequencies to be kept.
    public static let enumerationLimit = 16
    /// The fewest objects each value of an enumeration must have for its frequencies to be kept.
    public static let enumerationMinimum = 5
}

/// How a to-many relationship fans out in a store, as `shape` writes it.
///
/// - `fanOut`: the quantiles of the number of destination objects per source object (zero included);
/// - `empty`: the share of source objects with none;
/// - `mean`: the mean count (the edges over the source objects), which generation makes the counts add up to;
/// - `shared`: for a many-to-many, the share of destination objects that more than one source object holds;
/// - `inKeyOrder`: for an ordered to-many, how its lists follow the keys;
/// - `byKey`: where in key order the edges are held (``KeyProfile``).
public struct FanOutShape: Sendable, Hashable, Codable {
    /// The quantiles of the count per source object.
    public var fanOut: Quantiles
    /// The share of source objects with none.
    public var empty: Double
    /// The mean count.
    public var mean: Double?
    /// The share of destination objects held by more than one source object.
    public var shared: Double?
    /// For an ordered to-many: the share of consecutive destination objects, in the relationship's order, whose
    /// primary keys ascend — 1 when every list keeps the order its objects were made in, 0 when every list is
    /// newest first, about 0.5 when lists are shuffled. Generation follows it for a one-to-many.
    public var inKeyOrder: Double?
    /// Where in key order the edges are held: the quantiles of the key position (0 for the source object with
    /// the lowest primary key, 1 for the highest) of each edge's source object (``KeyProfile``). Generation
    /// places the counts along the keys so.
    public var byKey: Quantiles?

    /// Creates a fan-out shape.
    public init(
        fanOut: Quantiles, empty: Double, mean: Double? = nil, shared: Double? = nil, inKeyOrder: Double? = nil,
        byKey: Quantiles? = nil
    ) {
        self.fanOut = fanOut
        self.empty = empty
        self.mean = mean
        self.shared = shared
        self.inKeyOrder = inKeyOrder
        self.byKey = byKey
    }

    /// The keys a relationship entry of a dataset file may hold besides `fill` and `count`.
    static let keys = ["fanOut", "empty", "mean", "shared", "inKeyOrder", "byKey"]
}

/// `value` rounded to two significant digits (0.012345 → 0.012, 987,654 → 990,000, 639,503,569.6 → 640,000,000):
/// the coarseness at which `shape` keeps the quantiles of numbers, so that no stored number is copied unless it
/// has at most two significant digits (small whole numbers such as 0 … 99 are kept as they are).
public func roundedForPrivacy(_ value: Double) -> Double {
    guard value != 0, value.isFinite else { return value.isFinite ? 0 : value }
    let exponent = Int((log10(abs(value))).rounded(.down)) - 1
    // Divide or multiply by an exact power of ten, so that 0.012 is 12 / 1000 and prints as 0.012.
    if exponent < 0 {
        let scale = pow(10, Double(-exponent))
        return (value * scale).rounded() / scale
    }
    let scale = pow(10, Double(exponent))
    return (value / scale).rounded() * scale
}
