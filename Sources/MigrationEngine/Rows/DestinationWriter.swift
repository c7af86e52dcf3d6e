import ObjectModel
import PersistentStore
import SQLiteDatabase

/// The insert statement of one destination entity and its row template (defaults filled in).
final class DestinationWriter {
    let entity: String
    let entityNumber: Int32
    let table: EntityTable
    let inserter: RowInserter
    let template: [SQLiteValue]
    /// The primary keys of the entity's table, shared with the other entities of that table.
    let keys: TableKeys
    /// Many rows per statement, for the streaming default path; prepared when its first row comes, since a
    /// mapping that runs in SQL (``BulkInstanceCreation``) or through a policy never uses it, and preparing its
    /// 64-row statement costs about 1.3 million instructions.
    private(set) var batch: BatchRowInserter?
    private let store: Store
    private let attributeTypes: [String: AttributeType]
    /// Each slot's `UPDATE … SET <column> = ? WHERE Z_PK = ?`, prepared the first time a value is set after its
    /// object's row was written (a relationship stage sets one per object).
    private var updates: [Int: Statement] = [:]

    init(store: Store, entity: String, keys: TableKeys) throws {
        self.keys = keys
        let version = store.version
        self.entity = entity
        self.entityNumber = Int32(store.layout.entityNumbers[entity]!)
        self.table = store.layout.table(for: entity)
        self.inserter = try RowInserter(store: store, entity: entity)
        self.store = store
        var template = [SQLiteValue](repeating: .null, count: inserter.shape.slots.count)
        var types: [String: AttributeType] = [:]
        for attribute in version.storedAttributes(of: entity) {
            types[attribute.name] = attribute.type
            if let slot = inserter.slot(for: attribute.name), let value = attribute.defaultValue {
                template[slot] = value.sqliteValue
            }
        }
        self.template = template
        self.attributeTypes = types
    }

    /// The prepared statement that sets column `slot` of the row whose `Z_PK` is bound second.
    func update(slot: Int) throws -> Statement {
        if let statement = updates[slot] { return statement }
        let column = inserter.shape.slots[slot]
        let statement = try store.connection.prepare(
            "UPDATE \(quoted(table.name)) SET \(quoted(column)) = ? WHERE Z_PK = ?")
        updates[slot] = statement
        return statement
    }

    /// ``batch``, prepared the first time it is asked for.
    func batchInserter() throws -> BatchRowInserter {
        if let batch { return batch }
        let batch = try BatchRowInserter(store: store, inserter: inserter)
        self.batch = batch
        return batch
    }

    func slot(for property: String) -> Int? { inserter.slot(for: property) }
    func orderKeySlot(for relationship: String) -> Int? { inserter.orderKeySlot(for: relationship) }
    func type(of attribute: String) -> AttributeType? { attributeTypes[attribute] }

    func insert(primaryKey: Int64, values: [SQLiteValue]) throws {
        try inserter.begin(primaryKey: primaryKey)
        let first = inserter.shape.parameter(ofSlot: 0)
        for (slot, value) in values.enumerated() {
            try inserter.statement.bind(value, at: first + Int32(slot))
        }
        try inserter.insert()
    }
}

extension MigrationError {
    /// A value for `attribute` of `entity`, which has no slot in the destination's rows: it is transient or unknown.
    static func notStored(_ attribute: String, of entity: String) -> MigrationError {
        MigrationError(
            .evaluation, "attribute '\(entity).\(attribute)' is not stored", entity: entity, property: attribute,
            underlying: nil)
    }
}
