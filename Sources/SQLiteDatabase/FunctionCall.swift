import CSQLite

/// One call of an SQL function registered with ``Connection/registerFunction(_:argumentCount:_:)``: its
/// arguments, and where its result goes. Valid only during the call.
///
/// sqlite.org/c3ref/value_blob.html: the pointers behind an argument's text or blob are valid until the
/// function returns, so ``value(at:)`` copies them.
public struct FunctionCall {
    private let context: OpaquePointer
    private let arguments: UnsafeMutablePointer<OpaquePointer?>
    /// The number of arguments.
    public let count: Int32

    init(context: OpaquePointer, count: Int32, arguments: UnsafeMutablePointer<OpaquePointer?>) {
        self.context = context
        self.count = count
        self.arguments = arguments
    }

    /// Argument `index` (0-based) as an integer (SQLite converts other types; `NULL` is 0).
    public func int64(at index: Int32) -> Int64 {
        sqlite3_value_int64(arguments[Int(index)])
    }

    /// Argument `index` (0-based), as stored.
    public func value(at index: Int32) -> SQLiteValue {
        let argument = arguments[Int(index)]
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT:
            return .real(sqlite3_value_double(argument))
        case SQLITE_TEXT:
            // sqlite3_value_text before sqlite3_value_bytes, as for columns.
            guard let text = sqlite3_value_text(argument) else { return .text("") }
            let count = Int(sqlite3_value_bytes(argument))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_value_blob(argument) else { return .blob([]) }
            let count = Int(sqlite3_value_bytes(argument))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// Returns `value` from the call (text and blobs copied), as a virtual table gives a column value.
    public func result(_ value: SQLiteValue) {
        ColumnResult(context: context).set(value)
    }

    /// Returns an integer from the call.
    public func result(_ integer: Int64) {
        sqlite3_result_int64(context, integer)
    }

    /// Fails the call, and with it the statement, with `message`.
    public func fail(_ message: String) {
        sqlite3_result_error(context, message, -1)
    }
}
