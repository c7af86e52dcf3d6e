import MappingModel
import PersistentStore
import SQLiteDatabase

/// In-memory storage: every row and edge of the pass waits until the pass saves, as Core Data keeps a
/// pass's objects in its context. Rows are kept encoded in large chunks (``EncodedRows``) — a tag byte and the
/// payload per value, no object per row — so that a million rows cost their bytes and little more.
///
/// The save hands SQLite each run of rows of one writer as a table (``HeldRunReader``), which one
/// `INSERT … SELECT` writes: no value is bound, and SQLite does per row only what inserting it takes. Each
/// required column's value is tested for NULL as it is written (``RequiredValueWitness``).
final class InMemoryRowBuffer: RowBuffer, RowSink {
    /// Rows held one after the other for the same writer (an index into `writers`).
    fileprivate struct Run {
        let writer: Int32
        let first: RowPosition
        var count: Int
    }

    private var writers: [DestinationWriter] = []
    private var writerIndexes: [ObjectIdentifier: Int32] = [:]
    private let encoded: EncodedRows
    /// Every run but the one still growing.
    private var runs: [Run] = []
    private var openRun: Run?
    /// The writer asked for last and its index: the rows of one writer come one after another, and reading
    /// `writers` per row was a checked access (swift_beginAccess).
    private var lastWriter: ObjectIdentifier?
    private var lastIndex: Int32 = 0
    /// The writer of the row started last.
    private var rowWriter: Int32 = 0
    /// Per destination table (its ``TableKeys``), primary key → row; built only when a held row is first
    /// changed, and kept up to date from then on: it holds the first `indexedRows` rows of run `indexedRun`
    /// and every row before, and `indexEnd` is where the last of them ends.
    private var rowIndexes: [ObjectIdentifier: [Int64: RowPosition]] = [:]
    private var indexedRun = 0
    private var indexedRows = 0
    private var indexEnd = RowPosition(chunk: 0, offset: 0)
    /// The rows changed after they were held, decoded.
    private var changed: [RowPosition: [SQLiteValue]] = [:]
    private var edges: [PendingEdge] = []
    private let destination: Store
    private let witness: RequiredValueWitness

    /// A buffer of rows for `destination`, kept in chunks of `chunkSize` bytes (see ``EncodedRows``).
    init(destination: Store, witness: RequiredValueWitness, chunkSize: Int = 1 << 17) {
        encoded = EncodedRows(chunkSize: chunkSize)
        self.destination = destination
        self.witness = witness
    }

    var savesAtPassEnd: Bool { true }

    func writeRow(
        _ object: ObjectID, writer: DestinationWriter, plan: RowPlan, from reader: RowReader,
        results: UnsafeBufferPointer<SQLiteValue>,
        stageOneKey: (StageOneForeignKey, RowReader) -> SQLiteValue
    ) throws {
        rowWriter = index(of: writer)
        encoded.startRow(primaryKey: object.primaryKey)
        try plan.fill(self, from: reader, results: results, stageOneKey: stageOneKey)
        finishRow()
    }

    /// Starts the row of `object`, filled value by value in slot order through the sink returned (this buffer),
    /// then ended by ``finishRow()``.
    func startRow(_ object: ObjectID, writer: DestinationWriter) -> any RowSink {
        rowWriter = index(of: writer)
        encoded.startRow(primaryKey: object.primaryKey)
        return self
    }

    func put(_ value: SQLiteValue) { encoded.append(value) }

    func copy(column: Int32, of statement: Statement) { encoded.append(column: column, of: statement) }

    func put(_ texts: SourceTexts, _ index: Int, maximumLength: Int, from statement: Statement, firstColumn: Int32) {
        encoded.append(texts, index, maximumLength: maximumLength, from: statement, firstColumn: firstColumn)
    }

    /// Ends the row started last.
    func finishRow() {
        let position = encoded.finishRow()
        if openRun?.writer == rowWriter {
            openRun!.count += 1
            return
        }
        if let openRun { runs.append(openRun) }
        openRun = Run(writer: rowWriter, first: position, count: 1)
    }

    func hold(_ object: ObjectID, values: [SQLiteValue], writer: DestinationWriter) {
        rowWriter = index(of: writer)
        encoded.startRow(primaryKey: object.primaryKey)
        for value in values { encoded.append(value) }
        finishRow()
    }

    func set(_ value: SQLiteValue, slot: Int, of object: ObjectID, writer: DestinationWriter) -> Bool {
        indexNewRows()
        guard let position = rowIndexes[ObjectIdentifier(writer.keys)]?[object.primaryKey] else { return false }
        var values = changed[position] ?? decode(at: position, values: writer.template.count)
        values[slot] = value
        changed[position] = values
        return true
    }

    func add(_ edge: PendingEdge) throws { edges.append(edge) }

    func writeTransientRows() throws {}

    func save() throws {
        if let openRun { runs.append(openRun) }
        openRun = nil
        let reader = HeldRunReader(rows: encoded, changed: changed)
        try witness.registerFunction()
        defer { witness.removeFunction() }
        let required = writers.map { RequiredValueWitness.requiredColumns(of: $0, in: destination) }
        // Runs in the order their rows were made; one statement for each.
        for run in runs {
            let writer = writers[Int(run.writer)]
            let (columns, allWritten) = required[Int(run.writer)]
            reader.select(first: run.first, count: run.count, values: writer.template.count)
            try writer.inserter.insertRows(from: reader) { column, value in
                columns.contains(column) ? RequiredValueWitness.tested(value) : value
            }
            if allWritten {
                witness.rowsTested += Int64(destination.connection.changes)
            }
        }
        for edge in edges { try edge.write() }
        writers = []
        writerIndexes = [:]
        lastWriter = nil
        encoded.removeAll()
        runs = []
        rowIndexes = [:]
        indexedRun = 0
        indexedRows = 0
        indexEnd = RowPosition(chunk: 0, offset: 0)
        changed = [:]
        edges = []
    }

    private func index(of writer: DestinationWriter) -> Int32 {
        if lastWriter == ObjectIdentifier(writer) { return lastIndex }
        lastWriter = ObjectIdentifier(writer)
        if let index = writerIndexes[ObjectIdentifier(writer)] {
            lastIndex = index
            return index
        }
        lastIndex = Int32(writers.count)
        writers.append(writer)
        writerIndexes[ObjectIdentifier(writer)] = lastIndex
        return lastIndex
    }

    /// Adds the rows held since the last call to `rowIndexes`.
    private func indexNewRows() {
        let runCount = runs.count + (openRun == nil ? 0 : 1)
        while indexedRun < runCount {
            let run = indexedRun < runs.count ? runs[indexedRun] : openRun!
            let writer = writers[Int(run.writer)]
            var position = indexedRows == 0 ? run.first : encoded.normalized(indexEnd)
            while indexedRows < run.count {
                var row = encoded.row(at: position)
                rowIndexes[ObjectIdentifier(writer.keys), default: [:]][row.primaryKey()] = position
                for _ in 0..<writer.template.count { row.skip() }
                indexEnd = RowPosition(chunk: position.chunk, offset: Int32(row.offset))
                indexedRows += 1
                position = encoded.normalized(indexEnd)
            }
            // The open run may still grow: the next call goes on inside it.
            if indexedRun == runs.count { return }
            indexedRun += 1
            indexedRows = 0
        }
    }

    private func decode(at position: RowPosition, values count: Int) -> [SQLiteValue] {
        var row = encoded.row(at: position)
        _ = row.primaryKey()
        return (0..<count).map { _ in row.next() }
    }
}

/// Hands SQLite one run of held rows as a table (see ``RowInserter/insertRows(from:)``): per row the primary key,
/// then the values, decoded as SQLite asks for them; a changed row's values come from `changed`. Each chunk is
/// released once the rows after it are being read.
private final class HeldRunReader: RowSource {
    private let rows: EncodedRows
    private let changed: [RowPosition: [SQLiteValue]]
    private var first = RowPosition(chunk: 0, offset: 0)
    private var count = 0
    private var values: Int32 = 0
    /// The rows of the run not read yet, the current one included.
    private var remaining = 0
    /// The chunk of the current row, and its rows' bytes.
    private var chunk: Int32 = 0
    private var chunkRows = UnsafeRawBufferPointer(start: nil, count: 0)
    private var row = RowDecoder(bytes: UnsafeRawBufferPointer(start: nil, count: 0), offset: 0)
    private var primaryKey: Int64 = 0
    /// Where the current row's values start, and the column the row reader is at (0 is the primary key).
    private var valuesStart = 0
    private var nextColumn: Int32 = 1
    private var changedValues: [SQLiteValue]?

    init(rows: EncodedRows, changed: [RowPosition: [SQLiteValue]]) {
        self.rows = rows
        self.changed = changed
        super.init()
    }

    /// Reads the `count` rows from `first` next, of `values` values each.
    func select(first: RowPosition, count: Int, values: Int) {
        self.first = first
        self.count = count
        self.values = Int32(values)
    }

    override func rewind() -> Bool {
        remaining = count
        chunk = first.chunk
        chunkRows = rows.rows(inChunk: chunk)
        return enter(at: Int(first.offset))
    }

    override func advance() -> Bool {
        // The decoder is worked on as a local copy (as in `column`): a stored property held across the calls
        // into SQLite would cost an exclusivity check per value.
        var row = self.row
        while nextColumn <= values {
            row.skip()
            nextColumn += 1
        }
        remaining -= 1
        var offset = row.offset
        while offset == chunkRows.count && remaining > 0 {
            chunk += 1
            // The row SQLite just wrote may still be in the chunk before; none before that is read again.
            rows.release(before: chunk - 1)
            chunkRows = rows.rows(inChunk: chunk)
            offset = 0
        }
        return enter(at: offset)
    }

    override func column(_ column: Int32, into result: ColumnResult) {
        if column == 0 { return result.set(primaryKey) }
        if let changedValues { return result.set(changedValues[Int(column) - 1]) }
        var row = self.row
        var next = nextColumn
        if column < next {
            row.offset = valuesStart
            next = 1
        }
        while next < column {
            row.skip()
            next += 1
        }
        row.setNext(into: result)
        self.row = row
        nextColumn = next + 1
    }

    private func enter(at offset: Int) -> Bool {
        guard remaining > 0 else { return false }
        var row = RowDecoder(bytes: chunkRows, offset: offset)
        primaryKey = row.primaryKey()
        valuesStart = row.offset
        self.row = row
        nextColumn = 1
        changedValues = changed.isEmpty ? nil : changed[RowPosition(chunk: chunk, offset: Int32(offset))]
        return true
    }
}
