import Foundation

/// How the benchmarks' tables write their figures.
package enum BenchmarkFormat {
    /// `1234567` as `1,234,567`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + String(result.reversed())
    }

    /// `1.5` as `1.50×`.
    package static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }

    /// `0.98` as `98 %`, `0.985` as `98.5 %`.
    package static func percent(_ value: Double) -> String {
        let scaled = (value * 1_000).rounded() / 10
        return scaled == scaled.rounded() ? "\(Int(scaled)) %" : "\(scaled) %"
    }

    /// Bytes as `12.3 MiB`.
    package static func mebibytes(_ bytes: Double) -> String { String(format: "%.1f MiB", bytes / 1_048_576) }

    /// `text` padded with spaces to `width` characters: `%-17@` pads nothing on Linux, whose `String(format:)`
    /// ignores the width of an object argument.
    package static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
