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
