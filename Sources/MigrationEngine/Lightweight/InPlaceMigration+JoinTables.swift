import ObjectModel
import PersistentStore
import SQLiteDatabase

/// How an in-place step carries join tables: kept as they are, or copied from wherever the source kept the
/// same edges.
extension InPlaceMigration {
    /// Destination join tables that the source already holds as they must be: same table, same columns, for
    /// the corresponding relationship read from the same side. Primary keys are kept in place, so their rows
    /// stay valid and the table is left alone instead of copied.
    func unchangedJoinTables(source: StoreLayout, destination: StoreLayout) -> Set<String> {
        var unchanged: Set<String> = []
        for join in destination.joinTables {
            guard
                let (sourceEntity, sourceName) = sourceRelationship(
                    join.ownerRelationship, declaredOn: join.ownerEntity),
                let relationship = source.version.relationship(sourceName, of: sourceEntity),
                case .joinTable = source.storage(of: relationship, in: sourceEntity),
                let sourceJoin = source.joinTable(for: sourceName, of: sourceEntity), sourceJoin.name == join.name,
                // Rows that name a dropped object must go.
                dropsObject("Z_PK", of: sourceEntity, source: source) == nil,
                !mayHoldDroppedObjects(sourceName, of: sourceEntity, source: source),
                sourceJoin.sourceColumn(forRelationship: sourceName, of: sourceEntity) == join.ownerColumn,
                sourceJoin.targetColumn(forRelationship: sourceName, of: sourceEntity) == join.destinationColumn,
                sourceJoin.orderColumn(forRelationship: sourceName, of: sourceEntity) == join.ownerOrderColumn,
                [sourceJoin.ownerOrderColumn, sourceJoin.inverseOrderColumn]
                    == [join.ownerOrderColumn, join.inverseOrderColumn]
            else { continue }
            unchanged.insert(join.name)
        }
        return unchanged
    }

    /// The rows of a destination join table, from wherever the source kept the same edges.
    func joinCopy(
        _ join: JoinTable,
        source: StoreLayout,
        destination: StoreLayout,
        connection: Connection
    ) throws -> Copy? {
        var sides = [(owner: join.ownerEntity, relationship: join.ownerRelationship, reversed: false)]
        if let inverse = join.inverseRelationship {
            sides.append((join.inverseEntity, inverse, true))
        }
        for side in sides {
            guard let (sourceEntity, sourceName) = sourceRelationship(side.relationship, declaredOn: side.owner),
                let relationship = source.version.relationship(sourceName, of: sourceEntity)
            else { continue }
            // (pairs of owner key, destination key) as the source holds them, for `relationship` of `sourceEntity`.
            var select: String
            var order: String?
            var sourceOtherOrder: String?
            switch source.storage(of: relationship, in: sourceEntity) {
            case .joinTable:
                let sourceJoin = source.joinTable(for: sourceName, of: sourceEntity)!
                let from = quoted(sourceJoin.sourceColumn(forRelationship: sourceName, of: sourceEntity))
                let to = quoted(sourceJoin.targetColumn(forRelationship: sourceName, of: sourceEntity))
                order = sourceJoin.orderColumn(forRelationship: sourceName, of: sourceEntity).map(quoted)
                sourceOtherOrder = source.version.inverse(of: relationship).flatMap {
                    sourceJoin.orderColumn(forRelationship: $0.name, of: relationship.destination)
                }.map(quoted)
                select =
                    "SELECT \(from) AS a, \(to) AS b\(order.map { ", \($0) AS o" } ?? "")"
                    + "\(sourceOtherOrder.map { ", \($0) AS o2" } ?? "") FROM \(quoted(sourceJoin.name))"
            case .foreignKey:
                let table = source.table(for: sourceEntity)
                let column = quoted(table.column(for: sourceName, of: sourceEntity, version: source.version)!.name)
                let range = source.entityNumberRange(of: sourceEntity)
                select =
                    "SELECT Z_PK AS a, \(column) AS b FROM \(quoted(table.name)) "
                    + "WHERE \(column) IS NOT NULL AND Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
            case .inverseForeignKey:
                let inverse = source.version.inverse(of: relationship)!
                let table = source.table(for: relationship.destination)
                let column = quoted(
                    table.column(for: inverse.name, of: relationship.destination, version: source.version)!.name)
                order = table.orderKeyColumn(for: inverse.name, of: relationship.destination, version: source.version)
                    .map { quoted($0.name) }
                let range = source.entityNumberRange(of: relationship.destination)
                select =
                    "SELECT \(column) AS a, Z_PK AS b\(order.map { ", \($0) AS o" } ?? "") FROM \(quoted(table.name)) "
                    + "WHERE \(column) IS NOT NULL AND Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
            case .none:
                continue
            }
            // Edges from or to objects the step drops are not carried over.
            let kept = [
                dropsObject("a", of: sourceEntity, source: source),
                dropsObject("b", of: relationship.destination, source: source),
            ].compactMap { $0.map { "NOT \($0)" } }
            if !kept.isEmpty {
                select = "SELECT * FROM (\(select)) WHERE \(kept.joined(separator: " AND "))"
            }
            let (ownerKey, destinationKey) = side.reversed ? ("b", "a") : ("a", "b")
            var columns = [quoted(join.ownerColumn), quoted(join.destinationColumn)]
            var values = [ownerKey, destinationKey]
            // The order of the relationship that was read, where the destination table keeps one.
            let readOrder = side.reversed ? join.inverseOrderColumn : join.ownerOrderColumn
            let otherOrder = side.reversed ? join.ownerOrderColumn : join.inverseOrderColumn
            if let readOrder {
                columns.append(quoted(readOrder))
                values.append(order != nil ? "o" : "ROW_NUMBER() OVER (PARTITION BY a ORDER BY b)")
            }
            if let otherOrder {
                columns.append(quoted(otherOrder))
                values.append(sourceOtherOrder != nil ? "o2" : "ROW_NUMBER() OVER (PARTITION BY b ORDER BY a)")
            }
            let rows = try count("SELECT COUNT(*) FROM (\(select))", connection)
            let sql =
                "INSERT INTO \(quoted(Self.newTablePrefix + join.name)) (\(columns.joined(separator: ", "))) "
                + "SELECT \(values.joined(separator: ", ")) FROM (\(select))"
            return Copy(sql: sql, ranges: [nil], rows: rows, isJoin: true)
        }
        return nil
    }
}
