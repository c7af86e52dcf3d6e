import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// The checks that every source object is accounted for and every destination object has a source, and
    /// that attribute values are what the mapping gives, in the order their findings are listed: one per
    /// destination entity; for an entity whose objects keep their source keys, one per mapping and range of
    /// about `rowsPerRange` source keys, so that the two threads share a large table. Object by object where
    /// objects keep their keys or are made one per source object by a single mapping; by count where several
    /// mappings feed a table that does not keep keys. Then, once all of them have run, the objects of the
    /// tables that keep keys that have no source object.
    func objectChecks(rowsPerRange: Int64) -> [SharedChecks.Check] {
        var checks: [SharedChecks.Check] = []
        for entity in destination.entities where !entity.isAbstract {
            let name = entity.name
            switch correspondences[name] ?? .noObjects {
            case .sameKeys(let feeders):
                ledger.keepsKeys(name, from: preservedTables[layout.table(for: name).name]!)
                for (feeder, compiled) in feeders.enumerated() {
                    for keys in sourceKeyRanges(of: compiled, rowsPerRange: rowsPerRange) {
                        checks.append(
                            .init(long: true) { $0.compareObjects(compiled, feeder: feeder, into: name, keys: keys) })
                    }
                }
            case .inOrder(let compiled):
                checks.append(
                    .init(long: true) { run in
                        run.guarded(.missingObject, entity: name) { try run.compareInOrder(compiled, into: name) }
                    })
            case .madeByPolicy(let compiled):
                // Checked pair by pair with the objects of the mapping's own entity, when those are paired.
                if let owner = compiled.mapping.destinationEntity, case .inOrder = correspondences[owner] { break }
                let reason =
                    "policy \(compiled.mapping.policy ?? "") of \(compiled.name) makes these objects, and the objects "
                    + "it makes them for are not paired with their source objects"
                checks.append(
                    .init { run in
                        for kind in [ViolationKind.missingObject, .unexpectedObject, .attributeValue] {
                            run.collector.skip(kind, entity: name, reason)
                        }
                    })
            case .noObjects:
                checks.append(
                    .init { run in run.guarded(.unexpectedObject, entity: name) { try run.expectNoObjects(name) } })
            case .counted(let feeders):
                checks.append(
                    .init { run in
                        let reason =
                            "several mappings feed this entity in a table that does not keep keys; objects are counted"
                        run.collector.skip(.missingObject, entity: name, reason)
                        run.collector.skip(.attributeValue, entity: name, reason)
                        run.guarded(.objectCount, entity: name) { try run.compareCount(of: name, feeders: feeders) }
                    })
            case .unknown(let reason):
                checks.append(
                    .init { run in
                        for kind in [ViolationKind.missingObject, .unexpectedObject, .attributeValue] {
                            run.collector.skip(kind, entity: name, reason)
                        }
                    })
            }
        }
        checks.append(
            .init(afterComparisons: true) { run in
                for (table, sourceTable) in run.preservedTables.sorted(by: { $0.key < $1.key }) {
                    run.guarded(.unexpectedObject, entity: nil) {
                        try run.findObjectsWithoutSource(table: table, sourceTable: sourceTable)
                    }
                }
            })
        return checks
    }

    /// The ranges of source keys that split the objects `compiled` migrates into parts of about `rowsPerRange`
    /// keys, read from the ends of the source table's b-tree; one range, nil (every key), for a small table, or
    /// one whose keys are not its rowid (a NULL key would be in no range; the source check reports the table).
    private func sourceKeyRanges(of compiled: CompiledEntityMapping, rowsPerRange: Int64) -> [ClosedRange<Int64>?] {
        guard let sourceEntity = compiled.mapping.sourceEntity else { return [nil] }
        let table = sourceLayout.table(for: sourceEntity).name
        guard (try? EntityTable.keyIsRowid(ofTable: table, schema: "src", in: connection)) == true,
            let keys = try? EntityTable.keyRange(ofTable: table, schema: "src", in: connection),
            let ranges = Self.split(keys, rowsPerRange: rowsPerRange)
        else { return [nil] }
        return ranges
    }

    /// The most ranges ``split(_:rowsPerRange:)`` makes: keys spread wider than this many ranges (a key of 2⁶²
    /// beside keys from 1) are compared in one range, not in 10¹³ ranges made one by one, which hung.
    static let rangeLimit: Int64 = 65_536

    /// `keys` cut into consecutive ranges of at most `rowsPerRange` keys each, as even as whole numbers allow,
    /// which together cover every key of it once; nil when it is no longer than `rowsPerRange`, when it would
    /// take more than ``rangeLimit`` ranges, or when its length does not fit an `Int64` (keys far apart).
    static func split(_ keys: ClosedRange<Int64>, rowsPerRange: Int64) -> [ClosedRange<Int64>]? {
        let (span, overflow) = keys.upperBound.subtractingReportingOverflow(keys.lowerBound)
        guard !overflow, span >= rowsPerRange, span / max(rowsPerRange, 1) < Self.rangeLimit else { return nil }
        let width = span / (span / rowsPerRange + 1) + 1
        var ranges: [ClosedRange<Int64>] = []
        var start = keys.lowerBound
        while keys.upperBound - start >= width {
            ranges.append(start...(start + width - 1))
            start += width
        }
        return ranges + [start...keys.upperBound]
    }

    /// One comparison of objects that keep their source keys, recorded in the ledger. When it cannot run, the
    /// reason leaves out the statement, which names the range of keys: the ranges of one mapping fail alike
    /// and are listed once. `feeder` tells the mappings into `entity` apart in the ledger: a mapping's name is
    /// unique only within its mapping model, and passes may repeat one.
    private func compareObjects(
        _ compiled: CompiledEntityMapping, feeder: Int, into entity: String, keys: ClosedRange<Int64>?
    ) {
        var comparison = ObjectLedger.Comparison(entity: entity)
        do {
            comparison = try compareByKey(compiled, into: entity, keys: keys)
        } catch let error as SQLiteError {
            let failure = SQLiteError(code: error.code, message: error.message, path: error.path)
            collector.failed(.missingObject, entity: entity, failure)
        } catch {
            collector.failed(.missingObject, entity: entity, error)
        }
        ledger.record(comparison, table: layout.table(for: entity).name)
        if let sourceEntity = compiled.mapping.sourceEntity, source.entity(named: sourceEntity)?.isAbstract == false {
            ledger.recordSourceRows(
                comparison.sourceRows, table: sourceLayout.table(for: sourceEntity).name, entity: sourceEntity,
                feeder: "\(entity) \(feeder)")
        }
    }

    /// Source entity `sourceEntity`'s stored attributes and the select list of their columns in table alias
    /// `alias`, in slot order.
    private func sourceColumns(of sourceEntity: String, alias: String) -> (types: [AttributeType], sql: [String]) {
        let attributes = source.storedAttributes(of: sourceEntity)
        let table = sourceLayout.table(for: sourceEntity)
        let columns = attributes.map {
            "\(alias).\(quoted(table.column(for: $0.name, of: sourceEntity, version: source)!.name))"
        }
        return (attributes.map(\.type), columns)
    }

    /// Objects that keep their source keys (those in `keys`, or all): one join of the two tables by primary
    /// key. When every attribute can be compared in SQL, a first pass only counts the rows that differ, and
    /// only those are read; it also counts the objects with a required value unset, so that the check of
    /// required values need not read the table again. Otherwise every row is read, with only the columns the
    /// verifier must compare itself; a row that SQL finds different is read again, whole, by key (see
    /// ``closeLook(at:columns:entity:)``).
    private func compareByKey(
        _ compiled: CompiledEntityMapping, into entity: String, keys: ClosedRange<Int64>?
    ) throws -> ObjectLedger.Comparison {
        guard let sourceEntity = compiled.mapping.sourceEntity else {
            return ObjectLedger.Comparison(entity: entity, matched: 0, unset: 0, complete: true)
        }
        var bindings: [SQLiteValue] = []
        let checks = AttributeCheck.checks(
            for: compiled, from: sourceEntity, to: entity, source: sourceLayout, destination: layout,
            bindings: &bindings)
        let edges = try foreignKeyEdges(of: compiled, entity: entity)
        let sourceNumber = sourceLayout.entityNumbers[sourceEntity]!
        let number = layout.entityNumbers[entity]!
        let range = keys.map { " AND s.Z_PK BETWEEN \($0.lowerBound) AND \($0.upperBound)" } ?? ""
        let from =
            "FROM src.\(quoted(sourceLayout.table(for: sourceEntity).name)) s LEFT JOIN "
            + "main.\(quoted(layout.table(for: entity).name)) d ON d.Z_PK = s.Z_PK WHERE s.Z_ENT = \(sourceNumber)"
            + range
        let (types, sourceSQL) = sourceColumns(of: sourceEntity, alias: "s")
        let checkDiffers = try checks.map { check in
            try check.differs
                ?? expressionDiffers(check, sourceColumns: sourceSQL, types: types, entityNumber: sourceNumber)
        }
        let differs = checkDiffers.compactMap { $0 } + edges.map(\.differs)
        let anyDiffers = differs.isEmpty ? "0" : differs.joined(separator: " OR ")
        let present = "d.Z_ENT IS \(number)"
        let everyRow = compiled.sourceFilter != nil || checkDiffers.contains(nil)
        var comparison = ObjectLedger.Comparison(
            entity: entity, matched: 0, edges: edges.map(\.relationship.name), sourceRows: everyRow ? 0 : nil)
        var condition = ""
        if !everyRow {
            // Counted with FILTER clauses rather than sums of the conditions: SQLite tests a filter with jumps
            // instead of computing every term's truth value, a quarter less work per row.
            let unset = requiredValues(of: entity).map { "d.\(quoted($0.column)) IS NULL" }
            let unsetCount =
                unset.isEmpty ? "0" : "COUNT(*) FILTER (WHERE \(present) AND (\(unset.joined(separator: " OR "))))"
            let sums = try connection.rows(
                "SELECT COUNT(*) FILTER (WHERE \(present)), COUNT(*) FILTER (WHERE NOT (\(present)) OR \(anyDiffers)), "
                    + "\(unsetCount), COUNT(*) \(from)",
                bindings
            ).first
            comparison.matched = sums?[0].int64 ?? 0
            comparison.unset = sums?[2].int64 ?? 0
            comparison.sourceRows = sums?[3].int64 ?? 0
            guard (sums?[1].int64 ?? 0) > 0 else {
                comparison.complete = true
                return comparison
            }
            condition = " AND (NOT (\(present)) OR \(anyDiffers))"
        }
        let uncompared = checks.indices.filter { checkDiffers[$0] == nil }
        let whole = wholeRowColumns(checks: checks, edges: edges)
        // Rows read only because SQL finds them different come whole (their objects, when present, differ:
        // the condition said so, and is not evaluated twice); rows read for the verifier's own comparisons come
        // with only those columns, and are read again whole when SQL finds them different.
        let columns =
            ["s.Z_PK", "d.Z_PK", "d.Z_ENT", everyRow ? "(\(anyDiffers))" : "1"] + sourceSQL
            + (everyRow ? uncompared.map { "d.\(quoted(checks[$0].column))" } : whole)
        let sql = "SELECT \(columns.joined(separator: ", ")) \(from)\(condition) ORDER BY s.Z_PK"
        let firstReadColumn = Int32(4 + types.count)
        let close = everyRow ? try closeLook(at: sourceEntity, columns: whole, entity: entity) : nil
        var complete = true
        try forEachRowOf(sql, bindings) { row in
            let context = SourceRowContext(row: row, firstColumn: 4, types: types, entityNumber: sourceNumber)
            while try row.step() {
                let key = row.int64(0)
                guard let migrates = migrates(compiled, context: context, entity: entity) else {
                    complete = false
                    return
                }
                // As SQL's `d.Z_ENT IS n`: a REAL 2.5 stored in Z_ENT reads as 2 through int64.
                let isPresent = !row.isNull(1) && row.columnType(2) == .integer && row.int64(2) == Int64(number)
                if everyRow {
                    comparison.sourceRows! += 1
                    if isPresent { comparison.matched! += 1 }
                }
                if !migrates {
                    if isPresent {
                        collector.add(
                            .unexpectedObject, entity: entity, primaryKey: key,
                            "the source filter of \(compiled.name) excludes this \(sourceEntity) object")
                    }
                    continue
                }
                guard isPresent else {
                    let found = row.isNull(1) ? "no object" : "an object of Z_ENT \(row.string(2) ?? "NULL")"
                    collector.add(
                        .missingObject, entity: entity, primaryKey: key,
                        "\(sourceEntity) object \(key) should become \(entity) \(key); found \(found)")
                    continue
                }
                guard row.int64(3) != 0 else {
                    compareAttributes(
                        checks, uncompared, row: row, firstColumn: firstReadColumn, key: key, entity: entity,
                        context: context)
                    continue
                }
                var wholeRow = row
                var firstColumn = firstReadColumn
                if let close {
                    close.reset()
                    try close.bind(key, at: 1)
                    guard try close.step() else {
                        throw NotVerifiable(description: "\(entity) \(key) could not be read again")
                    }
                    wholeRow = close
                    firstColumn = 0
                }
                compareAttributes(
                    checks, Array(checks.indices), row: wholeRow, firstColumn: firstColumn, key: key, entity: entity,
                    context: context)
                for (index, edge) in edges.enumerated() {
                    let column = firstColumn + Int32(checks.count + 2 * index)
                    try edge.compare(
                        actual: wholeRow.isNull(column + 1) ? nil : wholeRow.int64(column + 1),
                        expected: wholeRow.isNull(column) ? nil : wholeRow.int64(column), key: key, entity: entity,
                        collector: collector)
                }
            }
        }
        comparison.complete = complete
        if !complete { (comparison.matched, comparison.sourceRows) = (nil, nil) }
        return comparison
    }

    /// The columns of a whole row of the key join: the destination column of every check, then the source and
    /// destination foreign key of every edge.
    private func wholeRowColumns(checks: [AttributeCheck], edges: [ForeignKeyEdge]) -> [String] {
        checks.map { "d.\(quoted($0.column))" }
            + edges.flatMap { ["s.\(quoted($0.sourceColumn))", "d.\(quoted($0.column))"] }
    }

    /// The statement that reads the whole row (`columns`) of one object of `entity` by primary key (`?1`), for
    /// a closer look.
    private func closeLook(at sourceEntity: String, columns: [String], entity: String) throws -> Statement {
        try connection.prepare(
            "SELECT \((columns.isEmpty ? ["NULL"] : columns).joined(separator: ", ")) "
                + "FROM main.\(quoted(layout.table(for: entity).name)) d, "
                + "src.\(quoted(sourceLayout.table(for: sourceEntity).name)) s WHERE d.Z_PK = ?1 AND s.Z_PK = ?1")
    }

    /// Objects of a table that does not keep keys, made by one mapping: the n-th migrated source object (in
    /// order of primary key) is paired with the n-th destination object, as the objects are made in the
    /// order the source objects are read. Two ordered statements stepped side by side.
    private func compareInOrder(_ compiled: CompiledEntityMapping, into entity: String) throws {
        guard let sourceEntity = compiled.mapping.sourceEntity else { return }
        var bindings: [SQLiteValue] = []
        let checks = AttributeCheck.checks(
            for: compiled, from: sourceEntity, to: entity, source: sourceLayout, destination: layout,
            bindings: &bindings)
        let sourceNumber = sourceLayout.entityNumbers[sourceEntity]!
        let sourceTable = sourceLayout.table(for: sourceEntity).name
        let (types, sourceSQL) = sourceColumns(of: sourceEntity, alias: "s")
        let sourceQuery =
            "SELECT \((["s.Z_PK"] + sourceSQL).joined(separator: ", ")) FROM src.\(quoted(sourceTable)) s "
            + "WHERE s.Z_ENT = \(sourceNumber) ORDER BY s.Z_PK"
        let destinationQuery =
            "SELECT \((["d.Z_PK"] + checks.map { "d.\(quoted($0.column))" }).joined(separator: ", ")) "
            + "FROM main.\(quoted(layout.table(for: entity).name)) d WHERE d.Z_ENT = \(layout.entityNumbers[entity]!) "
            + "ORDER BY d.Z_PK"
        let objects = try compiled.mapping.madeObjects.compactMap {
            try PolicyObjectCheck(compiled, made: $0, owner: entity, run: self)
        }
        let every = Array(checks.indices)
        var identical = true
        try connection.withStatement(sourceQuery) { sourceRow in
            try connection.withStatement(destinationQuery) { row in
                let context = SourceRowContext(
                    row: sourceRow, firstColumn: 1, types: types, entityNumber: sourceNumber)
                while try sourceRow.step() {
                    guard let migrates = migrates(compiled, context: context, entity: entity) else {
                        identical = false
                        return
                    }
                    guard migrates else { continue }
                    let sourceKey = sourceRow.int64(0)
                    guard try row.step() else {
                        identical = false
                        collector.add(
                            .missingObject, entity: entity, primaryKey: sourceKey,
                            "\(sourceEntity) object \(sourceKey) has no \(entity) object left to pair with")
                        continue
                    }
                    let key = row.int64(0)
                    identical = identical && key == sourceKey
                    compareAttributes(
                        checks, every, row: row, firstColumn: 1, key: key, entity: entity, context: context)
                    for check in objects { try check.check(source: context, destination: key) }
                }
                while try row.step() {
                    identical = false
                    collector.add(
                        .unexpectedObject, entity: entity, primaryKey: row.int64(0),
                        "no \(sourceEntity) object is left to pair with it")
                }
            }
        }
        for check in objects { try check.finish() }
        if case .newIdentifier = checks.first(where: { $0.attribute.name == compiled.mapping.userInfo["attribute"] })?
            .expectation
        {
            try checkNewIdentifiersUnique(entity: entity, attribute: compiled.mapping.userInfo["attribute"] ?? "")
        }
        if identical { ledger.keepsKeys(entity, from: sourceTable) }
    }

    /// Whether the current source object passes `compiled`'s source filter; nil, listed as not checked, when
    /// the filter cannot be evaluated by the verifier.
    private func migrates(_ compiled: CompiledEntityMapping, context: SourceRowContext, entity: String) -> Bool? {
        guard let filter = compiled.sourceFilter else { return true }
        do {
            return try filter.isSatisfied(in: context)
        } catch {
            collector.skip(.missingObject, entity: entity, "source filter of \(compiled.name) not evaluable: \(error)")
            collector.skip(.attributeValue, entity: entity, "source filter of \(compiled.name) not evaluable")
            return nil
        }
    }

    /// An entity that no mapping makes objects of has none.
    private func expectNoObjects(_ entity: String) throws {
        let table = layout.table(for: entity).name
        let sql = "SELECT Z_PK FROM main.\(quoted(table)) WHERE Z_ENT = \(layout.entityNumbers[entity]!) ORDER BY 1"
        try forEachRow(sql) { row in
            collector.add(
                .unexpectedObject, entity: entity, primaryKey: row.int64(0), "no mapping makes \(entity) objects")
        }
    }

    /// Every object of a table that keeps keys has a source object that a mapping makes it from. When the
    /// comparisons met every row of the table, there is nothing to look for.
    private func findObjectsWithoutSource(table: String, sourceTable: String) throws {
        if try metEveryRow(of: table) { return }
        var allowed: Set<[Int]> = []
        var numbers: [Int] = []
        for entity in layout.entityTables.first(where: { $0.name == table })?.entities ?? [] {
            guard case .sameKeys(let feeders) = correspondences[entity] else { continue }
            let number = layout.entityNumbers[entity]!
            numbers.append(number)
            for compiled in feeders {
                guard let sourceEntity = compiled.mapping.sourceEntity,
                    let from = sourceLayout.entityNumbers[sourceEntity]
                else { continue }
                allowed.insert([from, number])
            }
        }
        let sql =
            "SELECT d.Z_PK, d.Z_ENT, s.Z_ENT FROM main.\(quoted(table)) d "
            + "LEFT JOIN src.\(quoted(sourceTable)) s ON s.Z_PK = d.Z_PK "
            + "WHERE d.Z_ENT IN (\(numbers.map(String.init).joined(separator: ", "))) ORDER BY d.Z_PK"
        try forEachRow(sql) { row in
            let number = Int(row.int64(1))
            guard let entity = layout.entityName(number: number) else { return }
            if row.isNull(2) {
                collector.add(
                    .unexpectedObject, entity: entity, primaryKey: row.int64(0),
                    "no source object has primary key \(row.int64(0))")
            } else if !allowed.contains([Int(row.int64(2)), number]) {
                let from = sourceLayout.entityName(number: Int(row.int64(2))) ?? "Z_ENT \(row.int64(2))"
                collector.add(
                    .unexpectedObject, entity: entity, primaryKey: row.int64(0),
                    "no mapping makes \(entity) objects from \(from) objects")
            }
        }
    }

    private func compareCount(of entity: String, feeders: [CompiledEntityMapping]) throws {
        var expected: Int64 = 0
        for compiled in feeders {
            guard let sourceEntity = compiled.mapping.sourceEntity, compiled.sourceFilter == nil else {
                collector.skip(.objectCount, entity: entity, "mapping \(compiled.name) filters its source objects")
                return
            }
            let table = sourceLayout.table(for: sourceEntity).name
            let number = sourceLayout.entityNumbers[sourceEntity]!
            expected += try count("SELECT COUNT(*) FROM src.\(quoted(table)) WHERE Z_ENT = \(number)")
        }
        let table = layout.table(for: entity).name
        let number = layout.entityNumbers[entity]!
        let actual = try count("SELECT COUNT(*) FROM main.\(quoted(table)) WHERE Z_ENT = \(number)")
        if actual != expected {
            collector.add(
                .objectCount, entity: entity, primaryKey: nil, "expected \(expected) objects, found \(actual)")
        }
    }
}
