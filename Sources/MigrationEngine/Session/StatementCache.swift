import SQLiteDatabase

/// Prepared statements reused across the migration, by SQL text.
///
/// Keyed by connection as well: the source and destination stores have tables and columns of the same names, so
/// the same text read from the other store must not get the first store's statement.
struct StatementCache {
    private struct Key: Hashable {
        let connection: ObjectIdentifier
        let sql: String
    }

    private var statements: [Key: Statement] = [:]

    mutating func statement(_ sql: String, on connection: Connection) throws -> Statement {
        let key = Key(connection: ObjectIdentifier(connection), sql: sql)
        if let statement = statements[key] { return statement }
        let statement = try connection.prepare(sql)
        statements[key] = statement
        return statement
    }
}
