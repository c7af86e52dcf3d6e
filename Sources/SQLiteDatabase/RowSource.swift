import CSQLite

/// Rows that Swift code hands to SQLite as a table, so that `INSERT … SELECT` can write many of them in one
/// statement with nothing bound per value.
///
/// SQLite reads a source through a table-valued function of ``Connection/rowSourceTable(columns:)``, whose one
/// argument is the source bound with `Statement.bind(_:at:)`:
///
/// ```swift
/// let table = try connection.rowSourceTable(columns: 2)
/// let insert = try connection.prepare("INSERT INTO T (a, b) SELECT c0, c1 FROM \(table)(?)")
/// try insert.bind(rows, at: 1)
/// try insert.run()
/// ```
///
/// SQLite asks for the columns of the current row in any order, any number of times; the usual order is
/// 0, 1, 2, …, once each. A subclass overrides the three methods; this class itself is an empty table. (A class
/// rather than a protocol: SQLite calls in once per value, and a class reference can be held without counting.)
open class RowSource {
    /// A source with no state of its own.
    public init() {}

    /// Moves to the first row; false when there is none.
    open func rewind() -> Bool { false }

    /// Moves to the next row; false when there is none.
    open func advance() -> Bool { false }

    /// Gives SQLite column `column` (0-based) of the current row.
    open func column(_ column: Int32, into result: ColumnResult) { result.setNull() }
}

/// Where a value SQLite asked for goes: the `sqlite3_context` of one `xColumn` call (a ``RowSource``'s column)
/// or of one call of a registered SQL function (``FunctionCall``).
public struct ColumnResult {
    let context: OpaquePointer

    /// SQL `NULL`.
    public func setNull() { sqlite3_result_null(context) }

    /// An integer.
    public func set(_ value: Int64) { sqlite3_result_int64(context, value) }

    /// A floating-point number.
    public func set(_ value: Double) { sqlite3_result_double(context, value) }

    /// UTF-8 text that SQLite does not copy: the bytes must stay as they are until the source moves to another
    /// row (sqlite.org/c3ref/result_blob.html: with SQLITE_STATIC "SQLite assumes that the text or BLOB result is
    /// in constant space and does not copy the content").
    public func setText(borrowing utf8: UnsafeRawBufferPointer) { setText(utf8, sqliteStatic) }

    /// A blob that SQLite does not copy, under the same condition as ``setText(borrowing:)``.
    public func setBlob(borrowing bytes: UnsafeRawBufferPointer) { setBlob(bytes, sqliteStatic) }

    /// Any value; text and blobs are copied.
    public func set(_ value: SQLiteValue) {
        switch value {
        case .null: setNull()
        case .integer(let integer): set(integer)
        case .real(let real): set(real)
        case .text(var text): text.withUTF8 { setText(UnsafeRawBufferPointer($0), sqliteTransient) }
        case .blob(let bytes): bytes.withUnsafeBytes { setBlob($0, sqliteTransient) }
        }
    }

    private func setText(_ utf8: UnsafeRawBufferPointer, _ destructor: sqlite3_destructor_type?) {
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            // A NULL pointer would make the result NULL: empty text comes from a real (static, empty) string.
            sqlite3_result_text(context, "", 0, sqliteTransient)
            return
        }
        sqlite3_result_text64(
            context, base.assumingMemoryBound(to: CChar.self), UInt64(utf8.count), destructor, UInt8(SQLITE_UTF8))
    }

    private func setBlob(_ bytes: UnsafeRawBufferPointer, _ destructor: sqlite3_destructor_type?) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            // A NULL pointer would make the result NULL, as for text; a zero-length zeroblob is an empty blob.
            sqlite3_result_zeroblob(context, 0)
            return
        }
        sqlite3_result_blob64(context, base, UInt64(bytes.count), destructor)
    }
}

extension Connection {
    /// The name of the table-valued function that reads a ``RowSource`` of `columns` columns, named `c0`, `c1`,
    /// …; registered on this connection the first time it is asked for.
    ///
    /// It is an eponymous-only virtual table (sqlite.org/vtab.html#eponymous_only_virtual_tables): nothing is
    /// written to the database's schema.
    public func rowSourceTable(columns: Int32) throws(SQLiteError) -> String {
        let name = "migrationbench_rows_\(columns)"
        if rowSourceColumnCounts.contains(columns) { return name }
        let code = sqlite3_create_module_v2(
            handle, name, UnsafePointer(RowSourceModule.module), UnsafeMutableRawPointer(bitPattern: Int(columns)),
            nil)
        try check(code, sql: "module \(name)")
        rowSourceColumnCounts.insert(columns)
        return name
    }
}

extension Statement {
    /// Binds `source` to the parameter at `index` (1-based): the argument of a ``Connection/rowSourceTable(columns:)``
    /// function. The source is not retained: it must live until the statement is reset.
    public func bind(_ source: RowSource, at index: Int32) throws(SQLiteError) {
        let pointer = Unmanaged.passUnretained(source).toOpaque()
        try check(sqlite3_bind_pointer(handle, index, pointer, RowSourceModule.pointerType, nil))
    }
}

/// `SQLITE_STATIC`, which the C header defines as `((sqlite3_destructor_type)0)`.
private let sqliteStatic: sqlite3_destructor_type? = nil

/// The virtual table module behind ``Connection/rowSourceTable(columns:)``; its client data is the number of
/// columns, its hidden last column `source` the bound ``RowSource``.
private enum RowSourceModule {
    /// A table: SQLite's part first, as sqlite.org/vtab.html#the_xcreate_method asks of a subclass.
    struct Table {
        var base = sqlite3_vtab()
        /// The index of the hidden column `source`, after the row's columns.
        var sourceColumn: Int32
    }

    /// A cursor: SQLite's part first, as sqlite.org/vtab.html#the_xopen_method asks of a subclass.
    struct Cursor {
        var base = sqlite3_vtab_cursor()
        /// Not retained: whoever bound the source keeps it alive while SQLite reads it.
        var source: Unmanaged<RowSource>?
        var row: Int64 = 0
        var atEnd = true
    }

    /// The type of the pointers bound to `source` (sqlite.org/bindptr.html); a string that never goes away,
    /// since SQLite keeps and compares the pointer.
    nonisolated(unsafe) static let pointerType: UnsafePointer<CChar> = {
        let name = Array("migrationbench-row-source".utf8CString)
        let stored = UnsafeMutablePointer<CChar>.allocate(capacity: name.count)
        stored.initialize(from: name, count: name.count)
        return UnsafePointer(stored)
    }()

    // Written once, read-only afterwards.
    nonisolated(unsafe) static let module: UnsafeMutablePointer<sqlite3_module> = {
        var module = sqlite3_module()
        module.iVersion = 1
        // No xCreate: an eponymous-only table, usable only as the table-valued function of its module's name.
        module.xConnect = { database, clientData, _, _, table, _ in
            let columns = Int(bitPattern: clientData)
            let names = (0..<columns).map { "c\($0)" } + ["source HIDDEN"]
            let code = sqlite3_declare_vtab(database, "CREATE TABLE x(\(names.joined(separator: ", ")))")
            guard code == SQLITE_OK else { return code }
            let allocated = UnsafeMutablePointer<Table>.allocate(capacity: 1)
            allocated.initialize(to: Table(sourceColumn: Int32(columns)))
            table!.pointee = UnsafeMutableRawPointer(allocated).assumingMemoryBound(to: sqlite3_vtab.self)
            return SQLITE_OK
        }
        module.xBestIndex = { table, info in
            // The only plan reads the source bound to the hidden column: without it there is nothing to read.
            let info = info!
            let sourceColumn = UnsafeMutableRawPointer(table!).assumingMemoryBound(to: Table.self).pointee.sourceColumn
            for index in 0..<Int(info.pointee.nConstraint) {
                let constraint = info.pointee.aConstraint[index]
                guard constraint.usable != 0, constraint.op == UInt8(SQLITE_INDEX_CONSTRAINT_EQ),
                    constraint.iColumn == sourceColumn
                else { continue }
                info.pointee.aConstraintUsage[index].argvIndex = 1
                info.pointee.aConstraintUsage[index].omit = 1
                info.pointee.estimatedCost = 1
                return SQLITE_OK
            }
            return SQLITE_CONSTRAINT
        }
        module.xDisconnect = { table in
            UnsafeMutableRawPointer(table!).assumingMemoryBound(to: Table.self).deallocate()
            return SQLITE_OK
        }
        module.xDestroy = module.xDisconnect
        module.xOpen = { _, cursor in
            let allocated = UnsafeMutablePointer<Cursor>.allocate(capacity: 1)
            allocated.initialize(to: Cursor())
            cursor!.pointee = UnsafeMutableRawPointer(allocated).assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        module.xClose = { cursor in
            let state = state(cursor)
            state.deinitialize(count: 1)
            state.deallocate()
            return SQLITE_OK
        }
        module.xFilter = { cursor, _, _, count, arguments in
            let state = state(cursor)
            state.pointee.row = 0
            guard count == 1, let pointer = sqlite3_value_pointer(arguments![0], pointerType) else {
                state.pointee.source = nil
                state.pointee.atEnd = true
                return SQLITE_OK
            }
            // The pointer type is ours: only Statement.bind(_:at:) binds one, and always a RowSource.
            let source = Unmanaged<RowSource>.fromOpaque(pointer)
            state.pointee.source = source
            state.pointee.atEnd = !source._withUnsafeGuaranteedRef { $0.rewind() }
            return SQLITE_OK
        }
        module.xNext = { cursor in
            let state = state(cursor)
            state.pointee.row += 1
            state.pointee.atEnd = !state.pointee.source!._withUnsafeGuaranteedRef { $0.advance() }
            return SQLITE_OK
        }
        module.xEof = { cursor in state(cursor).pointee.atEnd ? 1 : 0 }
        module.xColumn = { cursor, context, column in
            let result = ColumnResult(context: context!)
            state(cursor).pointee.source!._withUnsafeGuaranteedRef { $0.column(column, into: result) }
            return SQLITE_OK
        }
        module.xRowid = { cursor, rowid in
            rowid!.pointee = state(cursor).pointee.row
            return SQLITE_OK
        }
        let pointer = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        pointer.initialize(to: module)
        return pointer
    }()

    private static func state(_ cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> UnsafeMutablePointer<Cursor> {
        UnsafeMutableRawPointer(cursor!).assumingMemoryBound(to: Cursor.self)
    }
}
