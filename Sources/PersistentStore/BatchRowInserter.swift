import ObjectModel
public import SQLiteDatabase

/// Inserts objects of one entity many rows per statement, which saves SQLite most of its per-statement work.
///
/// The statement is `INSERT INTO T (…) SELECT * FROM (VALUES (…), (…), …) WHERE column1 IS NOT NULL`: a
/// partial batch is written by binding NULL to the primary key of the tuples it does not use. Fill a row
/// with ``begin(primaryKey:)`` and binds at ``parameter(ofSlot:)``, then ``commitRow()``; call ``flush()`` before
/// anything reads the table.
public final class BatchRowInserter {
    /// Rows per statement.
    public let rowsPerStatement: Int
    /// Parameters per row: `Z_PK`, `Z_ENT`, `Z_OPT` and the property columns, as in ``RowInserter``.
    public let columnsPerRow: Int32
    /// The columns of each row, as ``RowInserter/shape``.
    public let shape: RowShape
    /// The parameter of slot 0 in the first row, kept apart from ``shape`` for the per-value path.
    private let firstSlotParameter: Int32
    /// The statement; bind at ``parameter(_:)``.
    public let statement: Statement
    /// Rows filled and not written yet.
    public private(set) var pendingRows = 0
    private let entityNumber: Int64

    /// Prepares batched inserts of `entity`'s objects, with the columns and parameter order of `inserter`.
    public init(store: Store, inserter: RowInserter, rowsPerStatement: Int = 64) throws(StoreError) {
        let layout = store.layout
        let table = layout.table(for: inserter.entity)
        let names = inserter.shape.columnNames
        // SQLite allows 32,766 parameters in one statement: very wide rows get fewer per batch.
        let rowsPerStatement = max(1, min(rowsPerStatement, 32_766 / names.count))
        let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        let sql =
            "INSERT INTO \(quoted(table.name)) (\(names.map(quoted).joined(separator: ", "))) SELECT * FROM (VALUES "
            + Array(repeating: tuple, count: rowsPerStatement).joined(separator: ", ") + ") WHERE column1 IS NOT NULL"
        self.rowsPerStatement = rowsPerStatement
        self.columnsPerRow = Int32(names.count)
        self.shape = inserter.shape
        self.firstSlotParameter = inserter.shape.parameter(ofSlot: 0)
        self.statement = try storeOperation(store.path) { try store.connection.prepare(sql) }
        self.entityNumber = Int64(layout.entityNumbers[inserter.entity]!)
    }

    /// The parameter index of the row being filled that ``RowInserter`` would bind at `index`.
    @inline(__always)
    public func parameter(_ index: Int32) -> Int32 {
        Int32(pendingRows) * columnsPerRow + index
    }

    /// The parameter index of `slot` in the row being filled.
    @inline(__always)
    public func parameter(ofSlot slot: Int) -> Int32 { parameter(firstSlotParameter + Int32(slot)) }

    /// Binds the primary key, the entity number and `Z_OPT` 1 of the row being filled.
    public func begin(primaryKey: Int64) throws(SQLiteError) {
        try statement.bind(primaryKey, at: parameter(1))
        try statement.bind(entityNumber, at: parameter(2))
        try statement.bind(Int64(1), at: parameter(3))
    }

    /// Ends the row being filled; writes the batch when it is full.
    public func commitRow() throws(SQLiteError) {
        pendingRows += 1
        if pendingRows == rowsPerStatement {
            try statement.run()
            pendingRows = 0
        }
    }

    /// Writes the rows filled so far.
    public func flush() throws(SQLiteError) {
        guard pendingRows > 0 else { return }
        for row in pendingRows..<rowsPerStatement {
            try statement.bindNull(at: Int32(row) * columnsPerRow + 1)
        }
        try statement.run()
        pendingRows = 0
    }
}
