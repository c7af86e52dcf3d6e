import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// Every foreign key and join-table row points at an object of the relationship's destination entity,
    /// and the two foreign keys of a one-to-one point at each other. Each distinct key is looked up once,
    /// read from the column's index.
    func checkForeignKeys() {
        for table in layout.entityTables {
            for column in table.columns where column.kind == .foreignKey {
                guard let relationship = destination.relationship(column.property, of: column.entity) else { continue }
                let target = layout.table(for: relationship.destination).name
                guarded(.danglingForeignKey, entity: column.entity, property: column.property) {
                    let dangling = danglingKeys(
                        in: table.name, column: column.name, target: target, entity: relationship.destination)
                    let sql =
                        "SELECT x.Z_PK, x.\(quoted(column.name)) FROM main.\(quoted(table.name)) x "
                        + "WHERE x.\(quoted(column.name)) IN (\(dangling)) "
                        + "AND x.Z_ENT BETWEEN \(Self.range(column.entity, in: layout)) ORDER BY 1"
                    try forEachRow(sql) { row in
                        collector.add(
                            .danglingForeignKey, entity: column.entity, property: column.property,
                            primaryKey: row.int64(0),
                            "points at \(relationship.destination) \(row.int64(1)), which does not exist")
                    }
                }
                if let entityColumn = table.entityNumberColumn(
                    for: column.property, of: column.entity, version: destination)
                {
                    checkEntityNumbers(of: column, in: table.name, entityColumn: entityColumn.name, target: target)
                }
                guard let inverse = destination.inverse(of: relationship), !inverse.isToMany, !inverse.isTransient,
                    let inverseColumn = layout.table(for: relationship.destination)
                        .column(for: inverse.name, of: relationship.destination, version: destination)
                else { continue }
                guarded(.inverseMismatch, entity: column.entity, property: column.property) {
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
                    let dangling = danglingKeys(
                        in: join.name, column: column, target: layout.table(for: entity).name, entity: entity)
                    let sql =
                        "SELECT x.\(quoted(join.ownerColumn)), x.\(quoted(column)) FROM main.\(quoted(join.name)) x "
                        + "WHERE x.\(quoted(column)) IN (\(dangling)) ORDER BY 1, 2"
                    try forEachRow(sql) { row in
                        collector.add(
                            .danglingForeignKey, entity: join.ownerEntity, property: join.ownerRelationship,
                            primaryKey: row.int64(0), "\(join.name).\(column) = \(row.int64(1)) is no \(entity) object")
                    }
                }
            }
        }
    }

    /// SQL for the distinct values of `column` of `table` that are no object of `entity` (in `target`).
    private func danglingKeys(in table: String, column: String, target: String, entity: String) -> String {
        "SELECT v FROM (SELECT DISTINCT \(quoted(column)) AS v FROM main.\(quoted(table)) "
            + "WHERE \(quoted(column)) IS NOT NULL) WHERE NOT EXISTS (SELECT 1 FROM main.\(quoted(target)) y "
            + "WHERE y.Z_PK = v AND y.Z_ENT BETWEEN \(Self.range(entity, in: layout)))"
    }

    /// The `Z<n>_<NAME>` column beside a to-one into a hierarchy holds its target's entity number (R2).
    private func checkEntityNumbers(
        of column: EntityTable.Column, in table: String, entityColumn: String, target: String
    ) {
        guarded(.danglingForeignKey, entity: column.entity, property: column.property) {
            let sql =
                "SELECT x.Z_PK, x.\(quoted(entityColumn)), y.Z_ENT FROM main.\(quoted(table)) x "
                + "JOIN main.\(quoted(target)) y ON y.Z_PK = x.\(quoted(column.name)) "
                + "WHERE x.\(quoted(entityColumn)) IS NOT y.Z_ENT ORDER BY 1"
            try forEachRow(sql) { row in
                let found = row.isNull(1) ? "nothing" : String(row.int64(1))
                collector.add(
                    .danglingForeignKey, entity: column.entity, property: column.property, primaryKey: row.int64(0),
                    "\(entityColumn) holds \(found), but the target's entity number is \(row.int64(2))")
            }
        }
    }
}
