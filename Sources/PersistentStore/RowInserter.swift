import ObjectModel
public import SQLiteDatabase

/// Inserts objects of one entity through one reused prepared statement.
///
/// Parameters are bound by property slot (``shape``); `Z_PK`, `Z_ENT` and `Z_OPT` are bound by
/// ``begin(primaryKey:)``.
/// Every property parameter must be bound (or bound to NULL) before each ``insert()``: SQLite keeps
/// bindings between runs, so a forgotten one silently repeats the previous row's value.
public final class RowInserter {
    /// The entity whose objects this inserts.
    public let entity: String
    /// The statement; bind property values to it at the indexes from ``parameter(for:)``.
    public let statement: Statement
    /// The columns written: the bookkeeping columns, then one slot per property column, in parameter order.
    public let shape: RowShape

    private let entityNumber: Int64
    private let slots: [String: Int]
    private let orderKeySlots: [String: Int]
    private let tableName: String
    /// The statement of ``insertRows(from:)``, prepared when first needed.
    private var sourceInsert: Statement?

    /// Prepares the insert of `entity`'s objects with every stored attribute and to-one relationship.
    public init(store: Store, entity: String) throws(StoreError) {
        let layout = store.layout
        let table = layout.table(for: entity)
        let lineage = Set([entity] + layout.version.ancestors(of: entity))
        // Entity-number columns are filled from the destinations' rows once they are in (Store.fillEntityNumbers).
        let columns = table.columns.filter { lineage.contains($0.entity) && $0.kind != .entityNumber }
        var slots: [String: Int] = [:]
        var orderKeys: [String: Int] = [:]
        for (slot, column) in columns.enumerated() {
            if column.kind == .orderKey {
                orderKeys[column.property] = slot
            } else {
                slots[column.property] = slot
            }
        }
        let shape = RowShape.inserted(columns.map(\.name))
        let sql =
            "INSERT INTO \(quoted(table.name)) (\(shape.columnNames.map(quoted).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: shape.width).joined(separator: ", ") + ")"
        self.entity = entity
        self.statement = try storeOperation(store.path) { try store.connection.prepare(sql) }
        self.shape = shape
        self.entityNumber = Int64(layout.entityNumbers[entity]!)
        self.slots = slots
        self.orderKeySlots = orderKeys
        self.tableName = table.name
    }

    /// The slot of an attribute or to-one relationship of the entity.
    public func slot(for property: String) -> Int? { slots[property] }

    /// The slot of the `Z_FOK_` order key of the to-one `relationship`, when its inverse is ordered.
    public func orderKeySlot(for relationship: String) -> Int? { orderKeySlots[relationship] }

    /// The parameter index of an attribute or to-one relationship of the entity.
    public func parameter(for property: String) -> Int32? { slots[property].map(shape.parameter(ofSlot:)) }

    /// The parameter index of the `Z_FOK_` order key of the to-one `relationship`, when its inverse is ordered.
    public func orderKeyParameter(for relationship: String) -> Int32? {
        orderKeySlots[relationship].map(shape.parameter(ofSlot:))
    }

    /// Binds the primary key, the entity number and `Z_OPT` 1 for the next row.
    public func begin(primaryKey: Int64) throws(SQLiteError) {
        try statement.bind(primaryKey, at: 1)
        try statement.bind(entityNumber, at: 2)
        try statement.bind(Int64(1), at: 3)
    }

    /// Inserts the row bound so far.
    public func insert() throws(SQLiteError) {
        try statement.run()
    }

    /// Inserts every row of `source` with one `INSERT … SELECT`, nothing bound per value: a source row is the
    /// primary key, then the property values in slot order;
    /// `Z_ENT` and `Z_OPT` 1 are added. The source is read only during the call.
    ///
    /// `value` gives the SQL written to a column from the SQL reading it from the source; it is asked once, when the
    /// statement is first prepared, and must answer the same at every call.
    public func insertRows(
        from source: RowSource, value: (_ column: String, _ read: String) -> String = { $1 }
    ) throws(SQLiteError) {
        let insert: Statement
        if let prepared = sourceInsert { insert = prepared } else { insert = try prepareSourceInsert(value: value) }
        try insert.bind(source, at: 1)
        defer { insert.clearBindings() }
        try insert.run()
    }

    private func prepareSourceInsert(value: (String, String) -> String) throws(SQLiteError) -> Statement {
        let connection = statement.connection
        // A source row is read-shaped: its key, then the slots.
        let read = RowShape.read(shape.slots)
        let table = try connection.rowSourceTable(columns: Int32(read.width))
        let values =
            ["c0", String(entityNumber), "1"]
            + shape.slots.enumerated().map { value($1, "c\(read.column(ofSlot: $0))") }
        let sql =
            "INSERT INTO \(quoted(tableName)) (\(shape.columnNames.map(quoted).joined(separator: ", "))) SELECT "
            + values.joined(separator: ", ") + " FROM \(table)(?)"
        let insert = try connection.prepare(sql)
        sourceInsert = insert
        return insert
    }
}

/// Inserts edges into one join table through one reused prepared statement.
public final class JoinRowInserter {
    /// The join table.
    public let table: JoinTable
    private let statement: Statement
    private let orderColumns: Int

    /// Prepares inserts into `table`.
    public init(store: Store, table: JoinTable) throws(StoreError) {
        let columns = table.columns
        let sql =
            "INSERT INTO \(quoted(table.name)) (\(columns.map(quoted).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        self.table = table
        self.statement = try storeOperation(store.path) { try store.connection.prepare(sql) }
        self.orderColumns = columns.count - 2
    }

    /// Inserts the edge owner → destination; order keys are given for the ordered sides: the owner
    /// relationship's, then the inverse's.
    public func insert(owner: Int64, destination: Int64, orderKeys: (Int64?, Int64?) = (nil, nil)) throws(SQLiteError) {
        try statement.bind(owner, at: 1)
        try statement.bind(destination, at: 2)
        // The order key of the owner side's rows (the inverse's list) comes first (format note M5).
        var index: Int32 = 3
        if table.inverseOrderColumn != nil {
            try statement.bind(orderKeys.1 ?? 0, at: index)
            index += 1
        }
        if table.ownerOrderColumn != nil {
            try statement.bind(orderKeys.0 ?? 0, at: index)
        }
        try statement.run()
    }
}
