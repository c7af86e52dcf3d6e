import CSQLite

/// An SQLite result code, primary or extended (https://sqlite.org/rescode.html).
///
/// An extended code carries its primary code in its low byte: `SQLITE_CONSTRAINT_UNIQUE` is
/// `SQLITE_CONSTRAINT | (8 << 8)`. A primary code matches itself and all its extended codes in a pattern, an
/// extended code only itself, so one `switch` can tell a case apart from the rest of its kind:
///
/// ```swift
/// switch error.code {
/// case .constraintUnique: …  // only a UNIQUE constraint
/// case .constraint: …        // any other constraint
/// default: …
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral {
    /// The code as SQLite returns it.
    public let rawValue: Int32

    /// Creates a code from SQLite's number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Creates a code from SQLite's number written as a literal.
    public init(integerLiteral value: Int32) { self.rawValue = value }

    /// The primary code: the low byte (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xff) }

    /// Whether this code is a primary code, which matches its extended codes in a pattern.
    public var isPrimary: Bool { self == primary }

    /// Whether `code` is `pattern`, or one of its extended codes when `pattern` is a primary code.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primary : pattern == code
    }

    /// The symbolic name, such as `SQLITE_CONSTRAINT_UNIQUE`; extended codes without a name fall back to their
    /// primary code's.
    public var name: String {
        Self.name(of: rawValue) ?? Self.name(of: primary.rawValue) ?? "unknown result code"
    }
}

// The primary codes come from sqlite3.h; the extended ones, which C defines as expressions that Swift does not
// import, are written as sqlite.org/rescode.html gives them: `primary | (n << 8)`.
extension ResultCode {
    private init(extending primary: ResultCode, _ number: Int32) {
        self.init(rawValue: primary.rawValue | number << 8)
    }

    /// `SQLITE_OK`: success.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error or a missing table.
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_ABORT`: an operation was aborted, such as a statement by a rollback.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: another connection, perhaps in another process, holds a lock the operation needs.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict inside one connection (or a shared cache).
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`: an allocation failed.
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: a write to a database that cannot be written.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: the operation stopped because `sqlite3_interrupt` was called.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_IOERR_WRITE`: a write to a file failed.
    public static let ioErrorWrite = ResultCode(extending: .ioError, 3)
    /// `SQLITE_IOERR_FSYNC`: syncing a file failed.
    public static let ioErrorFsync = ResultCode(extending: .ioError, 4)
    /// `SQLITE_IOERR_TRUNCATE`: truncating a file failed.
    public static let ioErrorTruncate = ResultCode(extending: .ioError, 6)
    /// `SQLITE_IOERR_SHMSIZE`: the `-shm` file could not be grown, which is how a full disk often first shows.
    public static let ioErrorShmSize = ResultCode(extending: .ioError, 19)
    /// `SQLITE_CORRUPT`: the database file is damaged.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`: a write failed because the disk is full.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: a file could not be opened.
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a `UNIQUE`, `NOT NULL`, `CHECK` or key constraint failed.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_CONSTRAINT_UNIQUE`: a `UNIQUE` constraint failed.
    public static let constraintUnique = ResultCode(extending: .constraint, 8)
    /// `SQLITE_CONSTRAINT_NOTNULL`: a `NOT NULL` constraint failed.
    public static let constraintNotNull = ResultCode(extending: .constraint, 5)
    /// `SQLITE_MISUSE`: the library was used in a way it does not allow.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_ROW`: `sqlite3_step` has a row ready.
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// `SQLITE_DONE`: `sqlite3_step` has finished.
    public static let done = ResultCode(rawValue: SQLITE_DONE)
}
