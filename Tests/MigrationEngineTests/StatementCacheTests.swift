import SQLiteDatabase
import Testing

@testable import MigrationEngine

/// The engine reads both stores through one cache of prepared statements; their tables have the same names.
struct StatementCacheTests {
    @Test func theSameTextOnTwoConnectionsReadsEachItsOwnStore() throws {
        let source = try Connection(path: ":memory:")
        let destination = try Connection(path: ":memory:")
        try source.execute(
            "CREATE TABLE ZAUTHOR(Z_PK INTEGER PRIMARY KEY, ZNAME); INSERT INTO ZAUTHOR VALUES (1, 'old')")
        try destination.execute(
            "CREATE TABLE ZAUTHOR(Z_PK INTEGER PRIMARY KEY, ZNAME); INSERT INTO ZAUTHOR VALUES (1, 'new')")
        var cache = StatementCache()
        let sql = "SELECT ZNAME FROM ZAUTHOR WHERE Z_PK = 1"
        for (connection, name) in [(source, "old"), (destination, "new"), (source, "old")] {
            let statement = try cache.statement(sql, on: connection)
            defer { statement.reset() }
            #expect(try statement.step())
            #expect(statement.value(0) == .text(name))
        }
    }
}
