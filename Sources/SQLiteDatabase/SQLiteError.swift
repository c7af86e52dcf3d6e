import CSQLite

/// A failure reported by SQLite, or by this wrapper on SQLite's behalf.
///
/// The message is read from `sqlite3_errmsg` immediately after the failing call, before anything else can
/// overwrite it, and the error names the statement and the database file involved:
///
/// ```
/// SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE, 2067): UNIQUE constraint failed: T.x — in: INSERT INTO T …
///     — database: /tmp/x.sqlite
/// ```
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`); match it against a primary code
    /// (`case .constraint`) to take in all its extended codes.
    public let code: ResultCode
    /// SQLite's own message (`sqlite3_errmsg`), or this wrapper's text for failures it detects itself.
    public let message: String
    /// The SQL statement involved, when there was one.
    public let sql: String?
    /// The database file, when known.
    public let path: String?

    /// Creates an error from its parts.
    public init(code: ResultCode, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// The primary result code: the low byte of the extended code (for example 19, `SQLITE_CONSTRAINT`).
    public var primaryCode: ResultCode { code.primary }

    /// Whether the operation stopped because `sqlite3_interrupt` was called (`SQLITE_INTERRUPT`).
    public var isInterrupt: Bool { ResultCode.interrupt ~= code }

    /// Whether another connection, perhaps in another process, holds a lock the operation needs (`SQLITE_BUSY`).
    public var isBusy: Bool { ResultCode.busy ~= code }

    /// Whether a constraint failed (`SQLITE_CONSTRAINT`): a `UNIQUE`, `NOT NULL`, `CHECK` or key constraint.
    public var isConstraintViolation: Bool { ResultCode.constraint ~= code }

    /// A one-line account: codes, message, statement and file.
    public var description: String {
        var text = "SQLite error \(primaryCode.rawValue) ("
        if code.isPrimary {
            text += code.name
        } else {
            text += "\(code.name), \(code.rawValue)"
        }
        text += "): \(message)"
        if let sql {
            text += " — in: \(sql)"
        }
        if let path {
            text += " — database: \(path)"
        }
        return text
    }
}

extension SQLiteError {
    /// An error this wrapper raises itself (`SQLITE_MISUSE`), such as an invalid pragma name.
    static func misuse(_ message: String, sql: String?, path: String?) -> SQLiteError {
        SQLiteError(code: .misuse, message: message, sql: sql, path: path)
    }
}
