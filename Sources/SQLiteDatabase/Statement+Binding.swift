import CSQLite

/// `SQLITE_TRANSIENT`, which the C header defines as `((sqlite3_destructor_type)-1)` and Swift cannot import.
///
/// sqlite.org/c3ref/bind_blob.html: "If the fifth argument has the value SQLITE_TRANSIENT, then SQLite makes
/// its own private copy of the data immediately, before the sqlite3_bind_*() routine returns." So buffers
/// passed to the bind functions only need to live for the duration of the call.
var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension Statement {
    /// Binds an integer to the parameter at `index` (1-based).
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a floating-point number to the parameter at `index` (1-based).
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text to the parameter at `index` (1-based). SQLite copies it.
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var text = value
        let resultCode = text.withUTF8 { bindTextCode(UnsafeRawBufferPointer($0), at: index) }
        try check(resultCode)
    }

    /// Binds UTF-8 bytes as text to the parameter at `index` (1-based), without making a `String`.
    ///
    /// SQLite copies the bytes before returning. An empty buffer binds empty text, not `NULL`.
    public func bindText(_ utf8: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(bindTextCode(utf8, at: index))
    }

    /// Binds bytes as a blob to the parameter at `index` (1-based).
    ///
    /// SQLite copies the bytes before returning. An empty buffer binds a zero-length blob, not `NULL`.
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(bindBlobCode(bytes, at: index))
    }

    /// Binds bytes as a blob to the parameter at `index` (1-based); an empty array is a zero-length blob.
    public func bind(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let resultCode = bytes.withUnsafeBytes { bindBlobCode($0, at: index) }
        try check(resultCode)
    }

    /// Binds `NULL` to the parameter at `index` (1-based).
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds any value to the parameter at `index` (1-based).
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        }
    }

    /// Binds the value in column `column` (0-based) of `other`'s current row to the parameter at `index`,
    /// keeping its type, without making a Swift value of it.
    ///
    /// sqlite.org/c3ref/column_blob.html: "The sqlite3_column_value() routine returns an unprotected
    /// sqlite3_value object. In a multithreaded environment, an unprotected sqlite3_value object may only be used
    /// safely with sqlite3_bind_value() and sqlite3_result_value()." sqlite3_bind_value copies the value, so
    /// `other` may move on afterwards.
    public func bind(columnOf other: Statement, _ column: Int32, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_value(handle, index, sqlite3_column_value(other.handle, column)))
    }

    /// Binds `values` to parameters 1, 2, …; their number must equal ``parameterCount``.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        guard values.count == Int(parameterCount) else {
            throw .misuse(
                "statement has \(parameterCount) parameters but \(values.count) values were given",
                sql: sql,
                path: connection.path
            )
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private func bindTextCode(_ utf8: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            // sqlite.org/c3ref/bind_blob.html: "If the third parameter to sqlite3_bind_text() [...] is a NULL
            // pointer then the fourth parameter is ignored and the end result is the same as
            // sqlite3_bind_null()." So empty text is bound from a real (static, empty) string.
            return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
        }
        let text = base.assumingMemoryBound(to: CChar.self)
        return sqlite3_bind_text64(handle, index, text, UInt64(utf8.count), sqliteTransient, UInt8(SQLITE_UTF8))
    }

    private func bindBlobCode(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            // A NULL pointer would bind NULL, as for text; a zero-length zeroblob is an empty blob.
            return sqlite3_bind_zeroblob(handle, index, 0)
        }
        return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), sqliteTransient)
    }
}
