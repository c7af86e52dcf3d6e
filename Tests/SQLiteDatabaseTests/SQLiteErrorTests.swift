import Foundation
import SQLiteDatabase
import Testing

@Suite struct SQLiteErrorTests {
    enum Preparation: CaseIterable {
        case execute, withStatement, prepare, scalar

        func run(_ sql: String, on connection: Connection) throws {
            switch self {
            case .execute: try connection.execute(sql)
            case .withStatement: try connection.withStatement(sql) { _ in }
            case .prepare: _ = try connection.prepare(sql)
            case .scalar: _ = try connection.scalar(sql)
            }
        }
    }

    @Test(arguments: Preparation.allCases)
    func syntaxErrorCarriesCodeMessageAndSQL(preparation: Preparation) throws {
        let connection = try Connection(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try preparation.run("SELEC 1", on: connection) }
        #expect(error?.code == 1)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.path == ":memory:")
        #expect(error?.isInterrupt == false)
    }

    @Test func uniqueConstraintViolationHasExtendedCode() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(x UNIQUE); INSERT INTO T VALUES (1);")
        let insert = try connection.prepare("INSERT INTO T(x) VALUES (?)")
        try insert.bind(1 as Int64, at: 1)
        let error = try #require(throws: SQLiteError.self) { try insert.run() }
        #expect(error.primaryCode == 19)
        #expect(error.code == 2067)
        #expect(error.message == "UNIQUE constraint failed: T.x")
        #expect(error.sql == "INSERT INTO T(x) VALUES (?)")
        #expect(
            error.description
                == "SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE, 2067): UNIQUE constraint failed: T.x"
                + " — in: INSERT INTO T(x) VALUES (?) — database: :memory:"
        )
        // run() reset the statement, so it is ready for the next binding.
        try insert.bind(2 as Int64, at: 1)
        try insert.run()
        #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(2))
    }

    @Test func openingAMissingFileReadOnlyFails() throws {
        try withTemporaryDatabase { url in
            let error = #expect(throws: SQLiteError.self) { _ = try Connection(path: url.path, mode: .readOnly) }
            #expect(error?.primaryCode == 14)  // SQLITE_CANTOPEN
            #expect(error?.path == url.path)
            #expect(error?.description.contains(url.path) == true)
            #expect(error?.description.contains("SQLITE_CANTOPEN") == true)
        }
    }

    @Test(arguments: [
        (SQLiteError(code: 1, message: "boom"), "SQLite error 1 (SQLITE_ERROR): boom"),
        (
            SQLiteError(code: 5, message: "database is locked", sql: "COMMIT", path: "/tmp/x.sqlite"),
            "SQLite error 5 (SQLITE_BUSY): database is locked — in: COMMIT — database: /tmp/x.sqlite"
        ),
        (
            SQLiteError(code: 1299, message: "NOT NULL constraint failed: T.x"),
            "SQLite error 19 (SQLITE_CONSTRAINT_NOTNULL, 1299): NOT NULL constraint failed: T.x"
        ),
        (
            SQLiteError(code: ResultCode(rawValue: 19 | (99 << 8)), message: "m"),
            "SQLite error 19 (SQLITE_CONSTRAINT, 25363): m"
        ),
    ])
    func descriptionNamesTheCodes(error: SQLiteError, expected: String) {
        #expect(error.description == expected)
    }

    /// A primary code matches its extended codes; an extended code matches only itself.
    @Test func primaryCodesMatchTheirExtendedCodes() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(x UNIQUE NOT NULL); INSERT INTO T VALUES (1);")
        let unique = try #require(throws: SQLiteError.self) { try connection.execute("INSERT INTO T VALUES (1)") }
        let notNull = try #require(throws: SQLiteError.self) { try connection.execute("INSERT INTO T VALUES (NULL)") }
        #expect(unique.code == .constraintUnique && notNull.code == .constraintNotNull)
        #expect(unique.code.name == "SQLITE_CONSTRAINT_UNIQUE" && unique.primaryCode.name == "SQLITE_CONSTRAINT")
        func kind(_ code: ResultCode) -> String {
            switch code {
            case .constraintUnique: "unique"
            case .constraint: "other constraint"
            case .busy: "busy"
            default: "other"
            }
        }
        #expect([unique, notNull].map { kind($0.code) } == ["unique", "other constraint"])
        #expect(!(ResultCode.constraintUnique ~= notNull.code))
        #expect(ResultCode.constraint ~= unique.code && !(ResultCode.busy ~= unique.code))
        #expect(unique.isConstraintViolation && !unique.isBusy)
        #expect(ResultCode(rawValue: 19 | (99 << 8)).name == "SQLITE_CONSTRAINT")
    }
}
