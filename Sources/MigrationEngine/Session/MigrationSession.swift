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

    // The current object, as policies and expressions see it.
    /// The source object under the reader, during stages 1 and 2.
    let cursor: SourceCursor
    /// The entity mapping running, and its policy.
    var currentMapping: CompiledEntityMappingPlan?
    /// The file of the running pass's mapping model, when it was read from one.
    var currentFile: String?
    /// The destination object made last for the current source object (`$destination`).
    var currentDestination: ObjectID?

    /// Source ↔ destination associations of the running pass.
    let associations: Associations
    /// The destination objects made, and everything that writes them.
    let objects: DestinationObjects
    /// What each entity mapping needs per object, built once per mapping.
    let runtimes: MappingRuntimes
    /// The counts for the report.
    let tally = MigrationTally()
    /// What stage 1 proved of the destination's required columns, for stage 3.
    let requiredValues: RequiredValueWitness
    /// The random numbers of ``makeUUID()``, reproducible from ``MigrationOptions/seed``.
    var random: RandomSource
    /// Whether the source store is attached to the destination connection (see ``BulkInstanceCreation``).
    var sourceAttached = false
    /// Measures each entity mapping's stages, when the migration is profiled.
    let profiler: MigrationProfiler?
    /// The policy callbacks timed in the segment under way (profiled migrations only).
    var callbackTimes = PolicyCallbackTally()
    /// The hints of each entity mapping's stages that the model alone decides, worked out before the first pass
    /// (profiled migrations only).
    var profileHints = ProfileHints()

    init(
        source: Store, destination: Store, passes: [CompiledPass], options: MigrationOptions,
        profiler: MigrationProfiler? = nil
    ) throws {
        self.profiler = profiler
        self.sourceVersion = source.version
        self.destinationVersion = destination.version
        self.options = options
        self.source = source
        self.destination = destination
        self.passes = passes
        let primaryKeys = try PrimaryKeyAllocator(source: source, destination: destination, passes: passes)
        self.cursor = SourceCursor(source: source, objectCounts: try source.objectCounts())
        self.associations = Associations(source: source, destination: destination)
        self.requiredValues = RequiredValueWitness(connection: destination.connection)
        self.objects = DestinationObjects(
            destination: destination, primaryKeys: primaryKeys, storage: options.storage, tally: tally,
            requiredValues: requiredValues)
        self.runtimes = MappingRuntimes(
            source: source, destination: destination, objects: objects, associations: associations,
            sourceCounts: cursor.objectCounts)
        self.random = RandomSource(seed: options.seed)
        prepareHints()
    }

    // MARK: - For policies

    /// The current source object's value for `key`: an attribute value, `.object` for a to-one relationship,
    /// `.objects` for a to-many one.
    ///
    /// - Throws: a ``MigrationError`` naming the mapping model file, the entity mapping and its policy for a key
    ///   the source entity lacks.
    public func sourceValue(_ key: String) throws -> ExpressionValue {
        guard let source = cursor.object else { return .null }
        // A stored attribute, as the key path below would read it from the row, without walking it.
        if let value = cursor.attribute(named: key) { return value }
        do {
            return try value(of: source, keyPath: [key])
        } catch let error as MigrationError where error.code == .evaluation {
            throw error.inPolicy(policyPlace, key: key, sourceKey: source.primaryKey)
        }
    }

    /// The current entity mapping's user info.
    public var userInfo: [String: String] { currentMapping?.mapping.userInfo ?? [:] }

    /// Makes one destination object of the mapping's destination entity from `source`, fills its attributes
    /// from the attribute mappings (or their defaults), and associates the two. Core Data's default.
    @discardableResult
    public func createDestinationInstance(for source: ObjectID, mapping: EntityMapping) throws -> ObjectID {
        guard let entity = mapping.destinationEntity else {
            throw MigrationError.noDestinationEntity(mapping)
        }
        guard let plan = currentMapping, plan.mapping.name == mapping.name else {
            let destination = try objects.createInstance(entity: entity, preferredPrimaryKey: source.primaryKey)
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
        let runtime = try runtimes.runtime(for: plan, entity: entity)
        let writer = runtime.writer
        let destination = ObjectID(
            side: .destination, entity: writer.entityNumber,
            primaryKey: writer.keys.allocate(preferred: source.primaryKey))
        currentDestination = destination
        let reader = cursor.reader
        if plan.hasDefaultPolicy, let reader {
            // Only the engine touches the row: fill it straight from the source row.
            try writeRow(destination, from: reader, runtime: runtime)
            try runtime.association.associate(source: source.primaryKey, destination: destination)
            return destination
        }
        try evaluateRow(runtime)
        let values = runtime.row.values(from: reader, results: UnsafeBufferPointer(runtime.results)) {
            objects.stageOneKey($0, from: $1)
        }
        objects.register(destination, values: values, writer: writer)
        try runtime.association.associate(source: source.primaryKey, destination: destination)
        return destination
    }

    /// Makes a destination object of `entity` with its default values, not associated with any source object.
    public func createDestinationInstance(entity: String) throws -> ObjectID {
        try objects.createInstance(entity: entity, preferredPrimaryKey: nil)
    }

    /// Sets an attribute or relationship of a destination object made in this pass.
    public func setValue(_ value: ExpressionValue, forKey key: String, of object: ObjectID) throws {
        let writer = try objects.writer(of: object)
        switch writer.property(named: key) {
        case .attribute(let slot, let type):
            try objects.setAttribute(value, forKey: key, slot: slot, type: type, of: object, writer: writer)
        case .notStored: throw MigrationError.notStored(key, of: writer.entity)
        case .relationship(let relationship):
            try objects.setRelationship(value, relationship: relationship, of: object, writer: writer)
        case nil: throw MigrationError.noPropertyToSet(key, of: writer.entity, policyPlace: policyPlace)
        }
    }

    /// Where a policy runs, for its errors: `file: mapping 'PostToPost', policy 'P': `, a bound class named with
    /// its registered policy (``EntityMapping/policyDescription``); empty outside a mapping.
    var policyPlace: String {
        guard let mapping = currentMapping?.mapping else { return "" }
        let subject = "mapping '\(mapping.name)'" + (mapping.policyDescription.map { ", \($0)" } ?? "")
        return (currentFile.map { "\($0): " } ?? "") + subject + ": "
    }

    /// Records that `destination` was made from `source` by `mapping`.
    public func associate(source: ObjectID, destination: ObjectID, mapping: EntityMapping) throws {
        try associations.table(for: mapping).associate(source: source.primaryKey, destination: destination)
    }

    /// The destination objects `mapping` made from `sources`, as Core Data's
    /// `destinationInstances(forEntityMappingName:sourceInstances:)`.
    public func destinationInstances(forEntityMapping name: String, sourceInstances sources: [ObjectID]) -> [ObjectID] {
        guard let table = associations.table(named: name) else { return [] }
        return sources.flatMap { table.destinations(ofSource: $0.primaryKey) }
    }

    /// The source objects `mapping` made `destinations` from, as Core Data's
    /// `sourceInstances(forEntityMappingName:destinationInstances:)`.
    public func sourceInstances(
        forEntityMapping name: String, destinationInstances destinations: [ObjectID]
    ) -> [ObjectID] {
        guard let table = associations.table(named: name) else { return [] }
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
        let direct = try runtimes.foreignKeyTargets(for: plan)
        let doneInStageOne = Set(try runtimes.stageOneForeignKeys(for: plan).map(\.name))
        for relationship in plan.relationships
        where relationship.writesEdges && !doneInStageOne.contains(relationship.name) {
            if let target = direct[relationship.name], let lookup = target.lookup, cursor.object != nil,
                case .some(let key) = lookUpForeignKey(lookup)
            {
                try objects.setForeignKey(key, target: target, of: destination)
                continue
            }
            let value = try evaluate(relationship.expression, mapping: mapping.name, property: relationship.name)
            if let target = direct[relationship.name], let key = Self.singleObject(value) {
                try objects.setForeignKey(key, target: target, of: destination)
            } else {
                try setValue(value, forKey: relationship.name, of: destination)
            }
        }
    }

    /// A new UUID, reproducible from ``MigrationOptions/seed``.
    public func makeUUID() -> UUID {
        // The generator is a copy while the bytes are drawn: drawing from the stored property checked exclusive
        // access 16 times a UUID.
        var generator = random
        defer { random = generator }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
            bytes[6] = bytes[6] & 0x0f | 0x40
            bytes[8] = bytes[8] & 0x3f | 0x80
        }
        return UUID(uuid: uuid)
    }

    // MARK: - Plumbing

    /// Forgets the associations of earlier passes, as Core Data does between mapping models.
    func forgetAssociations() {
        associations.forget()
        runtimes.forgetAssociations()
    }

    func evaluate(_ expression: CompiledExpression, mapping: String, property: String) throws -> ExpressionValue {
        do {
            return try expression.evaluate(in: self)
        } catch {
            throw Self.evaluationFailure(error, mapping: mapping, property: property, source: cursor.object?.primaryKey)
        }
    }

    /// `error`, thrown while evaluating `property` of `mapping` for the source object with key `source`, as the
    /// migration reports it: a ``MigrationError`` as it is, anything else named with where it happened.
    static func evaluationFailure(_ error: any Error, mapping: String, property: String, source: Int64?) -> any Error {
        if error is MigrationError { return error }
        return MigrationError.evaluation(error, mapping: mapping, property: property, sourceKey: source)
    }
}

extension MigrationError {
    /// `underlying`, thrown while evaluating `property` of `mapping` for the source object `sourceKey`.
    static func evaluation(_ underlying: any Error, mapping: String, property: String, sourceKey: Int64?) -> Self {
        let object = sourceKey.map { " (source object \($0))" } ?? ""
        return MigrationError(
            .evaluation, "mapping '\(mapping)', property '\(property)'\(object): \(underlying)", entityMapping: mapping,
            property: property, sourceKey: sourceKey, underlying: underlying)
    }

    static func noDestinationEntity(_ mapping: EntityMapping) -> Self {
        MigrationError(
            .mapping, "entity mapping '\(mapping.name)' has no destination entity", entityMapping: mapping.name,
            underlying: nil)
    }

    static func noPropertyToSet(_ key: String, of entity: String, policyPlace: String) -> Self {
        MigrationError(
            .evaluation, "\(policyPlace)'\(entity)' has no property '\(key)' to set", entity: entity, property: key,
            underlying: nil)
    }

    /// This evaluation error, raised for a policy that read the source's `key`, named with where the policy runs.
    func inPolicy(_ place: String, key: String, sourceKey: Int64) -> Self {
        var error = MigrationError(
            .evaluation, place + message, entityMapping: entityMapping, entity: entity, property: property ?? key,
            sourceKey: self.sourceKey ?? sourceKey, path: path, underlying: self)
        error.stage = stage
        return error
    }
}
