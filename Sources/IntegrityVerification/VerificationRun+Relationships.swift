import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// `SELECT a, b, o`: the edges of `relationship` owned by objects of exactly `entity` (owner `a`, target
    /// `b`, order key `o`) in the store of `layout`, whose tables live in `schema`; nil when it is not stored.
    static func edges(of relationship: Relationship, entity: String, in layout: StoreLayout, schema: String) -> String?
    {
        let version = layout.version
        let table = layout.table(for: entity)
        let number = layout.entityNumbers[entity]!
        switch layout.storage(of: relationship, in: entity) {
        case .none: return nil
        case .foreignKey:
            guard let column = table.column(for: relationship.name, of: entity, version: version) else { return nil }
            return "SELECT Z_PK AS a, \(quoted(column.name)) AS b, NULL AS o FROM \(schema).\(quoted(table.name)) "
                + "WHERE Z_ENT = \(number) AND \(quoted(column.name)) IS NOT NULL"
        case .inverseForeignKey:
            guard let inverse = version.inverse(of: relationship) else { return nil }
            let target = layout.table(for: relationship.destination)
            guard let column = target.column(for: inverse.name, of: relationship.destination, version: version) else {
                return nil
            }
            let order =
                target.orderKeyColumn(for: inverse.name, of: relationship.destination, version: version)
                .map { "x.\(quoted($0.name))" } ?? "NULL"
            return "SELECT x.\(quoted(column.name)) AS a, x.Z_PK AS b, \(order) AS o "
                + "FROM \(schema).\(quoted(target.name)) x JOIN \(schema).\(quoted(table.name)) y "
                + "ON y.Z_PK = x.\(quoted(column.name)) WHERE y.Z_ENT = \(number) "
                + "AND x.Z_ENT BETWEEN \(range(relationship.destination, in: layout))"
        case .joinTable:
            guard let join = layout.joinTable(for: relationship.name, of: entity) else { return nil }
            let owner = join.sourceColumn(forRelationship: relationship.name, of: entity)
            let target = join.targetColumn(forRelationship: relationship.name, of: entity)
            let order =
                join.orderColumn(forRelationship: relationship.name, of: entity).map { "x.\(quoted($0))" } ?? "NULL"
            return "SELECT x.\(quoted(owner)) AS a, x.\(quoted(target)) AS b, \(order) AS o "
                + "FROM \(schema).\(quoted(join.name)) x JOIN \(schema).\(quoted(table.name)) y "
                + "ON y.Z_PK = x.\(quoted(owner)) WHERE y.Z_ENT = \(number)"
        }
    }

    /// The source relationship a relationship mapping copies, when its expression is one of the two
    /// `FUNCTION($manager, "destinationInstances…", "…", $source.<relationship>)` forms.
    static func copiedRelationship(_ text: String) -> String? {
        let compact = text.filter { !$0.isWhitespace }
        guard compact.hasPrefix("FUNCTION($manager,\"destinationInstancesFor"), compact.hasSuffix(")"),
            let range = compact.range(of: "$source.", options: .backwards)
        else { return nil }
        let name = compact[range.upperBound...].dropLast()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return String(name)
    }

    /// Every source edge exists between the corresponding destination objects and no other edge does; ordered
    /// relationships keep their order. Checked where both ends keep their primary keys.
    func checkRelationshipEdges() {
        for compiled in mappings {
            guard let sourceEntity = compiled.mapping.sourceEntity, let entity = compiled.mapping.destinationEntity
            else { continue }
            for property in compiled.relationships {
                guard let relationship = destination.relationship(property.name, of: entity),
                    !relationship.isTransient
                else { continue }
                // Edges kept by the inverse's storage are checked there; only their order is checked here.
                let storedByInverse = isStoredByInverse(relationship, of: entity)
                if storedByInverse && !relationship.isOrdered { continue }
                guard let text = property.expression?.text, let sourceName = Self.copiedRelationship(text),
                    let sourceRelationship = source.relationship(sourceName, of: sourceEntity)
                else {
                    collector.skip(
                        .missingEdge, entity: entity, property: property.name,
                        "the mapping's expression is not a copy of a source relationship")
                    continue
                }
                let targetTable = layout.table(for: relationship.destination).name
                guard preservesKeys(entity),
                    preservedTables[targetTable] == sourceLayout.table(for: sourceRelationship.destination).name
                else {
                    collector.skip(
                        .missingEdge, entity: entity, property: property.name,
                        "objects at one end do not keep their source primary keys")
                    continue
                }
                guarded(.missingEdge, entity: entity, property: property.name) {
                    try compareEdges(
                        relationship, of: entity, with: sourceRelationship, of: sourceEntity,
                        reportingEdges: !storedByInverse)
                }
            }
        }
    }

    /// Whether the edges of `relationship` are kept by its inverse's storage, which is checked instead.
    private func isStoredByInverse(_ relationship: Relationship, of entity: String) -> Bool {
        guard let inverse = destination.inverse(of: relationship) else { return false }
        switch layout.storage(of: relationship, in: entity) {
        case .inverseForeignKey: return true
        case .joinTable:
            let join = layout.joinTable(for: relationship.name, of: entity)
            return join?.ownerRelationship != relationship.name && !inverse.isTransient
        default: return false
        }
    }

    private func compareEdges(
        _ relationship: Relationship,
        of entity: String,
        with sourceRelationship: Relationship,
        of sourceEntity: String,
        reportingEdges: Bool
    ) throws {
        guard let theirs = Self.edges(of: sourceRelationship, entity: sourceEntity, in: sourceLayout, schema: "src"),
            let ours = Self.edges(of: relationship, entity: entity, in: layout, schema: "main")
        else { return }
        let table = layout.table(for: entity).name
        let targetTable = layout.table(for: relationship.destination).name
        let number = layout.entityNumbers[entity]!
        // Source edges whose two ends were both migrated.
        let expected =
            "SELECT e.a AS a, e.b AS b, e.o AS o FROM (\(theirs)) e "
            + "WHERE EXISTS (SELECT 1 FROM main.\(quoted(table)) WHERE Z_PK = e.a AND Z_ENT = \(number)) "
            + "AND EXISTS (SELECT 1 FROM main.\(quoted(targetTable)) WHERE Z_PK = e.b AND Z_ENT BETWEEN "
            + "\(Self.range(relationship.destination, in: layout)))"
        var differs = false
        for (kind, left, right, word) in [
            (ViolationKind.missingEdge, expected, ours, "is missing"),
            (.unexpectedEdge, ours, expected, "has no source"),
        ] {
            try forEachRow("SELECT a, b FROM (\(left)) EXCEPT SELECT a, b FROM (\(right)) ORDER BY 1, 2") { row in
                differs = true
                guard reportingEdges else { return }
                collector.add(
                    kind, entity: entity, property: relationship.name, primaryKey: row.int64(0),
                    "edge \(row.int64(0)) → \(row.int64(1)) \(word)")
            }
        }
        guard relationship.isOrdered, sourceRelationship.isOrdered, !differs else { return }
        func ranked(_ edges: String) -> String {
            "SELECT a, b, ROW_NUMBER() OVER (PARTITION BY a ORDER BY o, b) AS r FROM (\(edges))"
        }
        let sql = "SELECT a, b, r FROM (\(ranked(expected))) EXCEPT SELECT a, b, r FROM (\(ranked(ours))) ORDER BY 1, 3"
        try forEachRow(sql) { row in
            collector.add(
                .edgeOrder, entity: entity, property: relationship.name, primaryKey: row.int64(0),
                "\(row.int64(1)) should be at position \(row.int64(2))")
        }
    }

    /// Every foreign key and join-table row points at an object of the relationship's destination entity,
    /// and the two foreign keys of a one-to-one point at each other.
    func checkForeignKeys() {
        for table in layout.entityTables {
            for column in table.columns where column.kind == .foreignKey {
                guard let relationship = destination.relationship(column.property, of: column.entity) else { continue }
                guarded(.danglingForeignKey, entity: column.entity, property: column.property) {
                    let target = layout.table(for: relationship.destination).name
                    let sql =
                        "SELECT x.Z_PK, x.\(quoted(column.name)) FROM main.\(quoted(table.name)) x "
                        + "WHERE x.Z_ENT BETWEEN \(Self.range(column.entity, in: layout)) "
                        + "AND x.\(quoted(column.name)) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                        + "main.\(quoted(target)) y WHERE y.Z_PK = x.\(quoted(column.name)) "
                        + "AND y.Z_ENT BETWEEN \(Self.range(relationship.destination, in: layout))) ORDER BY 1"
                    try forEachRow(sql) { row in
                        collector.add(
                            .danglingForeignKey, entity: column.entity, property: column.property,
                            primaryKey: row.int64(0),
                            "points at \(relationship.destination) \(row.int64(1)), which does not exist")
                    }
                }
                guard let inverse = destination.inverse(of: relationship), !inverse.isToMany, !inverse.isTransient,
                    let inverseColumn = layout.table(for: relationship.destination)
                        .column(for: inverse.name, of: relationship.destination, version: destination)
                else { continue }
                guarded(.inverseMismatch, entity: column.entity, property: column.property) {
                    let target = layout.table(for: relationship.destination).name
                    let sql =
                        "SELECT x.Z_PK, x.\(quoted(column.name)), y.\(quoted(inverseColumn.name)) "
                        + "FROM main.\(quoted(table.name)) x JOIN main.\(quoted(target)) y "
                        + "ON y.Z_PK = x.\(quoted(column.name)) WHERE x.Z_ENT BETWEEN "
                        + "\(Self.range(column.entity, in: layout)) AND y.\(quoted(inverseColumn.name)) IS NOT x.Z_PK "
                        + "ORDER BY 1"
                    try forEachRow(sql) { row in
                        let back = row.isNull(2) ? "nothing" : String(row.int64(2))
                        collector.add(
                            .inverseMismatch, entity: column.entity, property: column.property,
                            primaryKey: row.int64(0),
                            "points at \(row.int64(1)), whose \(inverse.name) points at \(back)")
                    }
                }
            }
        }
        for join in layout.joinTables {
            guard let relationship = destination.relationship(join.ownerRelationship, of: join.ownerEntity) else {
                continue
            }
            let sides = [
                (join.ownerColumn, join.ownerEntity), (join.destinationColumn, relationship.destination),
            ]
            for (column, entity) in sides {
                guarded(.danglingForeignKey, entity: join.ownerEntity, property: join.ownerRelationship) {
                    let table = layout.table(for: entity).name
                    let sql =
                        "SELECT x.\(quoted(join.ownerColumn)), x.\(quoted(column)) FROM main.\(quoted(join.name)) x "
                        + "WHERE NOT EXISTS (SELECT 1 FROM main.\(quoted(table)) y WHERE y.Z_PK = x.\(quoted(column)) "
                        + "AND y.Z_ENT BETWEEN \(Self.range(entity, in: layout))) ORDER BY 1"
                    try forEachRow(sql) { row in
                        collector.add(
                            .danglingForeignKey, entity: join.ownerEntity, property: join.ownerRelationship,
                            primaryKey: row.int64(0), "\(join.name).\(column) = \(row.int64(1)) is no \(entity) object")
                    }
                }
            }
        }
    }
}
