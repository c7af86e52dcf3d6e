import MappingModel
import PersistentStore
import SQLiteDatabase

/// Where the rows of new destination objects wait until they are written — one kind per storage mode
/// (``MigrationOptions/Storage``), behind this one interface, so that the session never asks which mode runs.
protocol RowBuffer: AnyObject {
    /// Whether rows wait for the end of the pass (a save stage), rather than for the end of a source object.
    var savesAtPassEnd: Bool { get }
    /// Writes or holds the row of new default-policy object `object`, filled by `plan` value by value in slot
    /// order (``RowPlan/fill(_:from:results:stageOneKey:)``) into this buffer's own sink: no `[SQLiteValue]` is
    /// made for it, and no value goes through a protocol call.
    func writeRow(
        _ object: ObjectID, writer: DestinationWriter, plan: RowPlan, from reader: RowReader,
        results: UnsafeBufferPointer<SQLiteValue>,
        stageOneKey: (StageOneForeignKey, RowReader) -> SQLiteValue
    ) throws
    /// Holds the row of a new object.
    func hold(_ object: ObjectID, values: [SQLiteValue], writer: DestinationWriter)
    /// Sets column `slot` of a held row; false when the object's row is not held (it is in the store already).
    func set(_ value: SQLiteValue, slot: Int, of object: ObjectID, writer: DestinationWriter) -> Bool
    /// Holds or writes one join-table edge.
    func add(_ edge: PendingEdge) throws
    /// The current source object is done, or something is about to read the destination: hands the rows this
    /// mode does not keep to their writers, which queue them into their batches; they are in the store after
    /// ``DestinationObjects/flushBatches()``.
    func writeTransientRows() throws
    /// The pass saves: hands every row and edge held to their writers, in the order they were made.
    func save() throws
}

/// Receives the values of one row, in slot order.
protocol RowSink: AnyObject {
    /// The next value.
    func put(_ value: SQLiteValue) throws
    /// The next value, copied from column `column` of `statement`'s current row as it is stored.
    func copy(column: Int32, of statement: Statement) throws
    /// The next value, text `index` of `texts` composed from `statement`'s current row (whose slot 0 is column
    /// `firstColumn`), at most `maximumLength` bytes (``SourceTexts/Composition/text(maximumLength:)``).
    func put(
        _ texts: SourceTexts, _ index: Int, maximumLength: Int, from statement: Statement, firstColumn: Int32
    ) throws
}

/// Binds a row's values straight into a batch insert.
final class BatchRowSink: RowSink {
    private var batch: BatchRowInserter?
    /// The slot the next value goes to.
    private var slot = 0

    func start(_ batch: BatchRowInserter, primaryKey: Int64) throws {
        self.batch = batch
        slot = 0
        try batch.begin(primaryKey: primaryKey)
    }

    func put(_ value: SQLiteValue) throws {
        guard let batch else { preconditionFailure("a value was put outside a row") }
        try batch.statement.bind(value, at: batch.parameter(ofSlot: slot))
        slot += 1
    }

    func copy(column: Int32, of statement: Statement) throws {
        guard let batch else { preconditionFailure("a value was copied outside a row") }
        try batch.statement.bind(columnOf: statement, column, at: batch.parameter(ofSlot: slot))
        slot += 1
    }

    func put(
        _ texts: SourceTexts, _ index: Int, maximumLength: Int, from statement: Statement, firstColumn: Int32
    ) throws {
        guard let batch else { preconditionFailure("a value was put outside a row") }
        let parameter = batch.parameter(ofSlot: slot)
        slot += 1
        try withUnsafeTemporaryAllocation(byteCount: max(maximumLength, 1), alignment: 1) { buffer in
            let length = texts.write(index, from: statement, firstColumn: firstColumn, at: buffer.baseAddress!)
            try batch.statement.bindText(UnsafeRawBufferPointer(rebasing: buffer[..<length]), at: parameter)
        }
    }

    func finish() throws {
        try batch?.commitRow()
        batch = nil
    }
}

/// One edge of a join table, waiting for its write.
struct PendingEdge {
    let inserter: JoinRowInserter
    let owner: Int64
    let destination: Int64
    let orderKeys: (Int64?, Int64?)

    func write() throws {
        try inserter.insert(owner: owner, destination: destination, orderKeys: orderKeys)
    }
}

/// Streaming storage: the rows of the objects made from one source object wait only until that object is
/// done (a policy may still set their values), then go to their writers' batches; edges are written at once.
final class StreamingRowBuffer: RowBuffer {
    private struct Row {
        let object: ObjectID
        let writer: DestinationWriter
        var values: [SQLiteValue]
    }

    private var rows: [Row] = []
    private let sink = BatchRowSink()

    var savesAtPassEnd: Bool { false }

    /// Nothing can change a default-policy row before this buffer would write it: it goes to the batch at once.
    func writeRow(
        _ object: ObjectID, writer: DestinationWriter, plan: RowPlan, from reader: RowReader,
        results: UnsafeBufferPointer<SQLiteValue>,
        stageOneKey: (StageOneForeignKey, RowReader) -> SQLiteValue
    ) throws {
        try sink.start(try writer.batchInserter(), primaryKey: object.primaryKey)
        try plan.fill(sink, from: reader, results: results, stageOneKey: stageOneKey)
        try sink.finish()
    }

    func hold(_ object: ObjectID, values: [SQLiteValue], writer: DestinationWriter) {
        rows.append(Row(object: object, writer: writer, values: values))
    }

    func set(_ value: SQLiteValue, slot: Int, of object: ObjectID, writer: DestinationWriter) -> Bool {
        guard let index = rows.lastIndex(where: { $0.object == object }) else { return false }
        rows[index].values[slot] = value
        return true
    }

    func add(_ edge: PendingEdge) throws { try edge.write() }

    func writeTransientRows() throws {
        for row in rows { try row.writer.insert(primaryKey: row.object.primaryKey, values: row.values) }
        rows.removeAll(keepingCapacity: true)
    }

    func save() throws { try writeTransientRows() }
}
