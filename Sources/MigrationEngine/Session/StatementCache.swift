import MappingModel
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

    /// A statement that reads one property of an object by its primary key: the side of the store, the entity
    /// and the property, and what is read.
    struct LookupKey: Hashable {
        enum Reading: Hashable {
            /// The property's column.
            case column
            /// The objects of a to-many relationship.
            case objects
            /// The entity number of the object (`property` is empty).
            case entityNumber
        }

        let side: StoreSide
        let entity: String
        let property: String
        let reading: Reading
    }

    private var statements: [Key: Statement] = [:]
    private var lookups: [LookupKey: Statement] = [:]

    /// The lookup statement `key`, prepared from `sql()` the first time: a lookup made per object then builds no
    /// SQL text and hashes none.
    mutating func statement(
        for key: LookupKey, on connection: Connection, sql: () -> String
    ) throws -> Statement {
        if let statement = lookups[key] { return statement }
        let statement = try self.statement(sql(), on: connection)
        lookups[key] = statement
        return statement
    }

    mutating func statement(_ sql: String, on connection: Connection) throws -> Statement {
        let key = Key(connection: ObjectIdentifier(connection), sql: sql)
        if let statement = statements[key] { return statement }
        let statement = try connection.prepare(sql)
        statements[key] = statement
        return statement
    }
}
