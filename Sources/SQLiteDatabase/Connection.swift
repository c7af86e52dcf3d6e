import CSQLite

/// One SQLite database connection: owns a `sqlite3*` handle and closes it when the last reference goes.
///
/// A connection is used from one thread at a time (it is opened with `SQLITE_OPEN_NOMUTEX`), so it is not
/// `Sendable`. The one exception is ``interrupt()``; to call it from another thread, hand over an
/// ``InterruptHandle`` from ``interruptHandle``.
///
/// ```swift
/// let connection = try Connection(path: ":memory:")
/// try connection.execute("CREATE TABLE T(x INTEGER)")
/// let insert = try connection.prepare("INSERT INTO T(x) VALUES (?)")
/// for x in 0..<1_000 as Range<Int64> {
///     try insert.bind(x, at: 1)
///     try insert.run()
/// }
/// ```
public final class Connection {
    /// How a database file is opened.
    public enum OpenMode: Sendable {
        /// `SQLITE_OPEN_READONLY`: the file must exist.
        case readOnly
        /// `SQLITE_OPEN_READWRITE`: the file must exist.
        case readWrite
        /// `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`: the file is created if missing.
        case readWriteCreate

        var flags: Int32 {
            switch self {
            case .readOnly: SQLITE_OPEN_READONLY
            case .readWrite: SQLITE_OPEN_READWRITE
            case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        }
    }

    /// How a transaction takes its locks (https://sqlite.org/lang_transaction.html).
    public enum TransactionKind: Sendable {
        /// `BEGIN DEFERRED`: locks are taken on first read or write.
        case deferred
        /// `BEGIN IMMEDIATE`: the write lock is taken at once.
        case immediate
        /// `BEGIN EXCLUSIVE`: like immediate; in rollback-journal mode readers are excluded too.
        case exclusive

        var beginSQL: String {
            switch self {
            case .deferred: "BEGIN DEFERRED"
            case .immediate: "BEGIN IMMEDIATE"
            case .exclusive: "BEGIN EXCLUSIVE"
            }
        }
    }

    /// The `sqlite3*` handle; valid for the whole life of this object.
    let handle: OpaquePointer

    /// The path the connection was opened with (`":memory:"` for an in-memory database).
    public let path: String

    /// The column counts whose ``rowSourceTable(columns:)`` module is registered.
    var rowSourceColumnCounts: Set<Int32> = []

    /// Opens (or, with `.readWriteCreate`, creates) the database at `path`.
    ///
    /// The connection uses extended result codes and is opened with `SQLITE_OPEN_NOMUTEX` (one thread at a
    /// time). `path` is a file name, never a URI: a relative path that starts with `file:` names that file.
    /// `":memory:"` opens a private in-memory database.
    public init(path: String, mode: OpenMode = .readWriteCreate) throws(SQLiteError) {
        var database: OpaquePointer?
        // SQLITE_OPEN_URI lets ATTACH take a URI (attach(readOnly:as:)); sqlite.org/uri.html: with it, "the
        // filename is interpreted as a URI if it begins with 'file:'" — so such a name is opened as "./file:…".
        let flags = mode.flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_URI
        let name = path.hasPrefix("file:") ? "./" + path : path
        let resultCode = sqlite3_open_v2(name, &database, flags, nil)
        guard resultCode == SQLITE_OK, let database else {
            let message = String(cString: database.map { sqlite3_errmsg($0) } ?? sqlite3_errstr(resultCode))
            // sqlite.org/c3ref/open.html: "Whether or not an error occurs when it is opened, resources associated
            // with the database connection handle should be released by passing it to sqlite3_close() when it
            // is no longer required." The message is read first: closing frees it.
            sqlite3_close_v2(database)
            throw SQLiteError(code: ResultCode(rawValue: resultCode), message: message, sql: nil, path: path)
        }
        self.handle = database
        self.path = path
        // Redundant with SQLITE_OPEN_EXRESCODE on SQLite ≥ 3.37; kept for older libraries, which ignore that flag.
        sqlite3_extended_result_codes(database, 1)
        // sqlite.org/quirks.html#dblquote: "If a double-quoted string literal is used where an identifier is
        // expected [...] SQLite treats it as a string literal". A quoted column that a table lacks would then read
        // as its own name in every row; with the fallback off it is an error, on every connection.
        for option in [SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL] {
            migrationbench_db_config_int(database, option, 0, nil)
        }
        SQLiteWork.opened(ObjectIdentifier(self), handle: database)
    }

    deinit {
        // Every Statement holds a strong reference to its Connection, so none is left unfinalized here. Even so,
        // sqlite.org/c3ref/close.html: "If sqlite3_close_v2() is called with unfinalized prepared statements
        // [...] the database connection becomes an unusable 'zombie' which will automatically be deallocated
        // when the last prepared statement is finalized" — never a crash.
        SQLiteWork.closing(ObjectIdentifier(self))
        sqlite3_close_v2(handle)
    }

    /// Runs one or several SQL statements separated by semicolons, discarding any rows.
    ///
    /// It does what `sqlite3_exec` does (prepare each statement in turn, step it to the end, finalize it), and
    /// adds each statement's virtual-machine steps to ``SQLiteWork``, which `sqlite3_exec` would hide.
    public func execute(_ sql: String) throws(SQLiteError) {
        let failure: SQLiteError? = sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let remaining = next, remaining.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let prepared = sqlite3_prepare_v2(handle, remaining, -1, &statement, &tail)
                guard prepared == SQLITE_OK else { return error(prepared, sql: sql) }
                // A comment or whitespace prepares to no statement; the tail goes on past it.
                next = tail
                guard let statement else { continue }
                var resultCode = sqlite3_step(statement)
                while resultCode == SQLITE_ROW { resultCode = sqlite3_step(statement) }
                let failure = resultCode == SQLITE_DONE ? nil : error(resultCode, sql: sql)
                SQLiteWork.collectSteps(of: statement)
                sqlite3_finalize(statement)
                if let failure { return failure }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Prepares `sql` (exactly one statement), passes the statement to `body`, and finalizes it afterwards,
    /// also when `body` throws.
    ///
    /// The statement must not escape `body`; keeping it is a programmer error caught by a precondition.
    /// Use ``prepare(_:)`` for a statement that lives longer.
    public func withStatement<R>(_ sql: String, _ body: (Statement) throws -> R) throws -> R {
        var statement = try makeStatement(sql, flags: 0)
        defer { precondition(isKnownUniquelyReferenced(&statement), "Statement escaped withStatement: \(sql)") }
        return try body(statement)
    }

    /// Like ``withStatement(_:_:)``, for bodies that throw only `SQLiteError`.
    func withPreparedStatement<R>(
        _ sql: String,
        _ body: (Statement) throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        var statement = try makeStatement(sql, flags: 0)
        defer { precondition(isKnownUniquelyReferenced(&statement), "Statement escaped withStatement: \(sql)") }
        return try body(statement)
    }

    /// Prepares `sql` (exactly one statement) for repeated use, such as an `INSERT` run over a long loop.
    ///
    /// The statement keeps this connection alive and is finalized when its last reference goes. It is
    /// prepared with `SQLITE_PREPARE_PERSISTENT`, SQLite's hint for statements that are kept and reused.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try makeStatement(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
    }

    /// Runs `body` inside `BEGIN …` / `COMMIT`.
    ///
    /// When `body` throws, or `COMMIT` fails (for example with `SQLITE_BUSY`), the transaction is rolled back
    /// and the original error is rethrown. Transactions do not nest; starting one inside another throws.
    public func transaction<R>(_ kind: TransactionKind = .immediate, _ body: () throws -> R) throws -> R {
        try execute(kind.beginSQL)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollbackIfActive()
            throw error
        }
    }

    /// Attaches the database file at `path` read-only under the schema name `name` (`ATTACH … AS name`), so
    /// that one statement can read it beside this connection's own; nothing on this connection can write it.
    ///
    /// Not inside a transaction (SQLite refuses it there).
    public func attach(readOnly path: String, as name: String) throws(SQLiteError) {
        // sqlite.org/uri.html: "mode=ro" opens the file read-only; '?', '#' and '%' in the path must be escaped.
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                uri += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xf)])"
            }
        }
        uri += "?mode=ro"
        try withPreparedStatement("ATTACH DATABASE ? AS \(Self.schemaName(name))") { statement throws(SQLiteError) in
            try statement.bind(uri, at: 1)
            try statement.run()
        }
    }

    /// Detaches the database attached as `name`.
    public func detach(_ name: String) throws(SQLiteError) {
        try execute("DETACH DATABASE \(Self.schemaName(name))")
    }

    /// `name`, which goes into SQL as it is: letters and underscores only.
    private static func schemaName(_ name: String) -> String {
        precondition(name.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") }, "not a schema name: \(name)")
        return name
    }

    /// The rowid of the most recent successful `INSERT` on this connection (`sqlite3_last_insert_rowid`).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE` (`sqlite3_changes64`).
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rows every `INSERT`, `UPDATE` and `DELETE` has changed since the connection was opened, those of
    /// trigger programs included (`sqlite3_total_changes64`).
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Asks the running statement to stop as soon as possible; it then fails with `SQLITE_INTERRUPT`
    /// (``SQLiteError/isInterrupt``).
    ///
    /// This is the one call that is safe from another thread. sqlite.org/c3ref/interrupt.html: "It is safe to
    /// call this routine from a thread different from the thread that is currently running the database
    /// operation. But it is not safe to call this routine with a database connection that is closed or might
    /// close before sqlite3_interrupt() returns." The function only sets an atomic flag that the virtual
    /// machine polls. Because `Connection` is not `Sendable`, other threads call it through an
    /// ``InterruptHandle``, which keeps the connection open.
    public func interrupt() {
        sqlite3_interrupt(handle)
    }

    // MARK: - Plumbing

    /// Throws unless `resultCode` is `SQLITE_OK`. The one check every C result goes through.
    @inline(__always)
    func check(_ resultCode: Int32, sql: String?) throws(SQLiteError) {
        guard resultCode == SQLITE_OK else { throw error(resultCode, sql: sql) }
    }

    /// Builds the error for a failed call, reading SQLite's message at once.
    ///
    /// sqlite.org/c3ref/errcode.html: "If the most recent sqlite3_* API call associated with database
    /// connection D failed, then the sqlite3_errcode(D) interface returns the numeric result code or extended
    /// result code for that API call." The message belongs to that most recent call, so it is read before
    /// anything else touches the connection. A few calls report a code without recording it on the
    /// connection; for those the generic text of `sqlite3_errstr` is used instead of a stale message.
    @inline(never)
    func error(_ resultCode: Int32, sql: String?) -> SQLiteError {
        let message =
            if sqlite3_extended_errcode(handle) == resultCode {
                String(cString: sqlite3_errmsg(handle))
            } else {
                String(cString: sqlite3_errstr(resultCode))
            }
        return SQLiteError(code: ResultCode(rawValue: resultCode), message: message, sql: sql, path: path)
    }

    /// Prepares exactly one statement; trailing SQL other than whitespace and comments is an error.
    private func makeStatement(_ sql: String, flags: UInt32) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        var hasTrailingStatement = false
        let resultCode = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(handle, start, -1, flags, &statement, &tail)
            if resultCode == SQLITE_OK, let tail, tail.pointee != 0 {
                var next: OpaquePointer?
                let tailCode = sqlite3_prepare_v2(handle, tail, -1, &next, nil)
                hasTrailingStatement = tailCode != SQLITE_OK || next != nil
                sqlite3_finalize(next)
            }
            return resultCode
        }
        try check(resultCode, sql: sql)
        guard let statement else {
            throw .misuse("no SQL statement to prepare", sql: sql, path: path)
        }
        guard !hasTrailingStatement else {
            sqlite3_finalize(statement)
            throw .misuse("more than one SQL statement; use execute(_:) for scripts", sql: sql, path: path)
        }
        return Statement(connection: self, handle: statement, sql: sql)
    }

    /// Rolls back the open transaction, if SQLite has not already done so.
    private func rollbackIfActive() {
        // sqlite.org/lang_transaction.html: "If certain kinds of errors occur within a transaction, the
        // transaction may or may not be rolled back automatically." Autocommit mode means it was.
        guard sqlite3_get_autocommit(handle) == 0 else { return }
        // A failed ROLLBACK leaves nothing better to do; the caller's original error is the one to report.
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }
}
