import CSQLite

extension Connection {
    /// One statement run as SQLite measured it.
    public struct StatementRun: Sendable, Hashable {
        /// The statement's text as prepared (`sqlite3_sql`: parameters unexpanded).
        public let sql: String
        /// Nanoseconds the run took, by SQLite's own clock.
        public let nanoseconds: Int64
        /// Rows it inserted, updated or deleted; nil for a statement that only reads.
        public let rowsChanged: Int?
    }

    /// Runs `body` with SQLite measuring every statement this connection runs to its end (or reset), and
    /// returns what it measured with `body`'s result.
    ///
    /// sqlite.org/c3ref/trace_v2.html: "An SQLITE_TRACE_PROFILE callback provides approximately the same
    /// information as is provided by the sqlite3_profile() callback. The P argument is a pointer to the prepared
    /// statement and the X argument points to a 64-bit integer which is approximately the number of nanoseconds
    /// that the prepared statement took to run. The SQLITE_TRACE_PROFILE callback is invoked when the statement
    /// finishes." The trace is removed again when `body` returns or throws.
    public func profilingStatements<R>(_ body: () throws -> R) throws -> (R, [StatementRun]) {
        let runs = StatementRuns(handle: handle)
        let context = Unmanaged.passUnretained(runs).toOpaque()
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_PROFILE), statementProfileCallback, context)
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }
        let result = try withExtendedLifetime(runs) { try body() }
        return (result, runs.runs)
    }
}

/// The runs measured so far; the trace callback's context. Used only on the connection's thread.
private final class StatementRuns {
    let handle: OpaquePointer
    var runs: [Connection.StatementRun] = []
    /// `sqlite3_total_changes64` when the last run ended: a run's rows are the difference.
    var totalChanges: Int64

    init(handle: OpaquePointer) {
        self.handle = handle
        self.totalChanges = sqlite3_total_changes64(handle)
    }
}

private func statementProfileCallback(
    _ event: UInt32, _ context: UnsafeMutableRawPointer?, _ statement: UnsafeMutableRawPointer?,
    _ detail: UnsafeMutableRawPointer?
) -> Int32 {
    guard event == UInt32(SQLITE_TRACE_PROFILE), let context, let statement, let detail else { return 0 }
    let runs = Unmanaged<StatementRuns>.fromOpaque(context).takeUnretainedValue()
    let pointer = OpaquePointer(statement)
    let sql = sqlite3_sql(pointer).map { String(cString: $0) } ?? ""
    // The run has ended when the callback comes; every statement of the connection is traced, so the growth of
    // the connection's total changes since the last run is this run's (0 for a schema statement, whose changes
    // sqlite3_changes would not reset).
    let total = sqlite3_total_changes64(runs.handle)
    let changed = Int(total - runs.totalChanges)
    runs.totalChanges = total
    runs.runs.append(
        Connection.StatementRun(
            sql: sql, nanoseconds: detail.load(as: Int64.self),
            rowsChanged: sqlite3_stmt_readonly(pointer) == 0 ? changed : nil))
    return 0
}
