import SQLiteDatabase
import Testing

@testable import MigrationEngine

/// The in-memory row buffer keeps rows encoded; every value must come back as it went in.
struct RowEncodingTests {
    @Test func everyKindOfValueComesBackUnchanged() {
        let values: [SQLiteValue] = [
            .null, .integer(0), .integer(.min), .integer(.max), .integer(-1), .integer(63), .integer(-64),
            .integer(300), .real(-0.5), .real(.infinity), .text(""),
            .text("Ada"), .text("ünïcödé — a longer text than fits in a small string"),
            .text(String(repeating: "x", count: 20_000)),
            .blob([]), .blob([0, 1, 255]), .blob([UInt8](repeating: 7, count: 128)),
        ]
        var encoder = RowEncoder()
        for value in values { encoder.append(value) }
        encoder.append(.integer(42))
        let decoded = encoder.bytes.withUnsafeBytes { bytes in
            var decoder = RowDecoder(bytes: bytes, offset: 0)
            return (0...values.count).map { _ in decoder.next() }
        }
        #expect(decoded == values + [.integer(42)])
    }

    @Test func resetStartsAnEmptyRow() {
        var encoder = RowEncoder()
        encoder.append(.text("first"))
        encoder.reset()
        encoder.append(.integer(7))
        let decoded = encoder.bytes.withUnsafeBytes { bytes in
            var decoder = RowDecoder(bytes: bytes, offset: 0)
            return decoder.next()
        }
        #expect(decoded == .integer(7))
        #expect(encoder.bytes.count == 2)
    }
}
