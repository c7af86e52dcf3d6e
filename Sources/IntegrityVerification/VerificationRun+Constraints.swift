import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// Required attributes and to-one relationships are set. Read from the object comparisons where they met
    /// every row of the entity's table and found none unset (see ``ObjectLedger``); otherwise one scan of the
    /// table per entity. Runs after the comparisons.
    func checkRequiredValues() {
        for entity in destination.entities where !entity.isAbstract {
            let required = requiredValues(of: entity.name)
            guard !required.isEmpty else { continue }
            let table = layout.table(for: entity.name)
            guarded(.optionality, entity: entity.name) {
                if ledger.unset(of: entity.name) == 0, try metEveryRow(of: table.name) { return }
                try checkRequired(required, table: table.name, entity: entity.name)
            }
        }
    }

    /// To-many relationships hold between their minimum and maximum counts, and no two objects share the
    /// values of a uniqueness constraint.
    func checkCountsAndUniqueness() {
        for entity in destination.entities where !entity.isAbstract {
            for relationship in destination.relationships(of: entity.name)
            where !relationship.isTransient && relationship.isToMany {
                checkCount(of: relationship, entity: entity.name)
            }
            for constraint in entity.uniquenessConstraints {
                checkUnique(constraint, entity: entity.name)
            }
        }
    }

    /// The required attributes and to-one relationships of `entity` that have a column, with it.
    func requiredValues(of entity: String) -> [(property: String, column: String)] {
        let table = layout.table(for: entity)
        var required: [(property: String, column: String)] = []
        for attribute in destination.attributes(of: entity) where !attribute.isOptional && !attribute.isTransient {
            guard let column = table.column(for: attribute.name, of: entity, version: destination) else { continue }
            required.append((attribute.name, column.name))
        }
        for relationship in destination.relationships(of: entity)
        where !relationship.isTransient && !relationship.isToMany && !relationship.isOptional {
            guard let column = table.column(for: relationship.name, of: entity, version: destination) else {
                continue
            }
            required.append((relationship.name, column.name))
        }
        return required
    }

    /// Every required attribute and to-one relationship of `entity` is set: one scan of the table for all.
    private func checkRequired(_ required: [(property: String, column: String)], table: String, entity: String) throws {
        let empty = required.map { "\(quoted($0.column)) IS NULL" }
        let sql =
            "SELECT Z_PK, \(empty.joined(separator: ", ")) FROM main.\(quoted(table)) "
            + "WHERE Z_ENT = \(layout.entityNumbers[entity]!) AND (\(empty.joined(separator: " OR "))) ORDER BY 1"
        try forEachRow(sql) { row in
            for (index, item) in required.enumerated() where row.int64(Int32(index + 1)) != 0 {
                collector.add(
                    .optionality, entity: entity, property: item.property, primaryKey: row.int64(0), "required, but nil"
                )
            }
        }
    }

    private func checkCount(of relationship: Relationship, entity: String) {
        // A to-many is never nil, so a required one with minimum 0 may be empty (Core Data only checks the counts).
        let minimum = relationship.minCount
        let maximum = relationship.maxCount
        guard minimum > 0 || maximum > 0,
            let edges = Self.edges(of: relationship, entity: entity, in: layout, schema: "main")
        else { return }
        guarded(.relationshipCount, entity: entity, property: relationship.name) {
            let table = layout.table(for: entity).name
            let number = layout.entityNumbers[entity]!
            let tooMany = maximum > 0 ? " OR n > \(maximum)" : ""
            // An optional relationship may be empty; its minimum counts only when it holds objects.
            let tooFew = relationship.isOptional ? "(n > 0 AND n < \(minimum))" : "n < \(minimum)"
            let sql =
                "SELECT k, n FROM (SELECT o.Z_PK AS k, COALESCE(c.edges, 0) AS n FROM main.\(quoted(table)) o "
                + "LEFT JOIN (SELECT a, COUNT(*) AS edges FROM (\(edges)) GROUP BY a) c ON c.a = o.Z_PK "
                + "WHERE o.Z_ENT = \(number)) WHERE \(tooFew)\(tooMany) ORDER BY 1"
            try forEachRow(sql) { row in
                let bounds = maximum > 0 ? "\(minimum)…\(maximum)" : "at least \(minimum)"
                collector.add(
                    .relationshipCount, entity: entity, property: relationship.name, primaryKey: row.int64(0),
                    "holds \(row.int64(1)) objects, needs \(bounds)")
            }
        }
    }

    private func checkUnique(_ constraint: [String], entity: String) {
        let name = constraint.joined(separator: ",")
        let table = layout.table(for: entity)
        let columns = constraint.compactMap { table.column(for: $0, of: entity, version: destination)?.name }
        guard columns.count == constraint.count else {
            collector.skip(.uniqueness, entity: entity, property: name, "a constrained property is not a column")
            return
        }
        guarded(.uniqueness, entity: entity, property: name) {
            let list = columns.map(quoted).joined(separator: ", ")
            let notNull = columns.map { "\(quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
            let sql =
                "SELECT MIN(Z_PK), COUNT(*) FROM main.\(quoted(table.name)) WHERE Z_ENT BETWEEN "
                + "\(Self.range(entity, in: layout)) AND \(notNull) GROUP BY \(list) HAVING COUNT(*) > 1 ORDER BY 1"
            try forEachRow(sql) { row in
                collector.add(
                    .uniqueness, entity: entity, property: name, primaryKey: row.int64(0),
                    "\(row.int64(1)) objects share the values of (\(name))")
            }
        }
    }
}
