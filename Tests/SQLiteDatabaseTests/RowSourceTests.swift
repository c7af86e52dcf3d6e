import SQLiteDatabase
import Testing

/// Rows handed to SQLite from Swift through a row-source table must arrive as they were given.
@Suite struct RowSourceTests {
    /// A fixed list of rows; the texts of even rows are lent to SQLite from memory the source owns, the other
    /// values copied.
    final class ListSource: RowSource {
        let rows: [[SQLiteValue]]
        let lent: [[UnsafeMutableRawBufferPointer?]]
        var current = 0

        init(_ rows: [[SQLiteValue]]) {
            self.rows = rows
            self.lent = rows.enumerated().map { number, row in
                row.map { value in
                    guard number % 2 == 0, case .text(let text) = value else { return nil }
                    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: text.utf8.count, alignment: 1)
                    _ = bytes.initializeMemory(as: UInt8.self, from: text.utf8)
                    return bytes
                }
            }
            super.init()
        }

        deinit {
            for row in lent { for bytes in row { bytes?.deallocate() } }
        }

        override func rewind() -> Bool {
            current = 0
            return !rows.isEmpty
        }

        override func advance() -> Bool {
            current += 1
            return current < rows.count
        }

        override func column(_ column: Int32, into result: ColumnResult) {
            if let bytes = lent[current][Int(column)] {
                result.setText(borrowing: UnsafeRawBufferPointer(bytes))
            } else {
                result.set(rows[current][Int(column)])
            }
        }
    }

    @Test func everyValueArrivesAsGiven() throws {
        let rows: [[SQLiteValue]] = [
            [.integer(1), .text("Ada"), .null],
            [.integer(2), .text(""), .blob([0, 1, 255])],
            [.integer(3), .text("héllo ✓"), .real(-1.5)],
            [.integer(4), .null, .blob([])],
        ]
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(k INTEGER PRIMARY KEY, a, b)")
        let table = try connection.rowSourceTable(columns: 3)
        #expect(try connection.rowSourceTable(columns: 3) == table)
        let source = ListSource(rows)
        try connection.withStatement("INSERT INTO T (k, a, b) SELECT c0, c1, c2 FROM \(table)(?)") { statement in
            try statement.bind(source, at: 1)
            try statement.run()
        }
        #expect(try connection.rows("SELECT k, a, b FROM T ORDER BY k") == rows)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name <> 'T'") == .integer(0))
    }

    @Test func anEmptySourceInsertsNothing() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(a)")
        let table = try connection.rowSourceTable(columns: 1)
        try connection.withStatement("INSERT INTO T (a) SELECT c0 FROM \(table)(?)") { statement in
            try statement.bind(ListSource([]), at: 1)
            try statement.run()
        }
        #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(0))
    }
}
