import ObjectModel

extension RandomSource {
    /// A value in `range`.
    mutating func within(_ range: IntRange) -> Int {
        range.min + below(range.max - range.min + 1)
    }
}
