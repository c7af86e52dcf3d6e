import CSQLite

extension Connection {
    /// The version of the SQLite library in use, such as `"3.40.1"` (`sqlite3_libversion`).
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// The most memory SQLite has had allocated at once, in bytes, process-wide; `reset` restarts the mark
    /// from the current use (`sqlite3_status64(SQLITE_STATUS_MEMORY_USED, …)`).
    public static func memoryHighWater(reset: Bool) -> Int64 {
        var current: Int64 = 0
        var highWater: Int64 = 0
        let resultCode = sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highWater, reset ? 1 : 0)
        // Only an invalid status operation fails, and SQLITE_STATUS_MEMORY_USED is valid.
        precondition(resultCode == SQLITE_OK, "sqlite3_status64 failed with \(resultCode)")
        return highWater
    }

    /// The memory SQLite has allocated now, in bytes, process-wide (`sqlite3_memory_used`).
    public static func memoryUsed() -> Int64 {
        sqlite3_memory_used()
    }

    /// The number of prepared statements not yet finalized on this connection (`sqlite3_next_stmt`).
    package var preparedStatementCount: Int {
        var count = 0
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(handle, current)
        }
        return count
    }
}
