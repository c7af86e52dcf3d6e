import CSQLite
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite's own count of the work it did, in this process: virtual-machine steps and pages read and written.
///
/// The figures depend only on the SQL run and the data, never on the machine's load, so a baseline comparison
/// can judge them to a fraction of a percent. Steps come from `sqlite3_stmt_status(SQLITE_STMTSTATUS_VM_STEP)`,
/// collected when a statement is reset or finalized (``Connection/execute(_:)`` steps its statements itself
/// for this); pages from `sqlite3_db_status(SQLITE_DBSTATUS_CACHE_MISS / CACHE_WRITE)`, collected when a
/// connection closes, plus the open connections of the calling thread when read.
///
/// ```swift
/// let before = SQLiteWork.current()
/// try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (1)")
/// SQLiteWork.current().steps - before.steps  // > 0
/// ```
public struct SQLiteWork: Sendable, Hashable {
    /// Virtual-machine steps of every statement.
    public var steps: Int
    /// Pages read into SQLite's cache from the database files.
    public var pagesRead: Int
    /// Pages written to the database files (and journals).
    public var pagesWritten: Int

    /// The work done so far in this process (statements still running count when they are reset or
    /// finalized; open connections count only for the calling thread).
    public static func current() -> SQLiteWork {
        ledger.withLock { ledger in
            var work = ledger.finished
            let thread = pthread_self()
            for open in ledger.open.values where pthread_equal(open.thread, thread) != 0 {
                let pages = open.handle.pages
                work.pagesRead += pages.read
                work.pagesWritten += pages.written
            }
            return work
        }
    }

    /// Adds a statement's steps since its last collection (and resets its counter).
    static func collectSteps(of statement: OpaquePointer) {
        let steps = Int(sqlite3_stmt_status(statement, Int32(SQLITE_STMTSTATUS_VM_STEP), 1))
        guard steps > 0 else { return }
        ledger.withLock { $0.finished.steps += steps }
    }

    /// Registers an open connection, so that its pages count while it is open.
    static func opened(_ connection: ObjectIdentifier, handle: OpaquePointer) {
        ledger.withLock { $0.open[connection] = OpenConnection(handle: DatabaseHandle(pointer: handle)) }
    }

    /// Adds a closing connection's pages to the finished work.
    static func closing(_ connection: ObjectIdentifier) {
        ledger.withLock { ledger in
            guard let open = ledger.open.removeValue(forKey: connection) else { return }
            let pages = open.handle.pages
            ledger.finished.pagesRead += pages.read
            ledger.finished.pagesWritten += pages.written
        }
    }

    private struct Ledger {
        var finished = SQLiteWork(steps: 0, pagesRead: 0, pagesWritten: 0)
        var open: [ObjectIdentifier: OpenConnection] = [:]
    }

    private struct OpenConnection {
        let handle: DatabaseHandle
        let thread = pthread_self()
    }

    private static let ledger = Mutex(Ledger())
}

/// A `sqlite3*` kept in the ledger. @unchecked Sendable: the ledger reads its counters only from the thread
/// that opened it (connections are opened with SQLITE_OPEN_NOMUTEX, one thread at a time), or while it is
/// being closed on its own thread.
private struct DatabaseHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Pages read and written since the connection opened.
    var pages: (read: Int, written: Int) {
        var current: Int32 = 0
        var highWater: Int32 = 0
        sqlite3_db_status(pointer, SQLITE_DBSTATUS_CACHE_MISS, &current, &highWater, 0)
        let read = Int(current)
        sqlite3_db_status(pointer, SQLITE_DBSTATUS_CACHE_WRITE, &current, &highWater, 0)
        return (read, Int(current))
    }
}
