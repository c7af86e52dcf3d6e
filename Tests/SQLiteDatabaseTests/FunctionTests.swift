import Foundation
import SQLiteDatabase
import Testing

/// SQL functions written in Swift, the key bitmap's functions, and read-only attachment.
@Suite struct FunctionTests {
    @Test func aSwiftFunctionSeesItsArgumentsAndReturnsEveryKindOfValue() throws {
        let connection = try Connection(path: ":memory:")
        try connection.registerFunction("echo", argumentCount: 1) { call in call.result(call.value(at: 0)) }
        for value in [
            SQLiteValue.null, .integer(-7), .real(2.5), .text(""), .text("héllo"), .blob([]), .blob([0, 255]),
        ] {
            let statement = try connection.prepare("SELECT echo(?)")
            try statement.bind(value, at: 1)
            #expect(try statement.step())
            #expect(statement.value(0) == value)
        }
    }

    @Test func aFailingCallFailsTheStatementWithItsMessage() throws {
        let connection = try Connection(path: ":memory:")
        try connection.registerFunction("refuse", argumentCount: 0) { call in call.fail("not today") }
        let error = #expect(throws: SQLiteError.self) { try connection.scalar("SELECT refuse()") }
        #expect(error?.message.contains("not today") == true)
        try connection.removeFunction("refuse", argumentCount: 0)
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT refuse()") }
    }

    @Test func theBitmapFunctionsInsertCountAndRefuse() throws {
        let connection = try Connection(path: ":memory:")
        let bitmap = KeyBitmap(limit: 1_000)
        try connection.registerInsertion("insert_key", into: bitmap)
        try connection.registerMembership("member", of: bitmap)
        try connection.execute(
            "CREATE TABLE T(k INTEGER); WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 3 FROM n WHERE k < 900) "
                + "INSERT INTO T SELECT insert_key(k) FROM n")
        #expect(bitmap.count == 301 && bitmap.contains(1) && bitmap.contains(4) && !bitmap.contains(2))
        var keys: [Int64] = []
        bitmap.forEach { keys.append($0) }
        #expect(keys == Array(stride(from: 1, through: 901, by: 3)))
        #expect(try connection.scalar("SELECT count(member(k + 1)) FROM T") == .integer(0))
        #expect(try connection.scalar("SELECT count(member(k)) FROM T") == .integer(301))
        #expect(bitmap.hits == 301)
        #expect(try connection.scalar("SELECT member('4')") == .null)  // text is not a key
        #expect(try connection.scalar("SELECT member(NULL)") == .null)
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT insert_key(4)") }
        #expect(bitmap.rejectedKey == 4)
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT insert_key(1001)") }
        #expect(bitmap.rejectedKey == 1_001)
    }

    /// A path with characters that mean something in a URI is opened, and attached, as that file (the connection
    /// allows URIs only for ATTACH), and nothing can write the attached file.
    @Test func attachesAFileReadOnlyWhateverItsName() throws {
        try withTemporaryDatabase { url in
            let folder = url.deletingLastPathComponent().appendingPathComponent("a %20 ?b#c ü")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("source.sqlite").path
            try Connection(path: path).execute("CREATE TABLE T(x); INSERT INTO T VALUES (42)")
            let connection = try Connection(path: url.path)
            try connection.attach(readOnly: path, as: "source")
            #expect(try connection.scalar("SELECT x FROM source.T") == .integer(42))
            let error = #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO source.T VALUES (1)") }
            #expect(error?.primaryCode == 8)  // SQLITE_READONLY
            try connection.detach("source")
            #expect(try Connection(path: path).scalar("SELECT count(*) FROM T") == .integer(1))
        }
    }
}
