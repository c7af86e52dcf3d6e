import Testing

@testable import Reporting

@Suite("Human formatting")
struct FormatTests {
    @Test(arguments: [
        (0.000_812_3, "812 µs"), (0.0456, "45.6 ms"), (1.234, "1.23 s"), (9.996, "10.0 s"), (0.9996, "1.00 s"),
        (123.4, "123 s"), (1234.6, "1,235 s"), (0, "0 s"),
    ])
    func seconds(value: Double, text: String) {
        #expect(Format.seconds(value) == text)
    }

    static let byteTexts: [(Double, String)] = [
        (512, "512 B"), (1536, "1.50 KiB"), (64 * 1_048_576, "64.0 MiB"), (1.5 * 1_073_741_824, "1.50 GiB"),
        (0, "0 B"),
    ]

    @Test(arguments: byteTexts)
    func bytes(value: Double, text: String) {
        #expect(Format.bytes(value) == text)
    }

    @Test func unavailableBytesSayUnavailable() {
        #expect(Format.bytes(nil) == "unavailable")
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (1_000_000, "1,000,000"), (-12345, "-12,345")])
    func counts(value: Int, text: String) {
        #expect(Format.count(value) == text)
    }

    @Test(arguments: [(500.0, "500"), (1000, "1k"), (2500, "2.5k"), (100_000, "100k"), (1_000_000, "1M")])
    func compactCounts(value: Double, text: String) {
        #expect(Format.compactCount(value) == text)
    }

    @Test func tickLabelsDropTrailingZeros() {
        #expect(Format.bytes(4 * 1_048_576, trimmed: true) == "4 MiB")
        #expect(Format.seconds(0.01, trimmed: true) == "10 ms")
        #expect(Format.seconds(1, trimmed: true) == "1 s")
    }

    @Test func changesAndRatios() {
        #expect(Format.change(0.123) == "+12.3%")
        #expect(Format.change(-0.04) == "−4.00%")
        #expect(Format.ratio(3.2) == "3.20×")
    }

    @Test func logarithmicAxesTickAtPowers() {
        let sizes = ChartAxis.logarithmic(covering: [1000, 100_000], base: 10) { "\($0)" }
        #expect(sizes.ticks == [1000, 10000, 100_000])
        #expect(sizes.fraction(10000) == 0.5)
        let bytes = ChartAxis.logarithmic(covering: [5 * 1_048_576, 800 * 1_048_576], base: 2) { "\($0)" }
        #expect(bytes.ticks.count <= 7)
        #expect(bytes.lower <= 5 * 1_048_576 && bytes.upper >= 800 * 1_048_576)
        let single = ChartAxis.logarithmic(covering: [1000], base: 10) { "\($0)" }
        #expect(single.ticks == [1000, 10000])
    }

    @Test func linearAxesTickAtRoundSteps() {
        let axis = ChartAxis.linear(covering: [0, 4.3], unit: 1) { "\($0)" }
        #expect(axis.ticks == [0, 1, 2, 3, 4, 5])
    }
}
