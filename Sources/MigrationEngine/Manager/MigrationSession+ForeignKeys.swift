import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// A to-one relationship whose foreign key a relationship mapping can set directly: no order key, no inverse
/// to keep in step. Its UPDATE is prepared once.
struct ForeignKeyTarget {
    let name: String
    let slot: Int
    let writer: DestinationWriter
    let update: Statement
    /// Set when the mapping is Xcode's canonical form over a source to-one (see ``SourceForeignKeyLookup``).
    let lookup: SourceForeignKeyLookup?
}

/// A relationship mapping in the form Xcode writes for a relationship it carries across,
/// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "r", $source.r)`
/// (``ExpressionShape/relationshipCopy(relationship:entityMapping:)``), over a source to-one `r` stored as a
/// foreign key: its value is the source foreign key looked up in the associations of `r`'s destination
/// entity — computed directly, without the expression machinery.
struct SourceForeignKeyLookup {
    /// The column of `r` in the source reader.
    let readerIndex: Int
    /// The entity number of `r`'s destination in the source store (it has no subentities).
    let sourceEntity: Int32
}

extension MigrationSession {
    /// The to-one relationships of `plan` whose foreign keys can be set directly, by relationship name; made
    /// once per mapping.
    func foreignKeyTargets(for plan: CompiledEntityMappingPlan) throws -> [String: ForeignKeyTarget] {
        if let targets = foreignKeyTargets[plan.mapping.name] { return targets }
        var targets: [String: ForeignKeyTarget] = [:]
        if let entity = plan.mapping.destinationEntity, destinationVersion.entity(named: entity)?.isAbstract == false {
            let writer = try writer(for: entity)
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
                    update: try statements.statement(sql, on: destination.connection),
                    lookup: sourceForeignKeyLookup(relationship.expression, mapping: plan.mapping))
            }
        }
        foreignKeyTargets[plan.mapping.name] = targets
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

    /// The destination primary key that the current source row's foreign key leads to, through the
    /// associations; `.some(nil)` for none, nil when the associations cannot tell (several tables).
    func lookUpForeignKey(_ lookup: SourceForeignKeyLookup) -> Int64?? {
        guard let reader, let key = reader.value(at: lookup.readerIndex).int64 else { return .some(nil) }
        guard let tables = associationsBySourceEntity[lookup.sourceEntity] else { return .some(nil) }
        guard tables.count == 1 else { return nil }
        return .some(tables[0].firstDestination(ofSource: key)?.primaryKey)
    }

    /// The foreign keys a default-policy mapping can write while creating its objects (stage 1): those whose
    /// destination's associations are complete already. Stage 2 then has nothing left to do for them.
    func stageOneForeignKeys(for plan: CompiledEntityMappingPlan) throws -> [ForeignKeyTarget] {
        if let targets = stageOneTargets[plan.mapping.name] { return targets }
        var targets: [ForeignKeyTarget] = []
        if plan.policy is DefaultMigrationPolicy {
            let direct = try foreignKeyTargets(for: plan)
            for relationship in plan.relationships where relationship.writesEdges {
                guard let target = direct[relationship.name], let lookup = target.lookup,
                    completedSourceEntities.contains(lookup.sourceEntity),
                    associationsBySourceEntity[lookup.sourceEntity]?.count == 1
                else { continue }
                targets.append(target)
            }
        }
        stageOneTargets[plan.mapping.name] = targets
        return targets
    }

    /// The one destination object (or none) a to-one relationship was given; nil when it is anything else.
    static func singleObject(_ value: ExpressionValue) -> Int64?? {
        switch value {
        case .null: .some(nil)
        case .object(let object) where object.side == .destination: .some(object.primaryKey)
        case .objects(let list) where list.count <= 1 && list.allSatisfy({ $0.side == .destination }):
            .some(list.first?.primaryKey)
        default: nil
        }
    }

    func setForeignKeyDirectly(_ key: Int64?, target: ForeignKeyTarget, of object: ObjectID) throws {
        let value: SQLiteValue = key.map { .integer($0) } ?? .null
        if key != nil { edgesWritten += 1 }
        if rows.set(value, slot: target.slot, of: object, writer: target.writer) { return }
        try flushBatches()
        try target.update.bind(value, at: 1)
        try target.update.bind(object.primaryKey, at: 2)
        try target.update.run()
    }
}
