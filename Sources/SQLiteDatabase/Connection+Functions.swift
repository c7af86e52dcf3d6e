import CSQLite

extension Connection {
    /// Registers an SQL function `name` of `argumentCount` arguments that does nothing and returns NULL.
    ///
    /// Core Data's stores call functions of its own from triggers (`NSCoreDataDATrigger…` for derived
    /// attributes); any other writer must provide them, or every statement that fires such a trigger fails
    /// with "no such function".
    public func registerNoOpFunction(_ name: String, argumentCount: Int32) throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, nil, { context, _, _ in sqlite3_result_null(context) }, nil, nil, nil)
        try check(code, sql: "function \(name)")
    }
}

extension Connection {
    /// Registers the SQL function `name` of `argumentCount` arguments (−1: any number), replacing one registered
    /// before under that name and count: SQLite calls `body` once per call, on this connection's thread.
    ///
    /// sqlite.org/c3ref/create_function.html: a function cannot be replaced while a statement that uses it is
    /// running; finish or finalize such statements first.
    public func registerFunction(
        _ name: String, argumentCount: Int32, _ body: @escaping (FunctionCall) -> Void
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(FunctionBody(body)).toOpaque()
        // SQLite calls the destructor on failure too, so the box is released either way.
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8, box,
            { context, count, arguments in
                guard let context, let arguments, let data = sqlite3_user_data(context) else { return }
                let body = Unmanaged<FunctionBody>.fromOpaque(data).takeUnretainedValue()
                body.call(FunctionCall(context: context, count: count, arguments: arguments))
            },
            nil, nil,
            { data in data.map { Unmanaged<FunctionBody>.fromOpaque($0).release() } })
        try check(code, sql: "function \(name)")
    }

    /// Registers an SQL function `name` of `argumentCount` arguments that yields 1 when `body` says true for
    /// the call, else 0. `body` runs on the thread stepping the statement that calls it; it must not use this
    /// connection. Registering a name again replaces the function.
    public func registerPredicate(
        _ name: String, argumentCount: Int32, _ body: @escaping (FunctionCall) -> Bool
    ) throws(SQLiteError) {
        try registerFunction(name, argumentCount: argumentCount) { call in call.result(body(call) ? 1 : 0) }
    }

    /// Removes the SQL function `name` of `argumentCount` arguments registered with
    /// ``registerFunction(_:argumentCount:_:)``.
    public func removeFunction(_ name: String, argumentCount: Int32) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(handle, name, argumentCount, SQLITE_UTF8, nil, nil, nil, nil, nil)
        try check(code, sql: "function \(name)")
    }
}

/// The Swift body of a registered SQL function, kept alive by SQLite until the function is replaced or the
/// connection closes.
private final class FunctionBody {
    let call: (FunctionCall) -> Void

    init(_ call: @escaping (FunctionCall) -> Void) {
        self.call = call
    }
}
