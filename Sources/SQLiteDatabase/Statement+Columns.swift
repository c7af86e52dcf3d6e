import CSQLite

// Reading the current row. Columns are numbered from 0. Reading a column that does not exist, or reading when
// no row is ready, yields what SQLite yields for NULL (0, nil, an empty buffer); it is never unsafe.
//
// Ordering rule, sqlite.org/c3ref/column_blob.html: "the safest policy is to invoke these routines in one of
// the following ways: sqlite3_column_text() followed by sqlite3_column_bytes() [or]
// sqlite3_column_blob() followed by sqlite3_column_bytes()". Every reader below keeps that order.
//
// Lifetime rule, same page: "The pointers returned are valid until a type conversion occurs as described
// above, or until sqlite3_step() or sqlite3_reset() or sqlite3_finalize() is called." Hence the copies, and
// the closures of withUnsafeText and withUnsafeBlob.

extension Statement {
    /// The number of columns in the result (0 for statements that return no data).
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of the column at `index`, as given by `AS` or derived by SQLite.
    public func columnName(_ index: Int32) -> String {
        precondition(index >= 0 && index < columnCount, "column \(index) out of range in: \(sql)")
        // NULL only when SQLite runs out of memory.
        return sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// The storage class of the column at `index` in the current row.
    public func columnType(_ index: Int32) -> SQLiteValue.Kind {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// Whether the column at `index` is `NULL` in the current row.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The column at `index` as an integer (SQLite converts other types; `NULL` is 0).
    public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The column at `index` as a floating-point number (SQLite converts other types; `NULL` is 0).
    public func double(_ index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The column at `index` as text, or `nil` for `NULL`.
    public func string(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column at `index` as bytes, or `nil` for `NULL`. A zero-length blob is an empty array.
    public func bytes(_ index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        // sqlite.org: "The return value from sqlite3_column_blob() for a zero-length BLOB is a NULL pointer."
        guard let blob = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// Passes the UTF-8 bytes of the column at `index` to `body` without copying them.
    ///
    /// The buffer is valid only inside `body` (see the lifetime rule above); `NULL` gives an empty buffer.
    public func withUnsafeText<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let text = sqlite3_column_text(handle, index)
        let count = text == nil ? 0 : Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: text, count: count))
    }

    /// Passes the bytes of the column at `index` to `body` without copying them.
    ///
    /// The buffer is valid only inside `body` (see the lifetime rule above); `NULL` gives an empty buffer.
    public func withUnsafeBlob<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let blob = sqlite3_column_blob(handle, index)
        let count = blob == nil ? 0 : Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// The column at `index` as a value of its own storage class.
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: .text(string(index) ?? "")
        case SQLITE_BLOB: .blob(bytes(index) ?? [])
        default: .null
        }
    }
}
