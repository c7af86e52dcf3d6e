import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Where one attribute mapping's value goes in the destination row, resolved once per entity mapping.
final class AttributeTarget {
    let name: String
    let property: String
    let expression: CompiledExpression
    let slot: Int
    let type: AttributeType

    init(name: String, property: String, expression: CompiledExpression, slot: Int, type: AttributeType) {
        self.name = name
        self.property = property
        self.expression = expression
        self.slot = slot
        self.type = type
    }
}

/// What fills one slot of a default-path row.
enum SlotFill {
    /// A value known before the first object: a default, or a constant expression.
    case value(SQLiteValue)
    /// The source reader's column, copied as it is stored.
    case copy(column: Int32)
    /// A stage-one foreign key, by its index in ``MappingRuntime/foreignKeys``.
    case foreignKey(Int)
    /// An evaluated expression, by its index in ``MappingRuntime/evaluated``.
    case evaluated(Int)
}

/// Everything the default path of one entity mapping needs per object, resolved when its first object is
/// made: the writer, what fills each slot of the row in slot order, the expressions to evaluate, the foreign
/// keys known in stage 1, and the association table — so that making an object looks nothing up by name.
final class MappingRuntime {
    let name: String
    /// The mapping this runtime runs (unowned: the session's passes hold every plan for its whole life).
    unowned let plan: CompiledEntityMappingPlan
    let writer: DestinationWriter
    /// `$source.x` into an attribute of the same type: the stored value is copied as it is.
    let copies: [(column: Int, slot: Int)]
    let evaluated: [AttributeTarget]
    /// Foreign keys set in stage 1: the source column, the destination slot, the target's associations.
    let foreignKeys: [(column: Int, slot: Int, table: AssociationTable)]
    /// Every slot of the row, in order.
    let fills: [SlotFill]
    let association: AssociationTable
    /// The values of `evaluated` for the current object, reused from object to object.
    var results: [SQLiteValue]

    init(
        plan: CompiledEntityMappingPlan,
        writer: DestinationWriter,
        copies: [(column: Int, slot: Int)],
        evaluated: [AttributeTarget],
        foreignKeys: [(column: Int, slot: Int, table: AssociationTable)],
        association: AssociationTable
    ) {
        self.name = plan.mapping.name
        self.plan = plan
        self.writer = writer
        self.copies = copies
        self.evaluated = evaluated
        self.foreignKeys = foreignKeys
        var fills = writer.template.map { SlotFill.value($0) }
        for copy in copies { fills[copy.slot] = .copy(column: Int32(copy.column + 1)) }
        for (index, foreignKey) in foreignKeys.enumerated() { fills[foreignKey.slot] = .foreignKey(index) }
        for (index, target) in evaluated.enumerated() { fills[target.slot] = .evaluated(index) }
        self.fills = fills
        self.association = association
        self.results = Array(repeating: .null, count: evaluated.count)
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
        if let runtime = current, runtime.plan === plan { return runtime }
        if let runtime = runtimes[ObjectIdentifier(plan)] {
            current = runtime
            return runtime
        }
        let writer = try objects.writer(for: entity)
        let columns = plan.mapping.sourceEntity.map { ReaderColumns(entity: $0, version: sourceVersion) }
        var copies: [(column: Int, slot: Int)] = []
        var evaluated: [AttributeTarget] = []
        for attribute in plan.attributes {
            guard let slot = writer.slot(for: attribute.name), let type = writer.type(of: attribute.name) else {
                throw MigrationError(.evaluation, "attribute '\(writer.entity).\(attribute.name)' is not stored")
            }
            if let name = attribute.expression.shape.sourceProperty, let sourceEntity = plan.mapping.sourceEntity,
                sourceVersion.attribute(name, of: sourceEntity)?.type == type, let column = columns?.indexes[name]
            {
                copies.append((column, slot))
                continue
            }
            evaluated.append(
                AttributeTarget(
                    name: attribute.name, property: "\(writer.entity).\(attribute.name)",
                    expression: attribute.expression, slot: slot, type: type))
        }
        var foreignKeys: [(column: Int, slot: Int, table: AssociationTable)] = []
        for target in try stageOneForeignKeys(for: plan) {
            guard let lookup = target.lookup, let tables = associations.tables(ofSourceEntity: lookup.sourceEntity),
                tables.count == 1
            else { continue }
            foreignKeys.append((lookup.readerIndex, target.slot, tables[0]))
        }
        let association = associations.table(for: plan.mapping)
        association.reserve(sourceKeys: plan.mapping.sourceEntity.flatMap { sourceCounts[$0] } ?? 0)
        let runtime = MappingRuntime(
            plan: plan, writer: writer, copies: copies, evaluated: evaluated, foreignKeys: foreignKeys,
            association: association)
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
                    let column = writer.table.column(for: declared.name, of: entity, version: destinationVersion)
                else { continue }
                let sql = "UPDATE \(quoted(writer.table.name)) SET \(quoted(column.name)) = ? WHERE Z_PK = ?"
                targets[relationship.name] = ForeignKeyTarget(
                    name: relationship.name, slot: slot, writer: writer,
                    update: try objects.statements.statement(sql, on: destination.connection),
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

    /// The foreign keys a default-policy mapping can write while creating its objects (stage 1): those whose
    /// destination's associations are complete already. Stage 2 then has nothing left to do for them.
    func stageOneForeignKeys(for plan: CompiledEntityMappingPlan) throws -> [ForeignKeyTarget] {
        if let targets = stageOneTargets[ObjectIdentifier(plan)] { return targets }
        var targets: [ForeignKeyTarget] = []
        if plan.policy is DefaultMigrationPolicy {
            let direct = try foreignKeyTargets(for: plan)
            for relationship in plan.relationships where relationship.writesEdges {
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
    /// row. For the default policy only.
    func writeRow(
        _ destination: ObjectID, from reader: RowReader, runtime: MappingRuntime, mapping: String
    ) throws {
        for (index, target) in runtime.evaluated.enumerated() {
            let value = try evaluate(target.expression, mapping: mapping, property: target.name)
            runtime.results[index] = try Self.sqliteValue(value, as: target.type, property: target.property)
        }
        try objects.writeRow(destination, from: reader, runtime: runtime)
    }
}
