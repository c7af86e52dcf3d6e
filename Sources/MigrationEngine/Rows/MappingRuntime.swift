import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Everything the default path of one entity mapping needs per object, resolved when its first object is
/// made: the writer, the row plan, and the association table — so that making an object looks nothing up by
/// name.
final class MappingRuntime {
    let name: String
    /// The mapping this runtime runs, by identity: compared once per object, where an `unowned` reference
    /// would be retained and released for it.
    let plan: ObjectIdentifier
    let writer: DestinationWriter
    /// The destination row and what fills each of its slots.
    let row: RowPlan
    let association: AssociationTable
    /// The values of the row's evaluated expressions for the current object, reused from object to object. Raw
    /// memory the runtime owns, not an array property: writing an element of a class's array, around calls into
    /// the evaluator, made every read of it elsewhere a checked access (swift_beginAccess, once per object).
    let results: UnsafeMutableBufferPointer<SQLiteValue>

    init(plan: CompiledEntityMappingPlan, writer: DestinationWriter, row: RowPlan, association: AssociationTable) {
        self.name = plan.mapping.name
        self.plan = ObjectIdentifier(plan)
        self.writer = writer
        self.row = row
        self.association = association
        self.results = .allocate(capacity: row.evaluated.count)
        results.initialize(repeating: .null)
    }

    deinit {
        results.deinitialize()
        results.deallocate()
    }
}

/// What each entity mapping needs per object, built once from the compiled mapping when its first object is
/// made: the ``MappingRuntime`` of its default path, and the foreign keys it can set directly or already in
/// stage 1. What depends on the associations is made again after they are forgotten between passes.
final class MappingRuntimes {
    private let source: Store
    private let destination: Store
    /// The two model versions, copied once: `Store.version` makes a copy on every read.
    private let sourceVersion: ModelVersion
    private let destinationVersion: ModelVersion
    private let objects: DestinationObjects
    private let associations: Associations
    /// Objects per source entity, to size each mapping's association table once.
    private let sourceCounts: [String: Int]
    /// The runtimes by entity mapping plan (not name: a later pass may repeat an earlier one's).
    private var runtimes: [ObjectIdentifier: MappingRuntime] = [:]
    /// The runtime asked for last: objects of one mapping are made one after another.
    private var current: MappingRuntime?
    /// Per entity mapping: the to-one relationships whose foreign key can be set directly.
    private var foreignKeyTargets: [ObjectIdentifier: [String: ForeignKeyTarget]] = [:]
    /// Per entity mapping: the foreign keys written in stage 1 (see `stageOneForeignKeys(for:)`).
    private var stageOneTargets: [ObjectIdentifier: [ForeignKeyTarget]] = [:]

    init(
        source: Store, destination: Store, objects: DestinationObjects, associations: Associations,
        sourceCounts: [String: Int]
    ) {
        self.source = source
        self.destination = destination
        self.sourceVersion = source.version
        self.destinationVersion = destination.version
        self.objects = objects
        self.associations = associations
        self.sourceCounts = sourceCounts
    }

    /// Forgets what was built from the associations of earlier passes, which are being forgotten.
    func forgetAssociations() {
        stageOneTargets = [:]
        runtimes = [:]
        current = nil
    }

    /// The runtime of `plan`'s default path, made when its first object is.
    func runtime(for plan: CompiledEntityMappingPlan, entity: String) throws -> MappingRuntime {
        if let runtime = current, runtime.plan == ObjectIdentifier(plan) { return runtime }
        if let runtime = runtimes[ObjectIdentifier(plan)] {
            current = runtime
            return runtime
        }
        let writer = try objects.writer(for: entity)
        let columns = plan.mapping.sourceEntity.map { ReaderColumns(entity: $0, version: sourceVersion) }
        var copies: [(sourceSlot: Int, slot: Int)] = []
        var attributes: [AttributeTarget] = []
        for attribute in plan.attributes {
            guard case .attribute(let slot, let type)? = writer.property(named: attribute.name) else {
                throw MigrationError.notStored(attribute.name, of: writer.entity)
            }
            if let name = attribute.expression.shape.sourceProperty, let sourceEntity = plan.mapping.sourceEntity,
                sourceVersion.attribute(name, of: sourceEntity)?.type == type, let column = columns?.indexes[name]
            {
                copies.append((column, slot))
                continue
            }
            attributes.append(
                AttributeTarget(
                    name: attribute.name, property: "\(writer.entity).\(attribute.name)",
                    expression: attribute.expression, slot: slot, type: type))
        }
        var foreignKeys: [StageOneForeignKey] = []
        for target in try stageOneForeignKeys(for: plan) {
            guard let lookup = target.lookup, let tables = associations.tables(ofSourceEntity: lookup.sourceEntity),
                tables.count == 1
            else { continue }
            foreignKeys.append(StageOneForeignKey(sourceSlot: lookup.readerIndex, slot: target.slot, table: tables[0]))
        }
        let association = associations.table(for: plan.mapping)
        association.reserve(sourceKeys: plan.mapping.sourceEntity.flatMap { sourceCounts[$0] } ?? 0)
        let row = RowPlan(
            template: writer.template, attributes: attributes, copies: copies, foreignKeys: foreignKeys)
        let runtime = MappingRuntime(plan: plan, writer: writer, row: row, association: association)
        runtimes[ObjectIdentifier(plan)] = runtime
        current = runtime
        return runtime
    }
}

extension MappingRuntimes {
    /// The to-one relationships of `plan` whose foreign keys can be set directly, by relationship name; made
    /// once per mapping.
    func foreignKeyTargets(for plan: CompiledEntityMappingPlan) throws -> [String: ForeignKeyTarget] {
        if let targets = foreignKeyTargets[ObjectIdentifier(plan)] { return targets }
        var targets: [String: ForeignKeyTarget] = [:]
        if let entity = plan.mapping.destinationEntity, destinationVersion.entity(named: entity)?.isAbstract == false {
            let writer = try objects.writer(for: entity)
            for relationship in plan.relationships {
                guard let declared = destinationVersion.relationship(relationship.name, of: entity), !declared.isToMany,
                    destination.layout.storage(of: declared, in: entity) == .foreignKey,
                    writer.orderKeySlot(for: declared.name) == nil,
                    destinationVersion.inverse(of: declared).map({ $0.isToMany }) ?? true,
                    let slot = writer.slot(for: declared.name),
                    writer.table.column(for: declared.name, of: entity, version: destinationVersion) != nil
                else { continue }
                targets[relationship.name] = ForeignKeyTarget(
                    name: relationship.name, slot: slot, writer: writer,
                    lookup: sourceForeignKeyLookup(relationship.expression, mapping: plan.mapping))
            }
        }
        foreignKeyTargets[ObjectIdentifier(plan)] = targets
        return targets
    }

    private func sourceForeignKeyLookup(
        _ expression: CompiledExpression, mapping: EntityMapping
    ) -> SourceForeignKeyLookup? {
        guard let sourceEntity = mapping.sourceEntity,
            case .relationshipCopy(let named, entityMapping: nil) = expression.shape,
            let relationship = sourceVersion.relationship(named, of: sourceEntity), !relationship.isToMany,
            source.layout.storage(of: relationship, in: sourceEntity) == .foreignKey,
            sourceVersion.subentities(of: relationship.destination).isEmpty,
            let index = ReaderColumns(entity: sourceEntity, version: sourceVersion).indexes[relationship.name],
            let number = source.layout.entityNumbers[relationship.destination]
        else { return nil }
        return SourceForeignKeyLookup(readerIndex: index, sourceEntity: Int32(number))
    }

    /// The foreign keys a mapping whose policy creates relationships by default can write while creating its
    /// objects (stage 1): those whose destination's associations are complete already, and that the policy does
    /// not set itself. Stage 2 then has nothing left to do for them.
    func stageOneForeignKeys(for plan: CompiledEntityMappingPlan) throws -> [ForeignKeyTarget] {
        if let targets = stageOneTargets[ObjectIdentifier(plan)] { return targets }
        var targets: [ForeignKeyTarget] = []
        if plan.createsRelationshipsByDefault {
            let direct = try foreignKeyTargets(for: plan)
            for relationship in plan.relationships
            where relationship.writesEdges && !plan.relationshipsSetByPolicy.contains(relationship.name) {
                guard let target = direct[relationship.name], let lookup = target.lookup,
                    associations.isComplete(sourceEntity: lookup.sourceEntity),
                    associations.tables(ofSourceEntity: lookup.sourceEntity)?.count == 1
                else { continue }
                targets.append(target)
            }
        }
        stageOneTargets[ObjectIdentifier(plan)] = targets
        return targets
    }
}

extension MigrationSession {
    /// Writes the row of `destination`, made by `runtime`'s default path from the row under `reader`: evaluates
    /// its expressions first (evaluating may read the destination), then has ``DestinationObjects`` write the
    /// row. For the default policy only. The text expressions the row composes from the source row's bytes
    /// (``RowPlan/texts``) are not evaluated.
    func writeRow(
        _ destination: ObjectID, from reader: RowReader, runtime: MappingRuntime
    ) throws {
        try evaluateRow(runtime, composedFrom: reader)
        try objects.writeRow(destination, from: reader, runtime: runtime)
    }

    /// Evaluates the expressions of `runtime`'s row for the current object into its results; with `reader`,
    /// not those the row composes from the reader's row (``RowPlan/texts``). An error names the runtime's
    /// mapping (read only then: passing the name retained it per object).
    @inline(__always)
    func evaluateRow(_ runtime: MappingRuntime, composedFrom reader: RowReader? = nil) throws {
        let firstColumn = reader?.shape.column(ofSlot: 0) ?? 0
        // Each target read where it is, its expression through its evaluator: a copy of a target (what iterating
        // the array hands out) or of its compiled expression (what calling `evaluate(in:)` on it makes) retains
        // and releases every field of the expression.
        try runtime.row.evaluated.withUnsafeBufferPointer { targets in
            for index in targets.indices {
                if let reader, runtime.row.texts.holds(index, in: reader.statement, firstColumn: firstColumn) {
                    continue
                }
                runtime.results[index] = try AttributeTarget.columnValue(
                    of: targets.baseAddress! + index, in: self, mapping: runtime.name, source: cursor.object?.primaryKey
                )
            }
        }
    }
}
