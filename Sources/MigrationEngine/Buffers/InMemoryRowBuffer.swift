import MappingModel
import PersistentStore
import SQLiteDatabase

/// In-memory storage: every row and edge of the pass waits until the pass saves, as Core Data keeps a
/// pass's objects in its context. Rows are kept encoded in large chunks — a tag byte and the payload per
/// value, no object per row — so that a million rows cost their bytes and little more.
final class InMemoryRowBuffer: RowBuffer, RowSink {
    /// One held row: its writer (an index into `writers`), its key, and where its bytes are.
    private struct HeldRow {
        let writer: Int32
        let chunk: Int32
        let offset: Int32
        let primaryKey: Int64
    }

    private static let chunkSize = 1 << 20

    private var writers: [DestinationWriter] = []
    private var writerIndexes: [ObjectIdentifier: Int32] = [:]
    private var chunks: [[UInt8]] = []
    private var rows: [HeldRow] = []
    /// Per destination table (its ``TableKeys``), primary key → row; built only when a held row is first
    /// changed, and kept up to date from then on (`indexed` rows are in it).
    private var rowIndexes: [ObjectIdentifier: [Int64: Int32]] = [:]
    private var indexed = 0
    /// The rows changed after they were held, decoded.
    private var changed: [Int32: [SQLiteValue]] = [:]
    private var edges: [PendingEdge] = []
    private var scratch = RowEncoder()
    private var started: (object: ObjectID, writer: DestinationWriter)?

    var savesAtPassEnd: Bool { true }

    func startRow(_ object: ObjectID, writer: DestinationWriter) throws -> any RowSink {
        scratch.reset()
        started = (object, writer)
        return self
    }

    func put(_ value: SQLiteValue) { scratch.append(value) }

    func copy(column: Int32, of statement: Statement) { scratch.append(column: column, of: statement) }

    func finishRow() throws {
        guard let started else { preconditionFailure("finishRow() without startRow") }
        keep(started.object, writer: started.writer)
        self.started = nil
    }

    func hold(_ object: ObjectID, values: [SQLiteValue], writer: DestinationWriter) {
        scratch.reset()
        for value in values { scratch.append(value) }
        keep(object, writer: writer)
    }

    /// Keeps the row in `scratch`.
    private func keep(_ object: ObjectID, writer: DestinationWriter) {
        let (chunk, offset) = place(scratch.bytes)
        rows.append(HeldRow(writer: index(of: writer), chunk: chunk, offset: offset, primaryKey: object.primaryKey))
    }

    func set(_ value: SQLiteValue, slot: Int, of object: ObjectID, writer: DestinationWriter) -> Bool {
        while indexed < rows.count {
            let row = rows[indexed]
            rowIndexes[ObjectIdentifier(writers[Int(row.writer)].keys), default: [:]][row.primaryKey] = Int32(indexed)
            indexed += 1
        }
        guard let row = rowIndexes[ObjectIdentifier(writer.keys)]?[object.primaryKey] else { return false }
        var values = changed[row] ?? decode(rows[Int(row)])
        values[slot] = value
        changed[row] = values
        return true
    }

    func add(_ edge: PendingEdge) throws { edges.append(edge) }

    func writeTransientRows() throws {}

    func save() throws {
        var released = 0
        for (number, row) in rows.enumerated() {
            // Rows lie in the chunks in order: a chunk behind the current row is written, and its memory can go
            // back while SQLite's page cache fills.
            while released < Int(row.chunk) {
                chunks[released] = []
                released += 1
            }
            let writer = writers[Int(row.writer)]
            if let values = changed[Int32(number)] {
                try writer.insert(primaryKey: row.primaryKey, values: values)
                continue
            }
            // Many rows per statement, as the streaming default path writes them.
            let batch = writer.batch
            try batch.begin(primaryKey: row.primaryKey)
            try chunks[Int(row.chunk)].withUnsafeBytes { bytes in
                var reader = RowDecoder(bytes: bytes, offset: Int(row.offset))
                for slot in 0..<writer.template.count {
                    try reader.bindNext(to: batch.statement, at: batch.parameter(Int32(slot + 4)))
                }
            }
            try batch.commitRow()
        }
        for writer in writers { try writer.batch.flush() }
        for edge in edges { try edge.write() }
        writers = []
        writerIndexes = [:]
        chunks = []
        rows = []
        rowIndexes = [:]
        indexed = 0
        changed = [:]
        edges = []
    }

    private func index(of writer: DestinationWriter) -> Int32 {
        if let index = writerIndexes[ObjectIdentifier(writer)] { return index }
        let index = Int32(writers.count)
        writers.append(writer)
        writerIndexes[ObjectIdentifier(writer)] = index
        return index
    }

    /// Copies `bytes` into the last chunk, or a new one when they do not fit.
    private func place(_ bytes: [UInt8]) -> (chunk: Int32, offset: Int32) {
        if chunks.isEmpty || chunks[chunks.count - 1].count + bytes.count > Self.chunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkSize, bytes.count))
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        let offset = chunks[last].count
        chunks[last].append(contentsOf: bytes)
        return (Int32(last), Int32(offset))
    }

    private func decode(_ row: HeldRow) -> [SQLiteValue] {
        let count = writers[Int(row.writer)].template.count
        return chunks[Int(row.chunk)].withUnsafeBytes { bytes in
            var reader = RowDecoder(bytes: bytes, offset: Int(row.offset))
            return (0..<count).map { _ in reader.next() }
        }
    }
}
