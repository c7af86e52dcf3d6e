import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// The source store fits its own model, so that the destination can be checked against it: its `-wal` is
    /// its own, every table and column of its layout exists, `Z_PK` is each table's rowid, every row's `Z_ENT`
    /// is a concrete entity of its table and every `Z_PK` lies between 1 and its root's `Z_MAX`. Rows that break
    /// this belong to no mapping, so a migration that dropped them would otherwise look complete. Runs after the
    /// object comparisons, which may have read every row of a table already (see ``ObjectLedger``).
    func checkSourceStore() {
        if let problem = WriteAheadLog.foreignLogProblem(storeAt: sourcePath) {
            collector.add(.integrityCheck, entity: nil, primaryKey: nil, "source store: \(problem)")
        }
        guarded(.schema, entity: nil) {
            let tables = Set(
                try connection.rows("SELECT name FROM src.sqlite_master WHERE type = 'table'").compactMap {
                    $0.first?.string
                })
            var maxima: [Int64: Int64] = [:]
            if tables.contains("Z_PRIMARYKEY") {
                try forEachRow("SELECT Z_ENT, Z_MAX FROM src.Z_PRIMARYKEY") { maxima[$0.int64(0)] = $0.int64(1) }
            }
            for table in sourceLayout.entityTables {
                guard tables.contains(table.name) else {
                    collector.add(
                        .schema, entity: table.root, primaryKey: nil, "source store: missing table \(table.name)")
                    continue
                }
                var have: Set<String> = []
                try forEachRow("SELECT name FROM pragma_table_info(?, 'src')", [.text(table.name)]) {
                    have.insert($0.string(0) ?? "")
                }
                let missing = (["Z_PK", "Z_ENT"] + table.columns.map(\.name)).filter { !have.contains($0) }
                for column in missing {
                    collector.add(
                        .schema, entity: table.root, property: column, primaryKey: nil,
                        "source store: missing column \(table.name).\(column)")
                }
                guard missing.isEmpty else { continue }
                // The comparisons count source rows by key (see ``ObjectLedger``): a key that may repeat or be
                // NULL would let a count look complete while a row goes unmet.
                guard try EntityTable.keyIsRowid(ofTable: table.name, schema: "src", in: connection) else {
                    collector.add(
                        .schema, entity: table.root, property: "Z_PK", primaryKey: nil,
                        "source store: \(table.name).Z_PK is not its INTEGER PRIMARY KEY")
                    continue
                }
                checkSourceRows(
                    of: table, maximum: sourceLayout.entityNumbers[table.root].flatMap { maxima[Int64($0)] })
            }
        }
    }

    /// Every row of one source entity table has a concrete entity's `Z_ENT` and a key in 1…`Z_MAX`.
    private func checkSourceRows(of table: EntityTable, maximum: Int64?) {
        let numbers = table.entities.filter { source.entity(named: $0)?.isAbstract == false }
            .compactMap { sourceLayout.entityNumbers[$0] }
        let list = numbers.map(String.init).joined(separator: ", ")
        guarded(.entityNumber, entity: table.root) {
            // The lowest and highest keys come from the ends of the b-tree; only when one is out of range does
            // the scan test every row's key too (a third less work per row when none is, as in a sound store).
            let name = quoted(table.name)
            let keys = try EntityTable.keyRange(ofTable: table.name, schema: "src", in: connection)
            var condition = EntityTable.noEntitySQL(of: numbers)
            if let keys, keys.lowerBound < 1 || maximum.map({ keys.upperBound > $0 }) == true {
                condition += " OR Z_PK < 1" + (maximum.map { " OR Z_PK > \($0)" } ?? "")
            } else if try ledger.readEveryRow(
                ofSource: table.name, count: { try count("SELECT COUNT(*) FROM src.\(name)") })
            {
                return
            }
            let sql =
                "SELECT Z_PK, Z_ENT, Z_ENT IN (\(list)) FROM src.\(name) WHERE \(condition) ORDER BY Z_PK"
            try forEachRow(sql) { row in
                let key = row.int64(0)
                let found = row.string(1) ?? "NULL"  // as stored: a REAL 2.5 is no entity 2
                let detail =
                    row.int64(2) == 1
                    ? "source store: primary key \(key) is outside 1…\(maximum ?? 0) (Z_PRIMARYKEY's Z_MAX)"
                    : "source store: Z_ENT \(found) is not a concrete entity of \(table.name); no mapping "
                        + "accounts for the row"
                collector.add(.entityNumber, entity: table.root, property: "Z_PK", primaryKey: key, detail)
            }
        }
        if maximum == nil {
            collector.add(
                .entityNumber, entity: table.root, primaryKey: nil,
                "source store: no Z_PRIMARYKEY row for \(table.root)")
        }
    }
}
