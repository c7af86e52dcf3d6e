import CSQLite

/// One column of a statement's current row as SQLite holds it (the `sqlite3_value` of `sqlite3_column_value`):
/// its storage class and its value are then read with no further call into the statement, where
/// ``Statement/columnType(_:)`` and ``Statement/double(_:)`` each look the column up again.
///
/// Valid, like the pointers of ``Statement/withUnsafeText(_:_:)``, until the statement steps, is reset or is
/// finalized; read it on the statement's own thread. sqlite.org/c3ref/column_blob.html: the value is an
/// "unprotected sqlite3_value object", and "in a multithreaded environment, an unprotected sqlite3_value object
/// may only be used safely with sqlite3_bind_value() and sqlite3_result_value()".
public struct StoredColumn {
    let handle: OpaquePointer?

    /// The storage class.
    public var kind: SQLiteValue.Kind {
        switch sqlite3_value_type(handle) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// The value as an integer (SQLite converts other types; `NULL` is 0).
    public var int64: Int64 { sqlite3_value_int64(handle) }

    /// The value as a floating-point number (SQLite converts other types; `NULL` is 0).
    public var double: Double { sqlite3_value_double(handle) }

    /// Passes the value's UTF-8 bytes to `body` without copying them; `NULL` gives an empty buffer. The text
    /// first, then its length, as sqlite.org/c3ref/value_blob.html asks.
    public func withUnsafeText<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let text = sqlite3_value_text(handle)
        let count = text == nil ? 0 : Int(sqlite3_value_bytes(handle))
        return try body(UnsafeRawBufferPointer(start: text, count: count))
    }

    /// Passes the value's bytes to `body` without copying them; `NULL` gives an empty buffer.
    public func withUnsafeBlob<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let blob = sqlite3_value_blob(handle)
        let count = blob == nil ? 0 : Int(sqlite3_value_bytes(handle))
        return try body(UnsafeRawBufferPointer(start: blob, count: count))
    }
}

extension Statement {
    /// Column `index` of the current row as SQLite holds it, read with one call (see ``StoredColumn``).
    public func storedColumn(_ index: Int32) -> StoredColumn {
        StoredColumn(handle: sqlite3_column_value(handle, index))
    }
}
