import CSQLite

/// The arguments of one call of an SQL function registered with ``Connection/registerPredicate(_:argumentCount:_:)``,
/// valid only during that call.
public struct FunctionArguments {
    private let values: UnsafeMutablePointer<OpaquePointer?>
    /// How many arguments the call has.
    public let count: Int32

    init(_ values: UnsafeMutablePointer<OpaquePointer?>, count: Int32) {
        self.values = values
        self.count = count
    }

    /// The argument at `index` as an integer (SQLite converts other types; `NULL` is 0).
    public func int64(_ index: Int32) -> Int64 {
        sqlite3_value_int64(values[Int(index)])
    }

    /// The argument at `index` as a value of its own storage class.
    public func value(_ index: Int32) -> SQLiteValue {
        let value = values[Int(index)]
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // Text first, then its length (sqlite.org/c3ref/value_blob.html).
            guard let text = sqlite3_value_text(value) else { return .text("") }
            let count = Int(sqlite3_value_bytes(value))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_value_blob(value) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(value)))))
        default: return .null
        }
    }
}

/// The Swift body of a predicate, kept alive by the connection until it replaces or drops the function.
private final class PredicateBody {
    let body: (FunctionArguments) -> Bool

    init(_ body: @escaping (FunctionArguments) -> Bool) {
        self.body = body
    }
}

extension Connection {
    /// Registers an SQL function `name` of `argumentCount` arguments that yields 1 when `body` says true for
    /// its arguments, else 0. `body` runs on the thread stepping the statement that calls it; it must not use
    /// this connection. Registering a name again replaces the function.
    public func registerPredicate(
        _ name: String, argumentCount: Int32, _ body: @escaping (FunctionArguments) -> Bool
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(PredicateBody(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8, box,
            { context, count, values in
                let predicate = Unmanaged<PredicateBody>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                let holds = values.map { predicate.body(FunctionArguments($0, count: count)) } ?? false
                sqlite3_result_int(context, holds ? 1 : 0)
            }, nil, nil,
            { box in box.map { Unmanaged<PredicateBody>.fromOpaque($0).release() } })
        try check(code, sql: "function \(name)")
    }
}
