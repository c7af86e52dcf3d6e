import CSQLite

/// A prepared SQL statement: owns a `sqlite3_stmt*` and finalizes it when the last reference goes.
///
/// A statement holds a strong reference to its ``Connection``, so it can never outlive it. Like its
/// connection, it is used from one thread at a time.
///
/// Parameters are numbered from 1 and result columns from 0, as in SQLite's C API.
///
/// ```swift
/// try connection.withStatement("SELECT name FROM T WHERE x > ?") { statement in
///     try statement.bind(10 as Int64, at: 1)
///     while try statement.step() {
///         print(statement.string(0) ?? "NULL")
///     }
/// }
/// ```
public final class Statement {
    /// The connection this statement belongs to; kept alive by this reference.
    public let connection: Connection

    /// The `sqlite3_stmt*` handle; valid for the whole life of this object.
    let handle: OpaquePointer

    /// The SQL text the statement was prepared from.
    public let sql: String

    init(connection: Connection, handle: OpaquePointer, sql: String) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    deinit {
        // sqlite.org/c3ref/finalize.html: "The application must finalize every prepared statement in order to
        // avoid resource leaks." The connection is still open here: this object holds a reference to it.
        SQLiteWork.collectSteps(of: handle)
        sqlite3_finalize(handle)
    }

    /// The number of SQL parameters (`?`, `?NNN`, `:name`…), which is the largest parameter index.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// The index of the parameter named `name` (including its prefix, as in `":name"`), or `nil`.
    public func parameterIndex(_ name: String) -> Int32? {
        let index = sqlite3_bind_parameter_index(handle, name)
        return index == 0 ? nil : index
    }

    /// Runs the statement until the next row: `true` when a row is ready to read, `false` when done.
    ///
    /// After `false` or an error, the next `step()` starts the statement again from the beginning.
    public func step() throws(SQLiteError) -> Bool {
        let resultCode = sqlite3_step(handle)
        if resultCode == SQLITE_ROW { return true }
        if resultCode == SQLITE_DONE { return false }
        throw connection.error(resultCode, sql: sql)
    }

    /// Rewinds the statement so it can run again; bindings are kept (`sqlite3_reset`).
    public func reset() {
        // sqlite.org/c3ref/reset.html: "If the most recent call to sqlite3_step(S) for the prepared statement S
        // indicated an error, then sqlite3_reset(S) returns an appropriate error code." That error was already
        // thrown by step(), so the result is not reported a second time.
        SQLiteWork.collectSteps(of: handle)
        _ = sqlite3_reset(handle)
    }

    /// Steps until the statement is done, discarding rows, then resets it; for `INSERT` and `UPDATE` in loops.
    ///
    /// The statement is reset also when a step fails, so it is ready for the next set of bindings.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Sets every parameter back to `NULL` (`sqlite3_clear_bindings`).
    public func clearBindings() {
        // Always SQLITE_OK: the function only releases bound values.
        _ = sqlite3_clear_bindings(handle)
    }

    /// Throws unless `resultCode` is `SQLITE_OK`, with this statement's SQL in the error.
    ///
    /// The success test comes first and touches nothing else: this runs for every bind in the hottest loops,
    /// and passing `sql` along would cost a retain and a release each time.
    @inline(__always)
    func check(_ resultCode: Int32) throws(SQLiteError) {
        if resultCode == SQLITE_OK { return }
        throw connection.error(resultCode, sql: sql)
    }
}
