import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// An ordered to-many relationship a mapping carries across in Xcode's canonical form,
/// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "r", $source.r)`, over
/// a source to-many stored as its children's foreign key, with both ends' associations identity bits: stage 2
/// writes it with one `UPDATE … FROM` over the attached source, not one source query per owner and one
/// `UPDATE` per child. Each child gets the owner's key and its position among the owner's children that were
/// migrated, in the order the per-object path reads them (the source order key, then `Z_PK`).
struct OrderedRelationshipCopy {
    let sql: String
    let owners: KeyBitmap
    let children: KeyBitmap

    private static let ownerFunction = "migrationbench_copy_owner"
    private static let childFunction = "migrationbench_copy_child"

    /// The statement for `relationship` of `plan`, or nil when the per-object path must write it.
    static func make(
        _ relationship: RelationshipPlan, of plan: CompiledEntityMappingPlan, in session: MigrationSession
    ) -> OrderedRelationshipCopy? {
        let (source, destination) = (session.source, session.destination)
        let (sourceVersion, destinationVersion) = (session.sourceVersion, session.destinationVersion)
        guard case .relationshipCopy(let named, entityMapping: nil) = relationship.expression.shape,
            let sourceEntity = plan.mapping.sourceEntity, let entity = plan.mapping.destinationEntity,
            sourceVersion.subentities(of: sourceEntity).isEmpty, destinationVersion.subentities(of: entity).isEmpty,
            let owners = session.associations.table(named: plan.mapping.name)?.identityKeys,
            let declared = destinationVersion.relationship(relationship.name, of: entity), declared.isToMany,
            destination.layout.storage(of: declared, in: entity) == .inverseForeignKey,
            destinationVersion.subentities(of: declared.destination).isEmpty,
            let inverse = destinationVersion.inverse(of: declared),
            let read = sourceVersion.relationship(named, of: sourceEntity), read.isToMany,
            source.layout.storage(of: read, in: sourceEntity) == .inverseForeignKey,
            sourceVersion.subentities(of: read.destination).isEmpty,
            let sourceInverse = sourceVersion.inverse(of: read),
            let childNumber = source.layout.entityNumbers[read.destination],
            session.associations.isComplete(sourceEntity: Int32(childNumber)),
            let tables = session.associations.tables(ofSourceEntity: Int32(childNumber)), tables.count == 1,
            let children = tables[0].identityKeys,
            tables[0].destinationEntity == destination.layout.entityNumbers[declared.destination].map(Int32.init)
        else { return nil }
        let sourceTable = source.layout.table(for: read.destination)
        let table = destination.layout.table(for: declared.destination)
        guard
            let sourceKey = sourceTable.column(for: sourceInverse.name, of: read.destination, version: sourceVersion),
            sourceTable.entityNumberColumn(for: sourceInverse.name, of: read.destination, version: sourceVersion)
                == nil,
            let key = table.column(for: inverse.name, of: declared.destination, version: destinationVersion),
            let order = table.orderKeyColumn(for: inverse.name, of: declared.destination, version: destinationVersion),
            table.entityNumberColumn(for: inverse.name, of: declared.destination, version: destinationVersion) == nil
        else { return nil }
        let sourceOrder = sourceTable.orderKeyColumn(
            for: sourceInverse.name, of: read.destination, version: sourceVersion)
        let owner = "s.\(quoted(sourceKey.name))"
        let sql =
            "UPDATE main.\(quoted(table.name)) SET \(quoted(key.name)) = n.a, \(quoted(order.name)) = n.o FROM "
            + "(SELECT s.Z_PK AS k, \(owner) AS a, ROW_NUMBER() OVER (PARTITION BY \(owner) ORDER BY "
            + "\(sourceOrder.map { "s.\(quoted($0.name)), " } ?? "")s.Z_PK) AS o "
            + "FROM \(BulkInstanceCreation.sourceSchema).\(quoted(sourceTable.name)) AS s "
            + "WHERE s.Z_ENT = \(childNumber) AND \(ownerFunction)(\(owner)) IS NOT NULL "
            + "AND \(childFunction)(s.Z_PK) IS NOT NULL) AS n "
            + "WHERE main.\(quoted(table.name)).Z_PK = n.k"
        return OrderedRelationshipCopy(sql: sql, owners: owners, children: children)
    }

    /// Runs the statement; returns the edges written (one per child given an owner).
    func run(on connection: Connection) throws -> Int {
        try connection.registerMembership(Self.ownerFunction, of: owners)
        defer { try? connection.removeFunction(Self.ownerFunction, argumentCount: 1) }
        try connection.registerMembership(Self.childFunction, of: children)
        defer { try? connection.removeFunction(Self.childFunction, argumentCount: 1) }
        try connection.execute(sql)
        return connection.changes
    }
}

extension MigrationSession {
    /// Stage 2 of `plan` as set operations, when every relationship it has left to write is an
    /// ``OrderedRelationshipCopy`` and the source is attached (streaming storage); false when the per-object
    /// path must run.
    func copyRelationshipsInSQL(_ plan: CompiledEntityMappingPlan) throws -> Bool {
        guard sourceAttached, plan.hasDefaultPolicy, plan.createsRelationshipsByDefault else { return false }
        let doneInStageOne = Set(try runtimes.stageOneForeignKeys(for: plan).map(\.name))
        let left = plan.relationships.filter { $0.writesEdges && !doneInStageOne.contains($0.name) }
        guard !left.isEmpty else { return false }
        var copies: [OrderedRelationshipCopy] = []
        for relationship in left {
            guard let copy = OrderedRelationshipCopy.make(relationship, of: plan, in: self) else { return false }
            copies.append(copy)
        }
        try objects.rows.writeTransientRows()
        try objects.flushBatches()
        for (relationship, copy) in zip(left, copies) {
            tally.edgesWritten += try copy.run(on: destination.connection)
            tally.relationshipsCopiedInSQL.insert("\(plan.mapping.name).\(relationship.name)")
        }
        return true
    }
}
