import MappingModel
import PersistentStore
import SQLiteDatabase

/// Where the rows of new destination objects wait until they are written — one kind per storage mode
/// (``MigrationOptions/Storage``), behind this one interface, so that the session never asks which mode runs.
protocol RowBuffer: AnyObject {
    /// Whether a default-policy object's row may be written at once, bound straight from the source row:
    /// nothing can change it before the buffer would write it anyway.
    var writesRowsAtOnce: Bool { get }
    /// Holds the row of a new object.
    func hold(_ object: ObjectID, values: [SQLiteValue], writer: DestinationWriter)
    /// Sets column `slot` of a held row; false when the object's row is not held (it is in the store already).
    func set(_ value: SQLiteValue, slot: Int, of object: ObjectID, writer: DestinationWriter) -> Bool
    /// Holds or writes one join-table edge.
    func add(_ edge: PendingEdge) throws
    /// The current source object is done, or something is about to read the destination: writes the rows
    /// this mode does not keep.
    func writeTransientRows() throws
    /// The pass saves: writes every row and edge held, in the order they were made.
    func save() throws
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
/// done (a policy may still set their values); edges are written at once.
final class StreamingRowBuffer: RowBuffer {
    private struct Row {
        let object: ObjectID
        let writer: DestinationWriter
        var values: [SQLiteValue]
    }

    private var rows: [Row] = []

    var writesRowsAtOnce: Bool { true }

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
