import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// A lightweight step run as SQL inside the store, in one transaction, as Core Data runs it on SQLite.
///
/// A table whose columns only get renamed or appended is changed with `ALTER TABLE` alone, which touches no
/// row. Other tables are rebuilt: new tables are filled with `INSERT … SELECT` from the old ones, which are
/// then dropped and the new ones renamed; primary keys are kept, so foreign keys and join rows stay valid
/// without any lookup. Every `INSERT … SELECT` runs in primary-key ranges of about 50,000 rows, so progress is
/// real (rows done of rows in all) — where Core Data reports none. Numeric and Boolean type changes are
/// converted, and required values existing objects may lack are checked before the step commits, as Core
/// Data does (`InPlaceMigration+Values.swift`). Either the whole step commits, or nothing changes.
public struct InPlaceMigration: Sendable {
    /// The correspondence the step follows.
    public let plan: LightweightPlan
    /// Measures the step and each of its statements (SQLite's own profile) when set; nil, nothing is measured.
    public var profiler: MigrationProfiler?

    /// Prepares the step that `plan` describes.
    public init(plan: LightweightPlan) {
        self.plan = plan
    }

    /// What the step did.
    public struct Result: Sendable, Hashable {
        /// Objects migrated: rows copied into rebuilt entity tables, and rows of tables altered in place.
        public let objects: Int
        /// Rows copied into join tables.
        public let joinRows: Int
    }

    static let chunkSize: Int64 = 50_000
    static let newTablePrefix = "MBNEW_"

    /// Migrates the store at `path`, which must be at the plan's source version.
    ///
    /// - Parameters:
    ///   - progress: called after each chunk with the rows copied so far and the rows in all.
    ///   - shouldCancel: asked after each chunk; returning true rolls the whole step back and throws
    ///     ``MigrationError/Code/cancelled``.
    public func run(
        storeAt path: String, progress: ((Int, Int) -> Void)? = nil, shouldCancel: () -> Bool = { false }
    ) throws -> Result {
        guard let profiler else {
            return try migrate(
                try Store.open(at: path, version: plan.source), progress: progress, shouldCancel: shouldCancel)
        }
        let (result, runs) = try profiler.measure(
            MigrationProfiler.Place(pass: nil, stage: Self.stage, work: "running the step's SQL"),
            work: { (result: Result, _) in
                MigrationProfiler.Work(
                    rows: result.objects + result.joinRows, objects: result.objects, edges: result.joinRows)
            }
        ) {
            // The store is closed (its log checkpointed) before the part ends.
            let store = try Store.open(at: path, version: plan.source)
            return try store.connection.profilingStatements {
                try migrate(store, progress: progress, shouldCancel: shouldCancel)
            }
        }
        profiler.record(runs)
        return result
    }

    /// The profile's name for the step's one stage.
    public static let stage = "SQL in place"

    private func migrate(
        _ store: Store, progress: ((Int, Int) -> Void)?, shouldCancel: () -> Bool
    ) throws -> Result {
        let connection = store.connection
        let source = store.layout
        // A reflexive join table keeps the side the store names it from (store-layout.md X1).
        let destination = try StoreLayout(version: plan.destination)
            .resolving(existingTables: Set(source.joinTables.map(\.name)))
        let alterations = alteredTables(source: source, destination: destination)
        let kept = Set(alterations.keys).union(unchangedJoinTables(source: source, destination: destination))
        let copies = try copyStatements(source: source, destination: destination, connection: connection, keeping: kept)
        let keptRows = try kept.reduce(0) { $0 + (try count("SELECT COUNT(*) FROM \(quoted($1))", connection)) }
        let keptJoinRows = try kept.filter { name in destination.joinTables.contains { $0.name == name } }
            .reduce(0) { $0 + (try count("SELECT COUNT(*) FROM \(quoted($1))", connection)) }
        let total = copies.reduce(keptRows) { $0 + $1.rows }
        var done = 0
        var joinRows = keptJoinRows
        progress?(0, total)
        try connection.transaction(.immediate) {
            for statement in destination.dataTableStatements(prefix: Self.newTablePrefix, excluding: kept) {
                try connection.execute(statement)
            }
            for copy in copies {
                for range in copy.ranges {
                    try connection.withStatement(copy.sql) { statement in
                        if let range {
                            try statement.bind(range.lowerBound, at: 1)
                            try statement.bind(range.upperBound, at: 2)
                        }
                        try statement.run()
                    }
                    let copied = connection.changes
                    done += copied
                    if copy.isJoin { joinRows += copied }
                    progress?(min(done, total), total)
                    if shouldCancel() { throw MigrationError.cancelled }
                }
            }
            for statement in alterations.values.flatMap({ $0 }) { try connection.execute(statement) }
            done += keptRows
            progress?(min(done, total), total)
            for table in source.entityTables.map(\.name) + source.joinTables.map(\.name) where !kept.contains(table) {
                try connection.execute("DROP TABLE \(quoted(table))")
            }
            for table in destination.entityTables.map(\.name) + destination.joinTables.map(\.name)
            where !kept.contains(table) {
                try connection.execute("ALTER TABLE \(quoted(Self.newTablePrefix + table)) RENAME TO \(quoted(table))")
            }
            try dropNarrowedInverseLinks(layout: destination, connection: connection)
            try checkRequiredValues(layout: destination, connection: connection)
            // Kept tables still have their indexes; the statements say IF NOT EXISTS.
            try createIndexes(layout: destination, connection: connection)
            try Store.rewriteBookkeeping(connection: connection, layout: destination, uuid: store.metadata.uuid)
        }
        try connection.checkpoint(.truncate)
        progress?(total, total)
        return Result(objects: done - joinRows, joinRows: joinRows)
    }

    // MARK: - SQL

    struct Copy {
        let sql: String
        /// Primary-key ranges to bind to `?1` and `?2`, or a single nil for one unbounded run.
        let ranges: [ClosedRange<Int64>?]
        let rows: Int
        let isJoin: Bool
    }

    /// Destination entity tables that need no copy, with the `ALTER TABLE` statements that turn the source
    /// table into them (none when it is unchanged).
    ///
    /// That is the case when the table keeps its name, entities and entity numbers, each source column is
    /// kept — renamed at most, holding its counterpart's values — and the new columns start with their
    /// default value. New columns are appended, as Core Data appends them (store-layout.md H1): columns are
    /// found by name, never by position. `RENAME COLUMN` and `ADD COLUMN … DEFAULT` only change the schema,
    /// so such a step costs the same for ten rows or ten million.
    func alteredTables(source: StoreLayout, destination: StoreLayout) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for table in destination.entityTables {
            guard let old = source.entityTables.first(where: { $0.name == table.name }), old.entities == table.entities,
                table.entities.allSatisfy({ source.entityNumbers[$0] == destination.entityNumbers[$0] }),
                // Rows of an entity that is gone (or now abstract) must not stay behind.
                !old.entities.contains(where: { plan.removedEntities.contains($0) })
            else { continue }
            if let statements = alterations(turning: old, into: table, source: source) {
                result[table.name] = statements
            }
        }
        return result
    }

    /// The renames and appended columns that turn `old` into `table`, or nil when the table must be rebuilt.
    private func alterations(turning old: EntityTable, into table: EntityTable, source: StoreLayout) -> [String]? {
        var renames: [String] = []
        var additions: [String] = []
        var kept: Set<String> = []
        let oldNames = Set(old.columns.map(\.name))
        for column in table.columns {
            guard let counterpart = sourceProperty(of: column, in: table) else { return nil }
            let holders = table.entities.filter { plan.destination.entity($0, isKindOf: column.entity) }
            // A new foreign key filled from its old inverse, or values to fill or convert: the table is rebuilt.
            let needsValues = holders.contains { holder in
                column.kind == .foreignKey
                    ? counterpart == nil
                        && inverseFill(column.property, of: holder, sourceTable: old, source: source) != nil
                    : requiredDefault(column.property, of: holder) != nil
                        || conversion(column.property, of: holder) != nil
            }
            if needsValues { return nil }
            // A key that may point at a dropped object must be cleared: the table is rebuilt.
            if column.kind == .foreignKey, let counterpart,
                holders.contains(where: { mayHoldDroppedObjects(counterpart, of: $0, source: source) })
            {
                return nil
            }
            if let counterpart {
                guard
                    let previous = old.columns.first(where: {
                        $0.property == counterpart && $0.kind == column.kind && $0.entity == column.entity
                    }), column.sqlType == previous.sqlType, !kept.contains(previous.name)
                else { return nil }
                kept.insert(previous.name)
                if column.name != previous.name {
                    if oldNames.contains(column.name) { return nil }
                    renames.append(
                        "ALTER TABLE \(quoted(table.name)) RENAME COLUMN \(quoted(previous.name)) TO \(quoted(column.name))"
                    )
                }
            } else {
                guard column.kind != .orderKey, column.kind != .entityNumber, !oldNames.contains(column.name) else {
                    return nil
                }
                let initial =
                    plan.destination.attribute(column.property, of: column.entity)?.defaultValue
                    .map { " DEFAULT \($0.sqliteValue.sqlLiteral)" } ?? ""
                additions.append(
                    "ALTER TABLE \(quoted(table.name)) ADD COLUMN \(quoted(column.name)) \(column.sqlType)\(initial)")
            }
        }
        // A column the destination no longer has would stay behind.
        return kept.count == old.columns.count ? renames + additions : nil
    }

    /// The source property a destination column takes its values from (`.some(nil)`: none, it is new), or nil
    /// when the table's entities that have the column do not all take it from the same property of themselves.
    private func sourceProperty(of column: EntityTable.Column, in table: EntityTable) -> String?? {
        let holders = table.entities.filter { plan.destination.entity($0, isKindOf: column.entity) }
        var found: Set<String?> = []
        for entity in holders where plan.destination.entity(named: entity)?.isAbstract == false {
            guard let correspondence = plan.correspondence(forDestination: entity), correspondence.source == entity
            else {
                return nil
            }
            let isRelationship = [.foreignKey, .orderKey, .entityNumber].contains(column.kind)
            let map = isRelationship ? correspondence.relationships : correspondence.attributes
            found.insert(map[column.property] ?? nil)
        }
        return found.count == 1 ? .some(found.first!) : nil
    }

    func copyStatements(
        source: StoreLayout,
        destination: StoreLayout,
        connection: Connection,
        keeping kept: Set<String> = []
    ) throws -> [Copy] {
        var copies: [Copy] = []
        for correspondence in plan.entities
        where !kept.contains(destination.table(for: correspondence.destination).name) {
            copies.append(
                try entityCopy(correspondence, source: source, destination: destination, connection: connection))
        }
        for join in destination.joinTables where !kept.contains(join.name) {
            if let copy = try joinCopy(join, source: source, destination: destination, connection: connection) {
                copies.append(copy)
            }
        }
        return copies
    }

    private func entityCopy(
        _ correspondence: LightweightPlan.EntityCorrespondence,
        source: StoreLayout,
        destination: StoreLayout,
        connection: Connection
    ) throws -> Copy {
        let entity = correspondence.destination
        let table = destination.table(for: entity)
        let sourceTable = source.table(for: correspondence.source)
        let lineage = Set([entity] + plan.destination.ancestors(of: entity))
        let sourceNumber = source.entityNumbers[correspondence.source]!
        var columns = RowShape.bookkeepingColumns
        var values = ["Z_PK", String(destination.entityNumbers[entity]!), "Z_OPT"]
        var needsWholeTable = false
        var windows: [String] = []
        for column in table.columns where lineage.contains(column.entity) {
            columns.append(quoted(column.name))
            switch column.kind {
            case .attribute:
                if let sourceName = correspondence.attributes[column.property] ?? nil,
                    let sourceColumn = sourceTable.column(
                        for: sourceName, of: correspondence.source, version: source.version)
                {
                    let stored = quoted(sourceColumn.name)
                    let value = conversion(column.property, of: entity).map { $0(stored) } ?? stored
                    // Made required with a default: the objects that had none get the default.
                    if let fill = requiredDefault(column.property, of: entity) {
                        values.append("COALESCE(\(value), \(fill))")
                    } else {
                        values.append(value)
                    }
                } else {
                    let attribute = plan.destination.attribute(column.property, of: entity)
                    values.append(attribute?.defaultValue.map { $0.sqliteValue.sqlLiteral } ?? "NULL")
                }
            case .foreignKey:
                if let sourceName = correspondence.relationships[column.property] ?? nil,
                    let sourceColumn = sourceTable.column(
                        for: sourceName, of: correspondence.source, version: source.version)
                {
                    values.append(
                        survivingKey(
                            quoted(sourceColumn.name), of: sourceName, of: correspondence.source, source: source))
                } else {
                    values.append(
                        inverseFill(column.property, of: entity, sourceTable: sourceTable, source: source) ?? "NULL")
                }
            case .orderKey:
                let sourceName = correspondence.relationships[column.property] ?? nil
                let foreignKey = sourceName.flatMap {
                    sourceTable.column(for: $0, of: correspondence.source, version: source.version)
                }
                if let sourceName,
                    let order = sourceTable.orderKeyColumn(
                        for: sourceName, of: correspondence.source, version: source.version)
                {
                    values.append(quoted(order.name))
                } else if let foreignKey {
                    // Newly ordered: number each parent's children in primary-key order, over the whole table, so
                    // that children of several subentities share one numbering.
                    windows.append(
                        "ROW_NUMBER() OVER (PARTITION BY \(quoted(foreignKey.name)) ORDER BY Z_PK) AS MBORDER\(windows.count)"
                    )
                    values.append("MBORDER\(windows.count - 1)")
                    needsWholeTable = true
                } else {
                    values.append("NULL")
                }
            case .entityNumber:
                values.append("NULL")  // filled from the destinations' rows by Store.rewriteBookkeeping
            }
        }
        let rows = try count(
            "SELECT COUNT(*) FROM \(quoted(sourceTable.name)) WHERE Z_ENT = \(sourceNumber)", connection)
        let filter = needsWholeTable ? "" : " AND Z_PK BETWEEN ?1 AND ?2"
        let from =
            windows.isEmpty
            ? quoted(sourceTable.name)
            // Named as the table, so that column references qualified with it still resolve.
            : "(SELECT *, \(windows.joined(separator: ", ")) FROM \(quoted(sourceTable.name))) AS \(quoted(sourceTable.name))"
        let sql =
            "INSERT INTO \(quoted(Self.newTablePrefix + table.name)) (\(columns.joined(separator: ", "))) "
            + "SELECT \(values.joined(separator: ", ")) FROM \(from) WHERE Z_ENT = \(sourceNumber)\(filter)"
        let ranges =
            needsWholeTable
            ? [nil] : try Self.ranges(table: sourceTable.name, where: "Z_ENT = \(sourceNumber)", connection)
        return Copy(sql: sql, ranges: ranges, rows: rows, isJoin: false)
    }

    /// The SQL literal of the default of an attribute that was optional and is now required, if it is one.
    func requiredDefault(_ attribute: String, of entity: String) -> String? {
        guard let declared = plan.destination.attribute(attribute, of: entity), !declared.isOptional,
            let value = declared.defaultValue,
            let correspondence = plan.correspondence(forDestination: entity),
            let sourceName = correspondence.attributes[attribute] ?? nil,
            plan.source.attribute(sourceName, of: correspondence.source)?.isOptional == true
        else { return nil }
        return value.sqliteValue.sqlLiteral
    }

    /// For a new to-one whose inverse existed without it: the key of the object whose source relationship
    /// held this row, read from where the source kept that relationship (a join table, a foreign key, or this
    /// row's own foreign key of the old inverse).
    func inverseFill(
        _ relationship: String, of entity: String, sourceTable: EntityTable, source: StoreLayout
    ) -> String? {
        guard let declared = plan.destination.relationship(relationship, of: entity),
            let inverse = plan.destination.inverse(of: declared),
            let (sourceEntity, sourceName) = sourceRelationship(inverse.name, declaredOn: declared.destination),
            let held = source.version.relationship(sourceName, of: sourceEntity)
        else { return nil }
        let row = "\(quoted(sourceTable.name)).Z_PK"
        switch source.storage(of: held, in: sourceEntity) {
        case .joinTable:
            let join = source.joinTable(for: sourceName, of: sourceEntity)!
            let owner = quoted(join.sourceColumn(forRelationship: sourceName, of: sourceEntity))
            let target = quoted(join.targetColumn(forRelationship: sourceName, of: sourceEntity))
            let kept = dropsObject("j.\(owner)", of: sourceEntity, source: source).map { " AND NOT \($0)" } ?? ""
            // Several objects may hold this row when the old relationship had no inverse or a to-many one (a
            // narrowed inverse): as below, the last of them by key keeps it.
            return "(SELECT MAX(j.\(owner)) FROM \(quoted(join.name)) j WHERE j.\(target) = \(row)\(kept))"
        case .foreignKey:
            let table = source.table(for: sourceEntity)
            guard let column = table.column(for: sourceName, of: sourceEntity, version: source.version) else {
                return nil
            }
            // Several objects may hold this row when the old inverse was to-many (a narrowed inverse): Core
            // Data's inverse maintenance, setting them in key order, leaves the last one.
            return "(SELECT MAX(o.Z_PK) FROM \(quoted(table.name)) o WHERE o.\(quoted(column.name)) = \(row))"
        case .inverseForeignKey:
            // The source kept the edge in this very row: the foreign key of the old inverse.
            guard let back = source.version.inverse(of: held),
                let column = sourceTable.column(for: back.name, of: held.destination, version: source.version)
            else { return nil }
            return survivingKey(
                "\(quoted(sourceTable.name)).\(quoted(column.name))", of: back.name, of: held.destination,
                source: source)
        case .none:
            return nil
        }
    }

    /// A new to-one filled from a kept to-one whose old inverse was to-many (`User.memberships` narrowed to
    /// `User.membership`): each object can hold one, so of the objects that held the same one, Core Data's
    /// inverse maintenance leaves only the one the new to-one points at; the others lose their link.
    func dropNarrowedInverseLinks(layout: StoreLayout, connection: Connection) throws {
        for entity in plan.destination.entities {
            guard let correspondence = plan.correspondence(forDestination: entity.name) else { continue }
            for declared in entity.relationships
            where !declared.isToMany && !declared.isTransient
                && correspondence.relationships[declared.name] == .some(nil)
            {
                guard let kept = plan.destination.inverse(of: declared), !kept.isToMany,
                    case .foreignKey = layout.storage(of: declared, in: entity.name),
                    case .foreignKey = layout.storage(of: kept, in: declared.destination),
                    let holder = layout.table(for: entity.name).column(
                        for: declared.name, of: entity.name, version: plan.destination),
                    let link = layout.table(for: declared.destination).column(
                        for: kept.name, of: declared.destination, version: plan.destination)
                else { continue }
                let owners = quoted(layout.table(for: entity.name).name)
                let targets = quoted(layout.table(for: declared.destination).name)
                try connection.execute(
                    "UPDATE \(targets) SET \(quoted(link.name)) = NULL WHERE \(quoted(link.name)) IS NOT NULL AND Z_PK IS NOT "
                        + "(SELECT h.\(quoted(holder.name)) FROM \(owners) h WHERE h.Z_PK = \(targets).\(quoted(link.name)))"
                )
            }
        }
    }

    /// The source entity and relationship that destination `relationship`, declared on `entity`, comes from.
    func sourceRelationship(_ relationship: String, declaredOn entity: String) -> (String, String)? {
        for member in plan.destination.hierarchy(of: entity) {
            guard let correspondence = plan.correspondence(forDestination: member),
                let name = correspondence.relationships[relationship] ?? nil
            else { continue }
            // The source entity that declares it: the counterpart or one of its ancestors.
            let owner = ([correspondence.source] + plan.source.ancestors(of: correspondence.source))
                .last { plan.source.entity(named: $0)?.relationships.contains { $0.name == name } ?? false }
            return (owner ?? correspondence.source, name)
        }
        return nil
    }

    func count(_ sql: String, _ connection: Connection) throws -> Int {
        Int(try connection.scalar(sql)?.int64 ?? 0)
    }

    /// Primary-key ranges of about ``chunkSize`` rows covering the rows of `table` that match `condition`.
    private static func ranges(
        table: String, where condition: String, _ connection: Connection
    ) throws -> [ClosedRange<Int64>?] {
        let row = try connection.rows("SELECT MIN(Z_PK), MAX(Z_PK) FROM \(quoted(table)) WHERE \(condition)").first
        guard let low = row?[0].int64, let high = row?[1].int64 else { return [] }
        return stride(from: low, through: high, by: Int(chunkSize)).map { $0...min($0 + chunkSize - 1, high) }
    }
}
