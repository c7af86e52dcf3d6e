import SQLiteDatabase
import Testing

@Suite struct PredicateTests {
    /// The body sees every argument as SQLite passes it, and its answer is 1 or 0 in SQL.
    @Test func aPredicateReadsItsArgumentsAndAnswersOneOrZero() throws {
        let connection = try Connection(path: ":memory:")
        var seen: [[SQLiteValue]] = []
        try connection.registerPredicate("firstIsPositive", argumentCount: 5) { arguments in
            seen.append((0..<arguments.count).map { arguments.value(at: $0) })
            return arguments.int64(at: 0) > 0
        }
        #expect(try connection.scalar("SELECT firstIsPositive(7, 'text', NULL, 2.5, x'0001')") == .integer(1))
        #expect(try connection.scalar("SELECT firstIsPositive(-1, '', NULL, 0.0, x'')") == .integer(0))
        #expect(
            seen == [
                [.integer(7), .text("text"), .null, .real(2.5), .blob([0, 1])],
                [.integer(-1), .text(""), .null, .real(0), .blob([])],
            ])
        try connection.execute("CREATE TABLE T(x INTEGER); INSERT INTO T VALUES (1), (-2), (3);")
        #expect(try connection.scalar("SELECT count(*) FROM T WHERE firstIsPositive(x, 0, 0, 0, 0)") == .integer(2))
    }

    /// A predicate's body stays alive while the connection can call it, and goes with the connection.
    @Test func aPredicateLivesAsLongAsItsConnection() throws {
        final class Marker {}
        weak var released: Marker?
        do {
            let connection = try Connection(path: ":memory:")
            let marker = Marker()
            released = marker
            try connection.registerPredicate("holdsMarker", argumentCount: 0) { _ in
                withExtendedLifetime(marker) { true }
            }
            #expect(try connection.scalar("SELECT holdsMarker()") == .integer(1))
            #expect(released != nil)
        }
        #expect(released == nil)
    }
}
