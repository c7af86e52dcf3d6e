import CSQLite

extension Connection {
    /// How ``checkpoint(_:)`` copies the write-ahead log into the database (sqlite.org/c3ref/wal_checkpoint_v2.html).
    public enum CheckpointMode: Sendable {
        /// Copies as much as possible without waiting for readers or writers.
        case passive
        /// Waits for writers, then copies everything.
        case full
        /// Like `full`, then waits for readers so the next writer restarts the log.
        case restart
        /// Like `restart`, then truncates the log file to zero bytes.
        case truncate

        var rawValue: Int32 {
            switch self {
            case .passive: SQLITE_CHECKPOINT_PASSIVE
            case .full: SQLITE_CHECKPOINT_FULL
            case .restart: SQLITE_CHECKPOINT_RESTART
            case .truncate: SQLITE_CHECKPOINT_TRUNCATE
            }
        }
    }

    /// The first column of the first row of `sql`, or `nil` when there is no row.
    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try withPreparedStatement(sql) { (statement) throws(SQLiteError) -> SQLiteValue? in
            try statement.bind(arguments)
            return try statement.step() ? statement.value(0) : nil
        }
    }

    /// All rows of `sql`, each as an array of values. Meant for small result sets.
    public func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try withPreparedStatement(sql) { (statement) throws(SQLiteError) -> [[SQLiteValue]] in
            try statement.bind(arguments)
            let columnCount = statement.columnCount
            var rows: [[SQLiteValue]] = []
            while try statement.step() {
                var row: [SQLiteValue] = []
                row.reserveCapacity(Int(columnCount))
                for column in 0..<columnCount {
                    row.append(statement.value(column))
                }
                rows.append(row)
            }
            return rows
        }
    }

    /// The value of `PRAGMA name`: the first column of its first row, or `nil` when it returns none.
    ///
    /// `name` must be an identifier, optionally qualified by a schema (`main.journal_mode`).
    public func pragma(_ name: String) throws(SQLiteError) -> SQLiteValue? {
        let sql = "PRAGMA \(name)"
        guard Self.isQualifiedIdentifier(name) else {
            throw .misuse("invalid pragma name '\(name)'", sql: sql, path: path)
        }
        return try scalar(sql)
    }

    /// Runs `PRAGMA name = value`.
    ///
    /// `name` must be an identifier, optionally qualified by a schema; `value` must be a number, a keyword
    /// (`WAL`, `NORMAL`, `ON`) or a single-quoted SQL string literal. Anything else throws before SQLite sees it.
    public func setPragma(_ name: String, _ value: String) throws(SQLiteError) {
        let sql = "PRAGMA \(name) = \(value)"
        guard Self.isQualifiedIdentifier(name) else {
            throw .misuse("invalid pragma name '\(name)'", sql: sql, path: path)
        }
        guard Self.isPragmaValue(value) else {
            throw .misuse("invalid value '\(value)' for pragma \(name)", sql: sql, path: path)
        }
        try withPreparedStatement(sql) { (statement) throws(SQLiteError) in
            while try statement.step() {}
        }
    }

    /// The names of the user tables, sorted; SQLite's own `sqlite_…` tables are left out.
    public func tableNames() throws(SQLiteError) -> [String] {
        let sql = #"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'"#
        return try rows(sql).compactMap { $0.first?.string }.sorted()
    }

    /// The columns of `table` in declaration order (`PRAGMA table_info`); empty when there is no such table.
    public func columns(of table: String) throws(SQLiteError) -> [ColumnInfo] {
        let sql = #"SELECT name, type, pk, "notnull" FROM pragma_table_info(?) ORDER BY cid"#
        return try withPreparedStatement(sql) { (statement) throws(SQLiteError) -> [ColumnInfo] in
            try statement.bind(table, at: 1)
            var columns: [ColumnInfo] = []
            while try statement.step() {
                columns.append(
                    ColumnInfo(
                        name: statement.string(0) ?? "",
                        declaredType: statement.string(1) ?? "",
                        isPrimaryKey: statement.int64(2) != 0,
                        notNull: statement.int64(3) != 0
                    )
                )
            }
            return columns
        }
    }

    /// Checkpoints the write-ahead log of every attached database (`sqlite3_wal_checkpoint_v2`).
    ///
    /// Does nothing for a database that is not in WAL mode. The `full`, `restart` and `truncate` modes throw
    /// `SQLITE_BUSY` when another connection keeps them from finishing.
    public func checkpoint(_ mode: CheckpointMode = .truncate) throws(SQLiteError) {
        try check(sqlite3_wal_checkpoint_v2(handle, nil, mode.rawValue, nil, nil), sql: nil)
    }

    // MARK: - Validation

    /// Whether `text` is `identifier` or `schema.identifier`, in plain ASCII identifier characters.
    static func isQualifiedIdentifier(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.first, !isDigit(first) else { return false }
            return part.allSatisfy { isIdentifierByte($0) }
        }
    }

    /// Whether `text` is a number, a keyword, or a single-quoted string literal.
    static func isPragmaValue(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let quote = UInt8(ascii: "'")
        if bytes.count >= 2, bytes.first == quote, bytes.last == quote {
            // Inside the quotes, a quote may only appear doubled.
            let inner = bytes.dropFirst().dropLast()
            var index = inner.startIndex
            while index < inner.endIndex {
                if inner[index] == quote {
                    guard index + 1 < inner.endIndex, inner[index + 1] == quote else { return false }
                    index += 2
                } else {
                    index += 1
                }
            }
            return true
        }
        let body = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
        return !body.isEmpty && body.allSatisfy { isIdentifierByte($0) || $0 == UInt8(ascii: ".") }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
