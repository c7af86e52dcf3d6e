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
    /// Every property of the entity by name, for values set by name (``property(named:)``).
    private let properties: [String: SettableProperty]
    /// Each slot's `UPDATE … SET <column> = ? WHERE Z_PK = ?` (and each foreign key's with its order key),
    /// prepared the first time a value is set after its object's row was written (a relationship stage sets one
    /// per object); keyed by the slot, plus the order key's slot + 1 shifted above it.
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
        var properties: [String: SettableProperty] = [:]
        for attribute in version.storedAttributes(of: entity) {
            guard let slot = inserter.slot(for: attribute.name) else { continue }
            if let value = attribute.defaultValue { template[slot] = value.sqliteValue }
            properties[attribute.name] = .attribute(slot: slot, type: attribute.type)
        }
        self.template = template
        for attribute in version.attributes(of: entity) where properties[attribute.name] == nil {
            properties[attribute.name] = .notStored
        }
        for relationship in version.relationships(of: entity) where properties[relationship.name] == nil {
            properties[relationship.name] = .relationship(relationship)
        }
        self.properties = properties
    }

    /// The entity's property `name`, with where its value goes: one dictionary lookup per value a policy sets.
    func property(named name: String) -> SettableProperty? { properties[name] }

    /// The prepared statement that sets column `slot`, then column `orderSlot` when given, of the row whose `Z_PK`
    /// is bound last.
    func update(slot: Int, orderSlot: Int? = nil) throws -> Statement {
        let key = slot | (orderSlot.map { ($0 + 1) << 32 } ?? 0)
        if let statement = updates[key] { return statement }
        let columns = [slot] + (orderSlot.map { [$0] } ?? [])
        let assignments = columns.map { "\(quoted(inserter.shape.slots[$0])) = ?" }.joined(separator: ", ")
        let statement = try store.connection.prepare("UPDATE \(quoted(table.name)) SET \(assignments) WHERE Z_PK = ?")
        updates[key] = statement
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

    /// Adds the row of the object with `primaryKey` to ``batch``, which writes it when it is full or flushed
    /// (``DestinationObjects/flushBatches()``, before anything reads or updates the destination): many rows per
    /// statement, as the default path writes them.
    func insert(primaryKey: Int64, values: [SQLiteValue]) throws {
        let batch = try batchInserter()
        try batch.begin(primaryKey: primaryKey)
        for (slot, value) in values.enumerated() {
            try batch.statement.bind(value, at: batch.parameter(ofSlot: slot))
        }
        try batch.commitRow()
    }
}

/// A property of a destination entity, as a value set by name reaches it.
enum SettableProperty {
    /// A stored attribute: its slot in the row and its type.
    case attribute(slot: Int, type: AttributeType)
    /// An attribute without a column (transient): it cannot be set.
    case notStored
    /// A relationship, own or inherited.
    case relationship(Relationship)
}

extension MigrationError {
    /// A value for `attribute` of `entity`, which has no slot in the destination's rows: it is transient or unknown.
    static func notStored(_ attribute: String, of entity: String) -> MigrationError {
        MigrationError(
            .evaluation, "attribute '\(entity).\(attribute)' is not stored", entity: entity, property: attribute,
            underlying: nil)
    }
}
