import Foundation
import SQLiteDatabase
import Synchronization
import Testing

@Suite struct ConnectionTests {
    @Test func opensInMemory() throws {
        let connection = try Connection(path: ":memory:")
        #expect(connection.path == ":memory:")
        #expect(try connection.scalar("SELECT 1 + 1") == .integer(2))
        #expect(!Connection.sqliteVersion.isEmpty)
        #expect(Connection.memoryUsed() > 0)
        #expect(Connection.memoryHighWater(reset: false) >= Connection.memoryUsed())
    }

    @Test func opensOnDiskAndReopensReadOnly() throws {
        try withTemporaryDatabase { url in
            do {
                let connection = try Connection(path: url.path)
                try connection.execute("CREATE TABLE T(x INTEGER); INSERT INTO T VALUES (42);")
            }
            #expect(FileManager.default.fileExists(atPath: url.path))
            let reader = try Connection(path: url.path, mode: .readOnly)
            #expect(try reader.scalar("SELECT x FROM T") == .integer(42))
            let error = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO T VALUES (1)") }
            #expect(error?.primaryCode == 8)  // SQLITE_READONLY
        }
    }

    /// SQLite's double-quoted-string fallback is off: a quoted column that the table lacks is an error, not
    /// the column's name as a string in every row.
    @Test func aMissingQuotedColumnIsAnErrorNotItsName() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(#"CREATE TABLE "T"("x" INTEGER); INSERT INTO "T" VALUES (1);"#)
        let error = #expect(throws: SQLiteError.self) { try connection.scalar(#"SELECT "ZMISSING" FROM "T""#) }
        #expect(error?.message.contains("no such column") == true)
        #expect(throws: SQLiteError.self) { try connection.execute(#"CREATE INDEX "I" ON "T"("ZMISSING")"#) }
    }

    @Test func temporaryFolderIsRemovedOnThrow() throws {
        var folder: URL?
        #expect(throws: ExpectedFailure.self) {
            try withTemporaryDatabase { url in
                folder = url.deletingLastPathComponent()
                _ = try Connection(path: url.path)
                throw ExpectedFailure()
            }
        }
        let removed = try #require(folder)
        #expect(!FileManager.default.fileExists(atPath: removed.path))
    }

    @Test func rowsScalarLastInsertRowIDAndChanges() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(id INTEGER PRIMARY KEY, name TEXT)")
        try connection.execute("INSERT INTO T(name) VALUES ('a'), ('b'), ('c')")
        #expect(connection.changes == 3)
        #expect(connection.lastInsertRowID == 3)
        let rows = try connection.rows("SELECT id, name FROM T WHERE id >= ? ORDER BY id", [.integer(2)])
        #expect(rows == [[.integer(2), .text("b")], [.integer(3), .text("c")]])
        #expect(try connection.scalar("SELECT name FROM T WHERE id = ?", [.integer(9)]) == nil)
        #expect(try connection.scalar("SELECT NULL") == .null)
    }

    @Test(arguments: [Connection.TransactionKind.deferred, .immediate, .exclusive])
    func transactionCommits(kind: Connection.TransactionKind) throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(x)")
        let inserted = try connection.transaction(kind) {
            try connection.execute("INSERT INTO T VALUES (1), (2)")
            return connection.changes
        }
        #expect(inserted == 2)
        #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(2))
    }

    @Test func transactionRollsBackOnThrowAndRethrowsTheOriginalError() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(x UNIQUE)")
        try connection.execute("INSERT INTO T VALUES (0)")
        #expect(throws: ExpectedFailure()) {
            try connection.transaction {
                try connection.execute("INSERT INTO T VALUES (1), (2)")
                throw ExpectedFailure()
            }
        }
        #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(1))
        let error = #expect(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO T VALUES (3)")
                try connection.execute("INSERT INTO T VALUES (0)")
            }
        }
        #expect(error?.code == 2067)
        #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(1))
        // No transaction was left open: a new one starts and commits.
        try connection.transaction { try connection.execute("INSERT INTO T VALUES (4)") }
        #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(2))
    }

    @Test func preparedStatementKeepsItsConnectionAlive() throws {
        weak var weakConnection: Connection?
        var statement: Statement? = try {
            let connection = try Connection(path: ":memory:")
            weakConnection = connection
            try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (7), (8);")
            return try connection.prepare("SELECT sum(x) FROM T WHERE x > ?")
        }()
        #expect(weakConnection != nil)
        try statement?.bind(0 as Int64, at: 1)
        #expect(try statement?.step() == true)
        #expect(statement?.int64(0) == 15)
        statement = nil
        #expect(weakConnection == nil)
    }

    @Test func journalModePragmaOnFile() throws {
        try withTemporaryDatabase { url in
            let connection = try Connection(path: url.path)
            #expect(try connection.pragma("journal_mode") == .text("delete"))
            try connection.setPragma("journal_mode", "WAL")
            #expect(try connection.pragma("journal_mode") == .text("wal"))
            try connection.setPragma("main.cache_size", "-2000")
            #expect(try connection.pragma("main.cache_size") == .integer(-2000))
        }
    }

    @Test(arguments: ["journal_mode; DROP TABLE T", "", "1abc", "a.b.c", "main."])
    func invalidPragmaNamesThrow(name: String) throws {
        let connection = try Connection(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try connection.pragma(name) }
        #expect(error?.code == 21)
        #expect(throws: SQLiteError.self) { try connection.setPragma(name, "1") }
    }

    @Test(arguments: ["WAL; DROP TABLE T", "'unterminated", "'a'b'", "x y", "", "-"])
    func invalidPragmaValuesThrow(value: String) throws {
        let connection = try Connection(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try connection.setPragma("user_version", value) }
        #expect(error?.code == 21)
        #expect(error?.message.contains("invalid value") == true)
    }

    @Test(arguments: [Connection.CheckpointMode.passive, .full, .restart, .truncate])
    func checkpointCopiesTheLog(mode: Connection.CheckpointMode) throws {
        try withTemporaryDatabase { url in
            let connection = try Connection(path: url.path)
            try connection.setPragma("journal_mode", "WAL")
            try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (randomblob(10000));")
            let log = url.path + "-wal"
            let logSize = { (try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? -1 }
            #expect(try logSize() > 0)
            try connection.checkpoint(mode)
            if mode == .truncate {
                #expect(try logSize() == 0)
            }
            #expect(try connection.scalar("SELECT length(x) FROM T") == .integer(10000))
        }
    }

    @Test func columnsAndTableNames() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(
            """
            CREATE TABLE B(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, data BLOB, score);
            CREATE TABLE A(x);
            INSERT INTO B(name) VALUES ('n');
            """
        )
        #expect(try connection.tableNames() == ["A", "B"])
        #expect(
            try connection.columns(of: "B") == [
                ColumnInfo(name: "id", declaredType: "INTEGER", isPrimaryKey: true, notNull: false),
                ColumnInfo(name: "name", declaredType: "TEXT", isPrimaryKey: false, notNull: true),
                ColumnInfo(name: "data", declaredType: "BLOB", isPrimaryKey: false, notNull: false),
                ColumnInfo(name: "score", declaredType: "", isPrimaryKey: false, notNull: false),
            ]
        )
        #expect(try connection.columns(of: "Missing") == [])
    }

    @Test func interruptFromAnotherThreadStopsALongQuery() throws {
        let connection = try Connection(path: ":memory:")
        let handle = connection.interruptHandle
        let finished = Flag()
        // Interrupts repeatedly until the query has stopped, so the test cannot hang if the first interrupt
        // lands before the query starts (an interrupt with no statement running is a no-op).
        let interrupter = Thread {
            while !finished.isSet {
                Thread.sleep(forTimeInterval: 0.05)
                handle.interrupt()
            }
        }
        interrupter.start()
        defer { finished.set() }
        let error = #expect(throws: SQLiteError.self) {
            try connection.scalar(
                """
                WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000)
                SELECT count(*) FROM c
                """
            )
        }
        #expect(error?.isInterrupt == true)
        #expect(error?.code == 9)
    }
}

/// A flag set by one thread and read by another.
private final class Flag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() { value.withLock { $0 = true } }
}
