import ObjectModel
public import SQLiteDatabase

/// Reads the objects of one entity in primary-key order through one prepared statement, row by row.
///
/// Reads exactly the entity's own objects (not its subentities'), the way an entity mapping sees its
/// source instances. Slot `i` of the current row (``shape``) holds `properties[i]`; ``primaryKey`` is `Z_PK`.
public final class RowReader {
    /// The entity read.
    public let entity: String
    /// The properties read, in column order.
    public let properties: [String]
    /// The statement; read the current row's columns from it (column `shape.column(ofSlot: i)` holds
    /// `properties[i]`).
    public let statement: Statement
    /// The columns read: `Z_PK`, then one slot per property.
    public let shape: RowShape

    /// Prepares a read of `properties` (stored attributes and to-one relationships) of `entity`'s objects.
    ///
    /// - Throws: ``StoreError`` when a property is not stored in a column.
    public init(store: Store, entity: String, properties: [String]) throws(StoreError) {
        let layout = store.layout
        let table = layout.table(for: entity)
        var columns: [String] = []
        for property in properties {
            guard let column = table.column(for: property, of: entity, version: layout.version) else {
                throw StoreError(
                    .unsupportedModel, "'\(property)' is not stored in a column of '\(table.name)'", path: store.path,
                    entity: entity)
            }
            columns.append(column.name)
        }
        let number = layout.entityNumbers[entity]!
        let shape = RowShape.read(columns)
        let sql =
            "SELECT \(shape.columnNames.map(quoted).joined(separator: ", ")) FROM \(quoted(table.name)) WHERE Z_ENT = \(number) "
            + "ORDER BY Z_PK"
        self.entity = entity
        self.properties = properties
        self.shape = shape
        self.statement = try storeOperation(store.path) { try store.connection.prepare(sql) }
    }

    /// Moves to the next object; false when there are no more.
    public func next() throws(SQLiteError) -> Bool {
        if try statement.step() { return true }
        statement.reset()
        return false
    }

    /// The current object's primary key.
    public var primaryKey: Int64 { statement.int64(0) }

    /// The current object's value of `properties[index]`.
    public func value(at index: Int) -> SQLiteValue { statement.value(shape.column(ofSlot: index)) }

    /// The current object's value of `properties[index]` when it is stored as an integer (a foreign key), else
    /// nil: ``value(at:)``'s `int64`, without making the value.
    public func integer(at index: Int) -> Int64? {
        let stored = statement.storedColumn(shape.column(ofSlot: index))
        return stored.kind == .integer ? stored.int64 : nil
    }
}
