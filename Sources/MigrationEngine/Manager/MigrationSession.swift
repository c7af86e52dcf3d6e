public import Foundation
public import MappingModel
public import ObjectModel
import PersistentStore
import SQLiteDatabase

/// One running migration between two stores, as policies and value expressions see it — the role of
/// Core Data's `NSMigrationManager` instance.
///
/// Policies call it to create destination objects, set their values, associate them with source objects,
/// and look associations up in both directions. One session runs on one thread.
public final class MigrationSession {
    /// The source model version.
    public let sourceVersion: ModelVersion
    /// The destination model version.
    public let destinationVersion: ModelVersion
    /// The options the migration runs with.
    public let options: MigrationOptions

    let source: Store
    let destination: Store
    let passes: [CompiledPass]

    // Associations: by entity mapping name, and by source entity number for relationship lookups.
    var associations: [String: AssociationTable] = [:]
    var associationsBySourceEntity: [Int32: [AssociationTable]] = [:]

    // The current source object: the row under the reader, and the mapping being run.
    var reader: RowReader?
    var readerColumns: ReaderColumns?
    var currentSource: ObjectID?
    var currentDestination: ObjectID?
    var currentMapping: CompiledEntityMappingPlan?

    // Destination writing.
    var writers: [String: DestinationWriter] = [:]
    var primaryKeys: PrimaryKeyAllocator
    /// The rows of new objects until they are written, as the storage mode keeps them.
    let rows: any RowBuffer
    var joinInserters: [String: JoinRowInserter] = [:]
    var orderCounters: [OrderCounterKey: Int64] = [:]
    var statements = StatementCache()
    var random: RandomSource
    var edgesWritten = 0
    var objectsCreated = 0
    /// Per entity mapping, resolved once: what making one of its objects needs.
    var runtimes: [String: MappingRuntime] = [:]
    var currentRuntime: MappingRuntime?
    /// Per entity mapping, resolved once: the to-one relationships whose foreign key can be set directly.
    var foreignKeyTargets: [String: [String: ForeignKeyTarget]] = [:]
    /// Per entity mapping: the foreign keys written in stage 1 (see `stageOneForeignKeys(for:)`).
    var stageOneTargets: [String: [ForeignKeyTarget]] = [:]
    /// Source entities whose every entity mapping has finished stage 1: their associations are complete.
    var completedSourceEntities: Set<Int32> = []
    /// Objects per source entity, counted once before the first pass.
    var sourceCounts: [String: Int] = [:]
    /// The objects ``FindOrCreatePolicy`` shares, by entity and key attribute, then value: one per value for
    /// the whole migration, whichever entity mapping made it (a car and a sports car share one maker).
    var sharedObjects: [String: [ExpressionValue: ObjectID]] = [:]
    /// Whether the source store is attached to the destination connection (see ``BulkInstanceCreation``).
    var sourceAttached = false
    /// The entity mappings whose stage 1 ran as ``BulkInstanceCreation``.
    var mappingsRunInSQL: Set<String> = []

    init(source: Store, destination: Store, passes: [CompiledPass], options: MigrationOptions) throws {
        self.sourceVersion = source.version
        self.destinationVersion = destination.version
        self.options = options
        self.source = source
        self.destination = destination
        self.passes = passes
        self.primaryKeys = try PrimaryKeyAllocator(source: source, destination: destination, passes: passes)
        self.random = RandomSource(seed: options.seed)
        switch options.storage {
        case .streaming: self.rows = StreamingRowBuffer()
        case .inMemory: self.rows = InMemoryRowBuffer()
        }
    }

    // MARK: - For policies

    /// The current source object's value for `key`: an attribute value, `.object` for a to-one relationship,
    /// `.objects` for a to-many one.
    public func sourceValue(_ key: String) throws -> ExpressionValue {
        guard let source = currentSource else { return .null }
        return try value(of: source, keyPath: [key])
    }

    /// The current entity mapping's user info.
    public var userInfo: [String: String] { currentMapping?.mapping.userInfo ?? [:] }

    /// Makes one destination object of the mapping's destination entity from `source`, fills its attributes
    /// from the attribute mappings (or their defaults), and associates the two. Core Data's default.
    @discardableResult
    public func createDestinationInstance(for source: ObjectID, mapping: EntityMapping) throws -> ObjectID {
        guard let entity = mapping.destinationEntity else {
            throw MigrationError(.mapping, "entity mapping '\(mapping.name)' has no destination entity")
        }
        guard let plan = currentMapping, plan.mapping.name == mapping.name else {
            let destination = try createDestinationInstance(entity: entity, preferredPrimaryKey: source.primaryKey)
            try associate(source: source, destination: destination, mapping: mapping)
            return destination
        }
        return try createDestinationInstance(for: source, plan: plan, entity: entity)
    }

    /// The hot path of ``createDestinationInstance(for:mapping:)`` for the current mapping: the row is computed
    /// straight into place, with everything resolved once per mapping. The pass runner calls it directly for
    /// the default policy, which would do nothing else.
    @discardableResult
    func createDestinationInstance(
        for source: ObjectID, plan: CompiledEntityMappingPlan, entity: String
    ) throws -> ObjectID {
        let runtime = try runtime(for: plan, entity: entity)
        let writer = runtime.writer
        let mapping = plan.mapping
        let destination = ObjectID(
            side: .destination, entity: writer.entityNumber,
            primaryKey: writer.keys.allocate(preferred: source.primaryKey))
        currentDestination = destination
        if plan.hasDefaultPolicy, let reader {
            // Only the engine touches the row: fill it straight from the source row.
            try writeRow(destination, from: reader, runtime: runtime, mapping: mapping.name)
            try runtime.association.associate(source: source.primaryKey, destination: destination)
            return destination
        }
        var values = writer.template
        if let reader {
            for copy in runtime.copies { values[copy.slot] = reader.value(at: copy.column) }
            for foreignKey in runtime.foreignKeys { values[foreignKey.slot] = stageOneKey(foreignKey, from: reader) }
        }
        for target in runtime.evaluated {
            let value = try evaluate(target.expression, mapping: mapping.name, property: target.name)
            values[target.slot] = try Self.sqliteValue(value, as: target.type, property: target.property)
        }
        register(destination, values: values, writer: writer)
        try runtime.association.associate(source: source.primaryKey, destination: destination)
        return destination
    }

    /// Makes a destination object of `entity` with its default values, not associated with any source object.
    public func createDestinationInstance(entity: String) throws -> ObjectID {
        try createDestinationInstance(entity: entity, preferredPrimaryKey: nil)
    }

    /// Sets an attribute or relationship of a destination object made in this pass.
    public func setValue(_ value: ExpressionValue, forKey key: String, of object: ObjectID) throws {
        let entity = try destinationEntityName(object)
        if destinationVersion.attribute(key, of: entity) != nil {
            try setAttribute(value, forKey: key, of: object, entity: entity)
        } else if let relationship = destinationVersion.relationship(key, of: entity) {
            try setRelationship(value, relationship: relationship, of: object, entity: entity)
        } else {
            throw MigrationError(.evaluation, "'\(entity)' has no property '\(key)' to set")
        }
    }

    /// Records that `destination` was made from `source` by `mapping`.
    public func associate(source: ObjectID, destination: ObjectID, mapping: EntityMapping) throws {
        try associationTable(for: mapping).associate(source: source.primaryKey, destination: destination)
    }

    /// The destination objects `mapping` made from `sources`, as Core Data's
    /// `destinationInstances(forEntityMappingName:sourceInstances:)`.
    public func destinationInstances(forEntityMapping name: String, sourceInstances sources: [ObjectID]) -> [ObjectID] {
        guard let table = associations[name] else { return [] }
        return sources.flatMap { table.destinations(ofSource: $0.primaryKey) }
    }

    /// The source objects `mapping` made `destinations` from, as Core Data's
    /// `sourceInstances(forEntityMappingName:destinationInstances:)`.
    public func sourceInstances(
        forEntityMapping name: String, destinationInstances destinations: [ObjectID]
    ) -> [ObjectID] {
        guard let table = associations[name] else { return [] }
        return destinations.compactMap { destination in
            table.source(ofDestination: destination.primaryKey).map {
                ObjectID(side: .source, entity: table.sourceEntity, primaryKey: $0)
            }
        }
    }

    /// Sets the relationships of `destination` from `mapping`'s relationship mappings. Core Data's default.
    public func createRelationships(for destination: ObjectID, mapping: EntityMapping) throws {
        guard let plan = currentMapping, plan.mapping.name == mapping.name else { return }
        currentDestination = destination
        let direct = try foreignKeyTargets(for: plan)
        let doneInStageOne = Set(try stageOneForeignKeys(for: plan).map(\.name))
        for relationship in plan.relationships
        where relationship.writesEdges && !doneInStageOne.contains(relationship.name) {
            if let target = direct[relationship.name], let lookup = target.lookup, currentSource != nil,
                case .some(let key) = lookUpForeignKey(lookup)
            {
                try setForeignKeyDirectly(key, target: target, of: destination)
                continue
            }
            let value = try evaluate(relationship.expression, mapping: mapping.name, property: relationship.name)
            if let target = direct[relationship.name], let key = Self.singleObject(value) {
                try setForeignKeyDirectly(key, target: target, of: destination)
            } else {
                try setValue(value, forKey: relationship.name, of: destination)
            }
        }
    }

    /// A new UUID, reproducible from ``MigrationOptions/seed``.
    public func makeUUID() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    // MARK: - Plumbing

    func associationTable(for mapping: EntityMapping) -> AssociationTable {
        if let table = associations[mapping.name] { return table }
        let sourceNumber = mapping.sourceEntity.flatMap { source.layout.entityNumbers[$0] } ?? 0
        let destinationNumber = mapping.destinationEntity.flatMap { destination.layout.entityNumbers[$0] } ?? 0
        let table = AssociationTable(
            mapping: mapping.name, sourceEntity: Int32(sourceNumber), destinationEntity: Int32(destinationNumber))
        associations[mapping.name] = table
        associationsBySourceEntity[Int32(sourceNumber), default: []].append(table)
        return table
    }

    /// Forgets the associations of earlier passes, as Core Data does between mapping models.
    func forgetAssociations() {
        associations = [:]
        associationsBySourceEntity = [:]
        completedSourceEntities = []
        stageOneTargets = [:]
        runtimes = [:]
        currentRuntime = nil
    }

    func evaluate(_ expression: CompiledExpression, mapping: String, property: String) throws -> ExpressionValue {
        do {
            return try expression.evaluate(in: self)
        } catch {
            throw Self.evaluationFailure(error, mapping: mapping, property: property, source: currentSource?.primaryKey)
        }
    }

    /// `error`, thrown while evaluating `property` of `mapping` for the source object with key `source`, as the
    /// migration reports it: a ``MigrationError`` as it is, anything else named with where it happened.
    static func evaluationFailure(_ error: any Error, mapping: String, property: String, source: Int64?) -> any Error {
        if error is MigrationError { return error }
        let object = source.map { " (source object \($0))" } ?? ""
        return MigrationError(.evaluation, "mapping '\(mapping)', property '\(property)'\(object): \(error)")
    }

    func destinationEntityName(_ object: ObjectID) throws -> String {
        guard object.side == .destination, let name = destination.layout.entityName(number: Int(object.entity)) else {
            throw MigrationError(.evaluation, "object \(object.primaryKey) is not a destination object")
        }
        return name
    }
}
