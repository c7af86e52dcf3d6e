import MappingModel
import PersistentStore

/// The source store read object by object: how many objects each entity has, and the object being migrated —
/// the reader on its row, the reader's columns, and the object itself.
///
/// Policies and expressions read the current object's values straight from the row (``MigrationSession``'s
/// `sourceValue` and `$source`); outside ``forEachObject(of:progress:_:)`` there is no current object.
final class SourceCursor {
    private let store: Store
    /// Objects per source entity, counted once before the first pass.
    let objectCounts: [String: Int]
    /// The reader on the current object's row.
    private(set) var reader: RowReader?
    /// What `reader`'s columns hold.
    private var columns: ReaderColumns?
    /// The current object.
    private(set) var object: ObjectID?
    /// Source rows read so far, for the profile (rows SQLite reads for a mapping made in SQL are added to it).
    var rowsRead = 0

    init(source: Store, objectCounts: [String: Int]) {
        self.store = source
        self.objectCounts = objectCounts
    }

    /// The current object's attribute in `slot`, read straight from its row; null outside a row.
    func attribute(slot: Int) -> ExpressionValue {
        guard let reader, let columns, slot < columns.attributeTypes.count else { return .null }
        return MigrationSession.expressionValue(reader.value(at: slot), as: columns.attributeTypes[slot])
    }

    /// The current object's stored attribute `name`, read straight from its row; nil when it has no such stored
    /// attribute (a relationship, a transient attribute, an unknown name) or there is no current object.
    func attribute(named name: String) -> ExpressionValue? {
        guard let columns, let slot = columns.indexes[name], slot < columns.attributeTypes.count else { return nil }
        return attribute(slot: slot)
    }

    /// The reader column of `property` of the current object, if `object` is the current object and has one.
    func column(of property: String, for object: ObjectID) -> Int? {
        guard object == self.object else { return nil }
        return columns?.indexes[property]
    }

    /// Runs `body` for every object of exactly `entity` in the source store, with the reader on its row,
    /// advancing `progress` by one per object.
    func forEachObject(of entity: String, progress: ProgressCounter, _ body: (ObjectID) throws -> Void) throws {
        let columns = ReaderColumns(entity: entity, version: store.version)
        let rows = try RowReader(store: store, entity: entity, properties: columns.properties)
        let number = Int32(store.layout.entityNumbers[entity]!)
        reader = rows
        self.columns = columns
        defer {
            reader = nil
            self.columns = nil
            object = nil
        }
        while try rows.next() {
            let current = ObjectID(side: .source, entity: number, primaryKey: rows.primaryKey)
            object = current
            rowsRead += 1
            try body(current)
            try progress.advance()
        }
    }
}
