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
        let rows = EncodedRows()
        rows.startRow(primaryKey: 9)
        for value in values { rows.append(value) }
        rows.append(.integer(42))
        var decoder = rows.row(at: rows.finishRow())
        #expect(decoder.primaryKey() == 9)
        let decoded = (0...values.count).map { _ in decoder.next() }
        #expect(decoded == values + [.integer(42)])
    }

    /// Rows follow one another; a row that does not fit the rest of a chunk moves whole to the next one, however
    /// large it is, and the row after it is found from where it ends.
    @Test func rowsFollowOneAnotherAcrossChunks() {
        let rows = EncodedRows()
        let large = String(repeating: "y", count: 700_000)
        var positions: [RowPosition] = []
        for key in 0..<4 as Range<Int64> {
            rows.startRow(primaryKey: key)
            rows.append(.integer(key))
            rows.append(.text(key == 3 ? large + large : large))
            positions.append(rows.finishRow())
        }
        #expect(Set(positions.map(\.chunk)).count == 4)
        var position = positions[0]
        for key in 0..<4 as Range<Int64> {
            #expect(position == positions[Int(key)])
            var decoder = rows.row(at: position)
            #expect(decoder.primaryKey() == key)
            #expect(decoder.next() == .integer(key))
            decoder.skip()
            position = rows.normalized(RowPosition(chunk: position.chunk, offset: Int32(decoder.offset)))
        }
    }
}
