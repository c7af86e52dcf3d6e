import Foundation

/// Numbers as people read them in every report: three significant figures, binary units for bytes,
/// thousands separators for counts. Output never depends on the machine's locale.
enum Format {
    /// The text of a figure that is not there, such as the heap of a process that does not run on jemalloc.
    static let unavailable = "unavailable"

    /// A duration with three significant figures in µs, ms or s, such as `812 µs`, `45.6 ms` or `1.23 s`.
    static func seconds(_ value: Double, trimmed: Bool = false) -> String {
        let rounded = Double(significant(value)) ?? value
        let magnitude = abs(rounded)
        if magnitude == 0 || magnitude >= 1 { return significant(value, trimmed: trimmed) + " s" }
        if magnitude >= 1e-3 { return significant(value * 1e3, trimmed: trimmed) + " ms" }
        return significant(value * 1e6, trimmed: trimmed) + " µs"
    }

    /// A size in bytes, KiB, MiB, GiB or TiB with three significant figures, such as `64.0 MiB`.
    static func bytes(_ value: Double, trimmed: Bool = false) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var scaled = value / 1024
        guard abs(scaled) >= 1 else { return grouped(String(Int(value.rounded()))) + " B" }
        var unit = 0
        while abs(scaled) >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return significant(scaled, trimmed: trimmed) + " " + units[unit]
    }

    /// A size in bytes that may be unavailable.
    static func bytes(_ value: Double?) -> String {
        value.map { bytes($0) } ?? unavailable
    }

    /// A count with thousands separators, such as `1,000,000`.
    static func count(_ value: Int) -> String {
        grouped(String(value))
    }

    /// A count and a noun in the right number, such as `1 budget` or `26 budgets`.
    static func counted(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count(value)) \(noun(value, singular, plural))"
    }

    /// The noun in the number that `value` asks for; the plural adds an s unless given.
    static func noun(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        value == 1 ? singular : plural ?? singular + "s"
    }

    /// A fraction as a percentage, such as `10%`.
    static func percent(_ value: Double) -> String {
        significant(value * 100, trimmed: true) + "%"
    }

    /// A store size as a short label, such as `500`, `2.5k`, `100k` or `1M`.
    static func compactCount(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e9 { return significant(value / 1e9, trimmed: true) + "G" }
        if magnitude >= 1e6 { return significant(value / 1e6, trimmed: true) + "M" }
        if magnitude >= 1e3 { return significant(value / 1e3, trimmed: true) + "k" }
        return significant(value, trimmed: true)
    }

    /// How many times slower than the floor, such as `3.21×`.
    static func ratio(_ value: Double) -> String {
        significant(value) + "×"
    }

    /// A relative change, such as `+12.3%` or `−4.00%`.
    static func change(_ value: Double) -> String {
        guard value != 0 else { return "0%" }
        let text = significant(abs(value) * 100) + "%"
        return value < 0 ? "−" + text : "+" + text
    }

    /// A figure in the unit a metric names: `bytes`, `seconds`, `ratio` or `count`; anything else as a plain number.
    static func value(_ value: Double, unit: String) -> String {
        switch unit {
        case "bytes": bytes(value)
        case "seconds": seconds(value)
        case "ratio": ratio(value)
        case "count": value.magnitude < 1e18 ? count(Int(value.rounded())) : significant(value)
        default: significant(value) + (unit.isEmpty ? "" : " " + unit)
        }
    }

    /// `value` rounded to `digits` significant figures (whole numbers keep all their digits), with thousands
    /// separators; `trimmed` drops trailing zeros after the decimal point.
    static func significant(_ value: Double, digits: Int = 3, trimmed: Bool = false) -> String {
        guard value.isFinite else { return "—" }
        guard value != 0 else { return "0" }
        var decimals = max(0, digits - 1 - Int(log10(abs(value)).rounded(.down)))
        var text = String(format: "%.\(decimals)f", value)
        // Rounding can carry into one more digit, as 9.996 does into "10.00".
        if decimals > 0, let rounded = Double(text), abs(rounded) >= pow(10, Double(digits - decimals)) {
            decimals -= 1
            text = String(format: "%.\(decimals)f", value)
        }
        if trimmed, text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return grouped(text)
    }

    /// Puts thousands separators into the integer part of a decimal number's text.
    private static func grouped(_ text: String) -> String {
        let sign = text.hasPrefix("-") ? "-" : ""
        let unsigned = text.dropFirst(sign.count)
        let integer = unsigned.prefix { $0 != "." }
        let rest = unsigned.dropFirst(integer.count)
        var groups: [Substring] = []
        var end = integer.endIndex
        while end > integer.startIndex {
            let start = integer.index(end, offsetBy: -3, limitedBy: integer.startIndex) ?? integer.startIndex
            groups.insert(integer[start..<end], at: 0)
            end = start
        }
        return sign + groups.joined(separator: ",") + rest
    }
}
