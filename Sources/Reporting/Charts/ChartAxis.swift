import Foundation

/// One axis of a chart: the range it shows, on a linear or logarithmic scale, and its labelled ticks.
struct ChartAxis {
    /// How values map to positions.
    enum Scale {
        case linear
        case logarithmic
    }

    let scale: Scale
    let lower: Double
    let upper: Double
    let ticks: [Double]
    let format: (Double) -> String

    /// Where `value` lies between ``lower`` (0) and ``upper`` (1).
    func fraction(_ value: Double) -> Double {
        switch scale {
        case .linear: (value - lower) / (upper - lower)
        case .logarithmic: (log10(value) - log10(lower)) / (log10(upper) - log10(lower))
        }
    }

    /// A logarithmic axis from a power of `base` at or below the smallest positive value to one at or above the
    /// largest, with a tick at every power (or every second, third… power, so that there are at most seven).
    static func logarithmic(
        covering values: [Double], base: Double, format: @escaping (Double) -> String
    )
        -> ChartAxis
    {
        let exponents = values.filter { $0 > 0 && $0.isFinite }.map { base == 2 ? log2($0) : log10($0) }
        let low = (exponents.min() ?? 0).nudgedDown
        let high = (exponents.max() ?? 1).nudgedUp
        var stride = 1.0
        while (high - low) / stride > 6 { stride += 1 }
        let lower = (low / stride).rounded(.down) * stride
        let upper = Swift.max((high / stride).rounded(.up) * stride, lower + stride)
        let ticks = Swift.stride(from: lower, through: upper, by: stride).map { pow(base, $0) }
        return ChartAxis(
            scale: .logarithmic, lower: pow(base, lower), upper: pow(base, upper), ticks: ticks, format: format)
    }

    /// A linear axis from 0 to a round number at or above the largest value, with ticks at round steps of
    /// `unit` (1, 2 or 5 times a power of ten of it), about five of them.
    static func linear(covering values: [Double], unit: Double, format: @escaping (Double) -> String) -> ChartAxis {
        let high = Swift.max(values.filter(\.isFinite).max() ?? 0, unit * 1e-3)
        let step = roundStep(high / unit / 5) * unit
        let upper = (high / step).rounded(.up) * step
        let ticks = Swift.stride(from: 0, through: upper + step / 2, by: step).map { $0 }
        return ChartAxis(scale: .linear, lower: 0, upper: upper, ticks: ticks, format: format)
    }

    /// 1, 2 or 5 times a power of ten, at or above `raw`.
    private static func roundStep(_ raw: Double) -> Double {
        let power = pow(10, log10(raw).rounded(.down))
        let leading = raw / power
        let round: Double = leading <= 1 ? 1 : leading <= 2 ? 2 : leading <= 5 ? 5 : 10
        return round * power
    }

    /// The largest power of 1024 at or below `value`, at least 1: the unit that a byte axis counts in.
    static func binaryUnit(for value: Double) -> Double {
        var unit = 1.0
        while value >= unit * 1024 { unit *= 1024 }
        return unit
    }
}

extension Double {
    /// An exponent computed with a logarithm, moved down past rounding error: 2.9999999999999996 is 3.
    fileprivate var nudgedDown: Double { (self + 1e-9).rounded(.down) }
    /// An exponent computed with a logarithm, moved up past rounding error: 3.0000000000000004 is 3.
    fileprivate var nudgedUp: Double { (self - 1e-9).rounded(.up) }
}
