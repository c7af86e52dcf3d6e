import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

struct OrderCounterKey: Hashable {
    let relationship: String
    let owner: Int64
}

/// The destination objects a migration makes: their writers, primary keys, rows and edges until they are
/// written, and the values set on them afterwards — everything that writes to the destination store.
final class DestinationObjects {
    private let destination: Store
    /// The destination model version, copied once: `Store.version` makes a copy on every read.
    private let destinationVersion: ModelVersion
    /// The rows of new objects until they are written, as the storage mode keeps them.
    let rows: any RowBuffer
    /// Prepared statements reused across the migration, by SQL text: these writes, and the session's reads of
    /// either store.
    var statements = StatementCache()
    /// The objects ``FindOrCreatePolicy`` shares, by entity and key attribute, then value: one per value for
    /// the whole migration, whichever entity mapping made it (a car and a sports car share one maker).
    var sharedObjects: [String: [ExpressionValue: ObjectID]] = [:]
    /// Counts the objects and edges made.
    private let tally: MigrationTally
    /// The writer of each destination entity objects were made of, by entity number: for an object, an array
    /// read, not a name looked up.
    private var writers: [DestinationWriter?] = []
    private var primaryKeys: PrimaryKeyAllocator
    /// The inserter of each join table, by table name.
    private var joinInserters: [String: JoinRowInserter] = [:]
    /// The last order key given in each ordered to-many list, by relationship and owner.
    private var orderCounters: [OrderCounterKey: Int64] = [:]
    /// The entity numbers each relationship destination and its subentities have, found once per entity: the
    /// layout walks the hierarchy for them, once per relationship set.
    private var numberRanges: [String: ClosedRange<Int>] = [:]

    init(
        destination: Store, primaryKeys: PrimaryKeyAllocator, storage: StorageMode, tally: MigrationTally,
        requiredValues: RequiredValueWitness
    ) {
        self.destination = destination
        self.destinationVersion = destination.version
        self.primaryKeys = primaryKeys
        self.tally = tally
        switch storage {
        case .streaming: self.rows = StreamingRowBuffer()
        case .inMemory: self.rows = InMemoryRowBuffer(destination: destination, witness: requiredValues)
        }
    }

    /// The destination entities that objects have been made of so far.
    var entitiesWritten: [String] { writers.compactMap { $0?.entity } }

    /// The writer of concrete destination entity `entity`, made the first time it is asked for.
    func writer(for entity: String) throws -> DestinationWriter {
        if let number = destination.layout.entityNumbers[entity], number < writers.count, let writer = writers[number] {
            return writer
        }
        guard destinationVersion.entity(named: entity).map({ !$0.isAbstract }) == true else {
            throw MigrationError(
                .evaluation, "cannot create objects of '\(entity)': no such concrete destination entity",
                entity: entity,
                underlying: nil)
        }
        let table = destination.layout.table(for: entity).name
        let writer = try DestinationWriter(store: destination, entity: entity, keys: primaryKeys.keys(of: table))
        let number = Int(writer.entityNumber)
        if number >= writers.count { writers += repeatElement(nil, count: number + 1 - writers.count) }
        writers[number] = writer
        return writer
    }

    /// The writer of destination object `object`'s entity.
    func writer(of object: ObjectID) throws -> DestinationWriter {
        let number = Int(object.entity)
        if object.side == .destination, number >= 0, number < writers.count, let writer = writers[number] {
            return writer
        }
        return try writer(for: try entityName(of: object))
    }

    /// Makes an object of `entity` with its default values, keeping `preferredPrimaryKey` where its table keeps
    /// source keys.
    func createInstance(entity: String, preferredPrimaryKey: Int64?) throws -> ObjectID {
        let writer = try writer(for: entity)
        let object = ObjectID(
            side: .destination, entity: writer.entityNumber,
            primaryKey: writer.keys.allocate(preferred: preferredPrimaryKey))
        register(object, values: writer.template, writer: writer)
        return object
    }

    /// Holds a new object's row until the row buffer writes it.
    func register(_ object: ObjectID, values: [SQLiteValue], writer: DestinationWriter) {
        tally.objectsCreated += 1
        rows.hold(object, values: values, writer: writer)
    }

    /// Writes the rows waiting in batches, before anything reads or updates the destination.
    func flushBatches() throws {
        for writer in writers { try writer?.batch?.flush() }
    }

    /// A foreign key written in stage 1: the current source row's key mapped through the target's
    /// associations, or NULL; counts the edge.
    func stageOneKey(_ foreignKey: StageOneForeignKey, from reader: RowReader) -> SQLiteValue {
        guard let key = reader.integer(at: foreignKey.sourceSlot),
            let target = foreignKey.table.firstDestination(ofSource: key)
        else { return .null }
        tally.edgesWritten += 1
        return .integer(target.primaryKey)
    }

    /// Writes the row of `destination` through the row buffer, slot by slot, with `runtime`'s expressions
    /// evaluated already: source columns copied as they are stored, foreign keys looked up, the rest from the
    /// template. Inlined into the session's `writeRow`, its one caller, on the per-object path.
    @inline(__always)
    func writeRow(_ destination: ObjectID, from reader: RowReader, runtime: MappingRuntime) throws {
        try rows.writeRow(
            destination, writer: runtime.writer, plan: runtime.row, from: reader,
            results: UnsafeBufferPointer(runtime.results)
        ) { stageOneKey($0, from: $1) }
        tally.objectsCreated += 1
    }

    /// Sets column `slot` of a destination object, and the column of `order` with it when given (a foreign key and
    /// its order key): in its held row if it has one, else with one UPDATE of both.
    private func setColumn(
        _ value: SQLiteValue, slot: Int, order: (value: SQLiteValue, slot: Int)? = nil, of object: ObjectID,
        writer: DestinationWriter
    ) throws {
        if rows.set(value, slot: slot, of: object, writer: writer) {
            if let order { _ = rows.set(order.value, slot: order.slot, of: object, writer: writer) }
            return
        }
        try flushBatches()
        let update = try writer.update(slot: slot, orderSlot: order?.slot)
        try update.bind(value, at: 1)
        if let order { try update.bind(order.value, at: 2) }
        try update.bind(object.primaryKey, at: order == nil ? 2 : 3)
        try update.run()
    }

    /// Sets attribute `key` of `object`, stored in `slot` of `writer`'s rows as `type`.
    func setAttribute(
        _ value: ExpressionValue, forKey key: String, slot: Int, type: AttributeType, of object: ObjectID,
        writer: DestinationWriter
    ) throws {
        let stored = try MigrationSession.sqliteValue(value, as: type, property: "\(writer.entity).\(key)")
        try setColumn(stored, slot: slot, of: object, writer: writer)
    }

    /// Sets relationship `relationship` of `object`, an object of `writer`'s entity, to the destination objects
    /// `value` holds, wherever the destination stores it.
    func setRelationship(
        _ value: ExpressionValue, relationship: Relationship, of object: ObjectID, writer: DestinationWriter
    ) throws {
        let entity = writer.entity
        var targets: [ObjectID]
        switch value {
        case .null: targets = []
        case .object(let target): targets = [target]
        case .objects(let list): targets = list
        default:
            throw MigrationError(
                .evaluation, "relationship '\(entity).\(relationship.name)' was given \(value), not objects",
                entity: entity, property: relationship.name, underlying: nil)
        }
        // A source object mapped by several mappings has destinations of several entities: keep those this
        // relationship can point at.
        let allowed =
            numberRanges[relationship.destination]
            ?? {
                let range = destination.layout.entityNumberRange(of: relationship.destination)
                numberRanges[relationship.destination] = range
                return range
            }()
        targets = targets.filter { $0.side != .destination || allowed.contains(Int($0.entity)) }
        guard targets.allSatisfy({ $0.side == .destination }) else {
            throw MigrationError(
                .evaluation,
                "relationship '\(entity).\(relationship.name)' was given source objects; map them with "
                    + "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", …)",
                entity: entity, property: relationship.name, underlying: nil)
        }
        switch destination.layout.storage(of: relationship, in: entity) {
        case .foreignKey:
            try setForeignKey(targets.first, relationship: relationship, of: object, writer: writer)
            if let inverse = destinationVersion.inverse(of: relationship), !inverse.isToMany,
                let target = targets.first
            {
                // One-to-one: keep the other side's foreign key in step. When both sides are mapped they write
                // the same keys; when they run in different passes, the earlier side found no target yet and
                // only the later one can fill both.
                try setForeignKey(object, relationship: inverse, of: target, writer: try self.writer(of: target))
            }
        case .inverseForeignKey:
            let inverse = destinationVersion.inverse(of: relationship)!
            for (position, child) in targets.enumerated() {
                try setForeignKey(
                    object, relationship: inverse, of: child, writer: try self.writer(of: child),
                    orderKey: Int64(position + 1))
            }
        case .joinTable:
            let table = destination.layout.joinTable(for: relationship.name, of: entity)!
            let isOwner = table.isOwner(relationship.name, of: entity)
            for (position, target) in targets.enumerated() {
                let edge = PendingEdge(
                    inserter: try joinInserter(for: table),
                    owner: isOwner ? object.primaryKey : target.primaryKey,
                    destination: isOwner ? target.primaryKey : object.primaryKey,
                    orderKeys: isOwner
                        ? (Int64(position + 1), object.primaryKey) : (object.primaryKey, Int64(position + 1)))
                tally.edgesWritten += 1
                try rows.add(edge)
            }
        case .none:
            break
        }
    }

    /// Sets a to-one foreign key (and its order key, when the inverse is ordered).
    private func setForeignKey(
        _ target: ObjectID?,
        relationship: Relationship,
        of object: ObjectID,
        writer: DestinationWriter,
        orderKey: Int64? = nil
    ) throws {
        guard let slot = writer.slot(for: relationship.name) else { return }
        let value: SQLiteValue = target.map { .integer($0.primaryKey) } ?? .null
        if target != nil { tally.edgesWritten += 1 }
        guard let orderSlot = writer.orderKeySlot(for: relationship.name) else {
            return try setColumn(value, slot: slot, of: object, writer: writer)
        }
        var key: SQLiteValue = .null
        if let target {
            if let orderKey {
                key = .integer(orderKey)
            } else {
                // One list per owner, whatever entity each child is: count by the inverse relationship.
                let list = destinationVersion.inverse(of: relationship).map {
                    "\(relationship.destination).\($0.name)"
                }
                let counter = OrderCounterKey(
                    relationship: list ?? "\(writer.entity).\(relationship.name)", owner: target.primaryKey)
                let next = orderCounters[counter, default: 0] + 1
                orderCounters[counter] = next
                key = .integer(next)
            }
        }
        try setColumn(value, slot: slot, order: (key, orderSlot), of: object, writer: writer)
    }

    /// Sets the foreign key `target` to the object with primary key `key`, or to none: in the held row if
    /// there is one, else with the writer's UPDATE of the target's slot.
    func setForeignKey(_ key: Int64?, target: ForeignKeyTarget, of object: ObjectID) throws {
        if key != nil { tally.edgesWritten += 1 }
        try setColumn(key.map { .integer($0) } ?? .null, slot: target.slot, of: object, writer: target.writer)
    }

    /// The inserter of join table `table`, made the first time it is asked for.
    private func joinInserter(for table: JoinTable) throws -> JoinRowInserter {
        if let inserter = joinInserters[table.name] { return inserter }
        let inserter = try JoinRowInserter(store: destination, table: table)
        joinInserters[table.name] = inserter
        return inserter
    }

    /// The name of destination object `object`'s entity.
    func entityName(of object: ObjectID) throws -> String {
        guard object.side == .destination, let name = destination.layout.entityName(number: Int(object.entity)) else {
            throw MigrationError(.evaluation, "object \(object.primaryKey) is not a destination object")
        }
        return name
    }
}
