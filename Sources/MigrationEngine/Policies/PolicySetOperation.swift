import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// A built-in policy whose stage 1 can run as ``BulkInstanceCreation``'s set operation: the default row of its
/// mapping, with some columns computed by SQL functions the policy registers, so that the statement makes
/// exactly the rows its `createDestinationInstances` would, object by object, in source-key order.
protocol SetOperationPolicy: EntityMigrationPolicy {
    /// The columns `mapping`'s rows take from the policy, or nil when this mapping needs the per-object path.
    func setOperation(
        for mapping: EntityMapping, writer: DestinationWriter, session: MigrationSession
    ) throws
        -> PolicySetOperation?
}

/// The columns a ``SetOperationPolicy`` fills in the set operation: each column's SQL, and the functions it
/// calls, registered for the statement's life.
struct PolicySetOperation {
    /// A function of no arguments SQLite calls once per row made (registered non-deterministic, so never
    /// factored out of the loop), and the column it fills.
    struct Column {
        let column: String
        let function: String
        let value: () -> SQLiteValue
    }

    let columns: [Column]

    /// The SQL each replaced column takes, by column name.
    var sql: [String: String] {
        Dictionary(uniqueKeysWithValues: columns.map { ($0.column, "\($0.function)()") })
    }

    func register(on connection: Connection) throws {
        for column in columns {
            let value = column.value
            try connection.registerFunction(column.function, argumentCount: 0) { call in call.result(value()) }
        }
    }

    func remove(from connection: Connection) {
        for column in columns { try? connection.removeFunction(column.function, argumentCount: 0) }
    }
}

extension AssignNewIdentifierPolicy: SetOperationPolicy {
    /// A UUID attribute the mapping does not fill itself: the row is the default row with a UUID drawn per
    /// object from the session's generator, in the order the per-object path draws them (source keys
    /// ascending). A String attribute, or one the mapping also fills (whose expression the per-object path
    /// evaluates, and may fail on, before overwriting it), keeps the per-object path.
    func setOperation(
        for mapping: EntityMapping, writer: DestinationWriter, session: MigrationSession
    ) throws
        -> PolicySetOperation?
    {
        let attribute = try BuiltInPolicies.setting("attribute", of: mapping)
        guard !mapping.attributeMappings.contains(where: { $0.name == attribute }),
            case .attribute(let slot, .uuid)? = writer.property(named: attribute)
        else { return nil }
        return PolicySetOperation(columns: [
            PolicySetOperation.Column(
                column: writer.inserter.shape.slots[slot], function: "migrationbench_new_uuid",
                value: { [unowned session] in AttributeValue.uuid(session.makeUUID()).sqliteValue })
        ])
    }
}
