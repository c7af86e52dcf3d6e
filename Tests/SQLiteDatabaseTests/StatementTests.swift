import SQLiteDatabase
import Testing

@Suite struct StatementTests {
    static let values: [SQLiteValue] = [
        .null,
        .integer(0),
        .integer(.min),
        .integer(.max),
        .real(0),
        .real(-1.5),
        .real(.greatestFiniteMagnitude),
        .text(""),
        .text("plain ASCII"),
        .text("héllo wörld ✓ 日本語 🎉"),
        .text("nul\u{0}inside"),
        .blob([]),
        .blob([0]),
        .blob([0, 1, 0, 255, 0]),
    ]

    @Test(arguments: values)
    func valueRoundTripsThroughATable(value: SQLiteValue) throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(v)")
        try connection.withStatement("INSERT INTO T(v) VALUES (?)") { statement in
            try statement.bind(value, at: 1)
            try statement.run()
        }
        try connection.withStatement("SELECT v, typeof(v), length(CAST(v AS BLOB)) FROM T") { (statement) throws in
            #expect(try statement.step())
            #expect(statement.value(0) == value)
            #expect(statement.columnType(0) == value.kind)
            #expect(statement.isNull(0) == value.isNull)
            #expect(statement.string(1) == ["null", "integer", "real", "text", "blob"][kindIndex(value.kind)])
            switch value {
            case .null:
                #expect(statement.string(0) == nil)
                #expect(statement.bytes(0) == nil)
            case .integer(let integer):
                #expect(statement.int64(0) == integer)
            case .real(let real):
                #expect(statement.double(0) == real)
            case .text(let text):
                #expect(statement.string(0) == text)
                #expect(statement.int64(2) == Int64(text.utf8.count))
                #expect(statement.withUnsafeText(0) { Array($0) } == Array(text.utf8))
            case .blob(let bytes):
                #expect(statement.bytes(0) == bytes)
                #expect(statement.int64(2) == Int64(bytes.count))
                #expect(statement.withUnsafeBlob(0) { Array($0) } == bytes)
            }
            #expect(try !statement.step())
        }
    }

    @Test(arguments: values)
    func scalarBindsAndReadsEveryValue(value: SQLiteValue) throws {
        let connection = try Connection(path: ":memory:")
        #expect(try connection.scalar("SELECT ?", [value]) == value)
    }

    /// Each typed bind call, with the value and SQL type it must store.
    enum Binder: CaseIterable {
        case int64, double, string, emptyString, textBuffer, emptyTextBuffer, blobBuffer, emptyBlobBuffer
        case byteArray, emptyByteArray, null

        func bind(to statement: Statement) throws {
            switch self {
            case .int64: try statement.bind(Int64.min, at: 1)
            case .double: try statement.bind(2.5, at: 1)
            case .string: try statement.bind("ünïcode", at: 1)
            case .emptyString: try statement.bind("", at: 1)
            case .textBuffer: try Array("ünïcode".utf8).withUnsafeBytes { try statement.bindText($0, at: 1) }
            case .emptyTextBuffer: try statement.bindText(UnsafeRawBufferPointer(start: nil, count: 0), at: 1)
            case .blobBuffer: try [UInt8]([0, 1, 2]).withUnsafeBytes { try statement.bindBlob($0, at: 1) }
            case .emptyBlobBuffer: try statement.bindBlob(UnsafeRawBufferPointer(start: nil, count: 0), at: 1)
            case .byteArray: try statement.bind([0, 1, 2] as [UInt8], at: 1)
            case .emptyByteArray: try statement.bind([] as [UInt8], at: 1)
            case .null: try statement.bindNull(at: 1)
            }
        }

        var expected: SQLiteValue {
            switch self {
            case .int64: .integer(.min)
            case .double: .real(2.5)
            case .string, .textBuffer: .text("ünïcode")
            case .emptyString, .emptyTextBuffer: .text("")
            case .blobBuffer, .byteArray: .blob([0, 1, 2])
            case .emptyBlobBuffer, .emptyByteArray: .blob([])
            case .null: .null
            }
        }
    }

    @Test(arguments: Binder.allCases)
    func typedBindStoresTheRightType(binder: Binder) throws {
        let connection = try Connection(path: ":memory:")
        let row = try connection.withStatement("SELECT ?1, typeof(?1)") { statement in
            try binder.bind(to: statement)
            #expect(try statement.step())
            return [statement.value(0), statement.value(1)]
        }
        let typeNames = ["null", "integer", "real", "text", "blob"]
        #expect(row == [binder.expected, .text(typeNames[kindIndex(binder.expected.kind)])])
    }

    @Test func preparedStatementRunsInALoopWithResetAndClearBindings() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(x, y)")
        let insert = try connection.prepare("INSERT INTO T(x, y) VALUES (?, ?)")
        #expect(insert.parameterCount == 2)
        for x in 0..<100 as Range<Int64> {
            try insert.bind(x, at: 1)
            try insert.bind("row \(x)", at: 2)
            try insert.run()
        }
        insert.clearBindings()
        try insert.run()
        #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(101))
        #expect(try connection.scalar("SELECT count(*) FROM T WHERE x IS NULL AND y IS NULL") == .integer(1))

        let query = try connection.prepare("SELECT x AS number, y FROM T WHERE x < :limit ORDER BY x")
        #expect(query.columnCount == 2)
        #expect(query.columnName(0) == "number")
        let limit = try #require(query.parameterIndex(":limit"))
        for bound in [3, 5] as [Int64] {
            try query.bind(bound, at: limit)
            var seen: [Int64] = []
            while try query.step() {
                seen.append(query.int64(0))
            }
            query.reset()
            #expect(seen == Array(0..<bound))
        }
    }

    @Test func bindOutOfRangeThrowsRange() throws {
        let connection = try Connection(path: ":memory:")
        try connection.withStatement("SELECT ?") { statement in
            let error = #expect(throws: SQLiteError.self) { try statement.bind(1 as Int64, at: 2) }
            #expect(error?.code == 25)  // SQLITE_RANGE
            #expect(error?.sql == "SELECT ?")
            let countError = #expect(throws: SQLiteError.self) { try statement.bind([.null, .null]) }
            #expect(countError?.code == 21)  // SQLITE_MISUSE
        }
    }

    @Test func aStatementMidStepBlocksDropTable() throws {
        // The control for the next test: it shows that DROP TABLE detects an unfinished statement.
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (1), (2);")
        let statement = try connection.prepare("SELECT x FROM T")
        #expect(try statement.step())
        let error = #expect(throws: SQLiteError.self) { try connection.execute("DROP TABLE T") }
        #expect(error?.primaryCode == 6)  // SQLITE_LOCKED
        #expect(connection.preparedStatementCount == 1)
        statement.reset()
        try connection.execute("DROP TABLE T")
    }

    @Test func withStatementFinalizesWhenTheBodyThrows() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (1), (2);")
        #expect(throws: ExpectedFailure()) {
            try connection.withStatement("SELECT x FROM T") { statement in
                #expect(try statement.step())
                #expect(connection.preparedStatementCount == 1)
                throw ExpectedFailure()
            }
        }
        #expect(connection.preparedStatementCount == 0)
        try connection.execute("DROP TABLE T")
    }

    @Test(arguments: ["SELECT 1; SELECT 2", "", "  -- only a comment", "SELECT 1; garbage"])
    func withStatementRejectsAnythingButOneStatement(sql: String) throws {
        let connection = try Connection(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try connection.withStatement(sql) { _ in } }
        #expect(error?.code == 21)
        #expect(error?.sql == sql)
        #expect(connection.preparedStatementCount == 0)
    }

    @Test func trailingWhitespaceAndCommentsAreAccepted() throws {
        let connection = try Connection(path: ":memory:")
        #expect(try connection.scalar("SELECT 3; -- done\n  ") == .integer(3))
    }
}

private func kindIndex(_ kind: SQLiteValue.Kind) -> Int {
    switch kind {
    case .null: 0
    case .integer: 1
    case .real: 2
    case .text: 3
    case .blob: 4
    }
}
