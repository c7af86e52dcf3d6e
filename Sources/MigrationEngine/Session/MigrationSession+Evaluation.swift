import Foundation
public import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// The columns of the source reader: stored attributes first, in slot order, then to-one relationships.
struct ReaderColumns {
    let entity: String
    let attributeTypes: [AttributeType]
    /// Property name → column index in the reader (0-based, `Z_PK` excluded).
    let indexes: [String: Int]
    let properties: [String]

    init(entity: String, version: ModelVersion) {
        let attributes = version.storedAttributes(of: entity)
        let toOnes = version.storedToOneRelationships(of: entity)
        self.entity = entity
        self.attributeTypes = attributes.map(\.type)
        self.properties = attributes.map(\.name) + toOnes.map(\.name)
        self.indexes = Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1, $0) })
    }
}

extension MigrationSession: EvaluationContext {
    /// The attribute in `slot` of the current source object, read straight from the source row.
    public func sourceValue(slot: Int) -> ExpressionValue {
        cursor.attribute(slot: slot)
    }

    /// The current `$source`.
    public func sourceObject() -> ObjectID? { cursor.object }

    /// The current `$destination`.
    public func destinationObject() -> ObjectID? { currentDestination }

    /// `now()`, fixed for the migration.
    public var now: Double { options.now }

    /// Follows `keyPath` from `object` through the stores.
    public func value(of object: ObjectID, keyPath: [String]) throws -> ExpressionValue {
        var current: ExpressionValue = .object(object)
        for key in keyPath {
            switch current {
            case .null: return .null
            case .object(let next): current = try property(key, of: next)
            case .objects(let list):
                var collected: [ObjectID] = []
                for item in list {
                    switch try property(key, of: item) {
                    case .object(let target): collected.append(target)
                    case .objects(let targets): collected += targets
                    case .null: continue
                    default:
                        throw MigrationError(
                            .evaluation, "'\(key)' of a to-many relationship must name a relationship", property: key,
                            underlying: nil)
                    }
                }
                current = .objects(collected)
            default:
                throw MigrationError(
                    .evaluation, "cannot read '\(key)' of the value \(current)", property: key, underlying: nil)
            }
        }
        return current
    }

    /// The destination objects the named entity mapping made from `sources`.
    public func destinationInstances(entityMapping: String, sources: ExpressionValue) throws -> ExpressionValue {
        guard let table = associations.table(named: entityMapping) else {
            if passes.contains(where: { $0.mappings.contains { $0.mapping.name == entityMapping } }) { return .null }
            throw MigrationError(
                .evaluation, "no entity mapping named '\(entityMapping)'", entityMapping: entityMapping, underlying: nil
            )
        }
        return map(sources) { table.destinations(ofSource: $0.primaryKey) }
    }

    /// The destination objects made from `sources`, whatever entity mapping made them.
    public func destinationInstances(sourceRelationship: String, sources: ExpressionValue) throws -> ExpressionValue {
        map(sources) { source in
            guard let tables = associations.tables(ofSourceEntity: source.entity) else { return [] }
            if tables.count == 1, let first = tables[0].firstDestination(ofSource: source.primaryKey) {
                return [first]
            }
            return tables.flatMap { $0.destinations(ofSource: source.primaryKey) }
        }
    }

    /// Asks the current entity mapping's policy.
    public func callPolicy(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        guard let policy = currentMapping?.policy else {
            throw MigrationError(.policy, "FUNCTION($entityPolicy, \"\(selector)\", …) outside an entity mapping")
        }
        return try policy.perform(selector: selector, arguments: arguments, in: self)
    }

    // MARK: - Reading the stores

    private func map(_ sources: ExpressionValue, _ transform: (ObjectID) -> [ObjectID]) -> ExpressionValue {
        switch sources {
        case .object(let source):
            let targets = transform(source)
            return targets.count == 1 ? .object(targets[0]) : targets.isEmpty ? .null : .objects(targets)
        case .objects(let list): return .objects(list.flatMap(transform))
        default: return .null
        }
    }

    /// One property of one object.
    private func property(_ key: String, of object: ObjectID) throws -> ExpressionValue {
        let store = object.side == .source ? source : destination
        guard let entity = store.layout.entityName(number: Int(object.entity)) else {
            throw MigrationError(
                .evaluation, "object \(object.primaryKey) has an unknown entity number \(object.entity)",
                sourceKey: object.side == .source ? object.primaryKey : nil, underlying: nil)
        }
        let version = store.version
        if let attribute = version.attribute(key, of: entity) {
            if let index = cursor.column(of: key, for: object), let reader = cursor.reader {
                return Self.expressionValue(reader.value(at: index), as: attribute.type)
            }
            let table = store.layout.table(for: entity)
            guard let column = table.column(for: key, of: entity, version: version) else { return .null }
            let value = try lookUp(
                .init(side: object.side, entity: entity, property: key, reading: .column), object, in: store
            ) {
                "SELECT \(quoted(column.name)) FROM \(quoted(table.name)) WHERE Z_PK = ?"
            }
            return Self.expressionValue(value.first ?? .null, as: attribute.type)
        }
        guard let relationship = version.relationship(key, of: entity) else {
            throw MigrationError(
                .evaluation, "'\(entity)' has no property '\(key)'", entity: entity, property: key, underlying: nil)
        }
        let side = object.side
        switch store.layout.storage(of: relationship, in: entity) {
        case .foreignKey:
            var key: Int64?
            if let index = cursor.column(of: relationship.name, for: object), let reader = cursor.reader {
                key = reader.value(at: index).int64
            } else {
                let table = store.layout.table(for: entity)
                let column = table.column(for: relationship.name, of: entity, version: version)!
                key = try lookUp(
                    .init(side: side, entity: entity, property: relationship.name, reading: .column), object, in: store
                ) { "SELECT \(quoted(column.name)) FROM \(quoted(table.name)) WHERE Z_PK = ?" }
                .first?.int64
            }
            guard let key else { return .null }
            return .object(try objectID(key, of: relationship.destination, side: side, in: store))
        case .inverseForeignKey:
            let lookup = StatementCache.LookupKey(side: side, entity: entity, property: key, reading: .objects)
            return .objects(
                try lookUpObjects(lookup, object, side: side, in: store) {
                    let inverse = version.inverse(of: relationship)!
                    let table = store.layout.table(for: relationship.destination)
                    let column = table.column(for: inverse.name, of: relationship.destination, version: version)!
                    let order = table.orderKeyColumn(for: inverse.name, of: relationship.destination, version: version)
                    return "SELECT Z_PK, Z_ENT FROM \(quoted(table.name)) WHERE \(quoted(column.name)) = ? "
                        + "ORDER BY \(order.map { quoted($0.name) + ", " } ?? "")Z_PK"
                })
        case .joinTable:
            let lookup = StatementCache.LookupKey(side: side, entity: entity, property: key, reading: .objects)
            return .objects(
                try lookUpObjects(lookup, object, side: side, in: store) {
                    let join = store.layout.joinTable(for: relationship.name, of: entity)!
                    let table = store.layout.table(for: relationship.destination)
                    let from = quoted(join.sourceColumn(forRelationship: relationship.name, of: entity))
                    let to = quoted(join.targetColumn(forRelationship: relationship.name, of: entity))
                    let order =
                        join.orderColumn(forRelationship: relationship.name, of: entity).map { "j.\(quoted($0)), " }
                        ?? ""
                    return "SELECT t.Z_PK, t.Z_ENT FROM \(quoted(join.name)) j JOIN \(quoted(table.name)) t "
                        + "ON t.Z_PK = j.\(to) WHERE j.\(from) = ? ORDER BY \(order)t.Z_PK"
                })
        case .none:
            return .null
        }
    }

    private func lookUp(
        _ lookup: StatementCache.LookupKey, _ object: ObjectID, in store: Store, sql: () -> String
    ) throws -> [SQLiteValue] {
        try makeReadable(store)
        let statement = try objects.statements.statement(for: lookup, on: store.connection, sql: sql)
        defer { statement.reset() }
        try statement.bind(object.primaryKey, at: 1)
        guard try statement.step() else { return [] }
        return (0..<statement.columnCount).map { statement.value($0) }
    }

    /// Before a read of `store`: when it is the destination, the rows held for the current source object go to
    /// their batches and every batch to the store, so that the read sees every object made so far.
    private func makeReadable(_ store: Store) throws {
        guard store === destination else { return }
        try objects.rows.writeTransientRows()
        try objects.flushBatches()
    }

    private func lookUpObjects(
        _ lookup: StatementCache.LookupKey, _ object: ObjectID, side: StoreSide, in store: Store, sql: () -> String
    ) throws -> [ObjectID] {
        try makeReadable(store)
        let statement = try objects.statements.statement(for: lookup, on: store.connection, sql: sql)
        defer { statement.reset() }
        try statement.bind(object.primaryKey, at: 1)
        var result: [ObjectID] = []
        while try statement.step() {
            result.append(ObjectID(side: side, entity: Int32(statement.int64(1)), primaryKey: statement.int64(0)))
        }
        return result
    }

    /// The object with primary key `key` in `entity`'s table: its entity number is known statically unless
    /// `entity` has subentities.
    private func objectID(_ key: Int64, of entity: String, side: StoreSide, in store: Store) throws -> ObjectID {
        let number = Int32(store.layout.entityNumbers[entity]!)
        if store.version.subentities(of: entity).isEmpty {
            return ObjectID(side: side, entity: number, primaryKey: key)
        }
        let table = store.layout.table(for: entity)
        let found = try lookUp(
            .init(side: side, entity: entity, property: "", reading: .entityNumber),
            ObjectID(side: side, entity: number, primaryKey: key), in: store
        ) { "SELECT Z_ENT FROM \(quoted(table.name)) WHERE Z_PK = ?" }
        .first?.int64
        return ObjectID(side: side, entity: found.map(Int32.init) ?? number, primaryKey: key)
    }
}
