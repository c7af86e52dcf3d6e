import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// The source store fits its own model, so that the destination can be checked against it: its `-wal` is
    /// its own, and ``StoreContentCheck`` finds nothing, every problem reported. Rows that break the model belong
    /// to no mapping, so a migration that dropped them would otherwise look complete. Runs after the object
    /// comparisons, which may have read every row of a table already (see ``ObjectLedger``).
    func checkSourceStore() {
        if let problem = WriteAheadLog.foreignLogProblem(storeAt: sourcePath) {
            collector.add(.integrityCheck, entity: nil, primaryKey: nil, "source store: \(problem)")
        }
        guarded(.schema, entity: nil) {
            let check = StoreContentCheck(layout: sourceLayout, connection: connection, schema: "src")
            try check.run(
                .everyRow,
                rowsAreKnown: { table in
                    try ledger.readEveryRow(
                        ofSource: table.name, count: { try count("SELECT COUNT(*) FROM src.\(quoted(table.name))") })
                }, report: { add($0) })
        }
    }

    /// Records one problem of the source store as a violation.
    private func add(_ problem: StoreContentCheck.Problem) {
        switch problem {
        case .missingTable(let table, let owner, _):
            collector.add(.schema, entity: owner, primaryKey: nil, "source store: missing table \(table)")
        case .missingColumn(let table, let column, let owner, _):
            collector.add(
                .schema, entity: owner, property: column, primaryKey: nil,
                "source store: missing column \(table).\(column)")
        case .keyIsNotRowid(let table, let root):
            collector.add(
                .schema, entity: root, property: "Z_PK", primaryKey: nil,
                "source store: \(table).Z_PK is not its INTEGER PRIMARY KEY")
        case .noPrimaryKeyRow(let root):
            collector.add(
                .entityNumber, entity: root, primaryKey: nil, "source store: no Z_PRIMARYKEY row for \(root)")
        case .rowOutsideModel(let table, let root, let key, let storedEntity, let isEntityOfTable, let maximum):
            let detail =
                isEntityOfTable
                ? "source store: primary key \(key) is outside 1…\(maximum ?? 0) (Z_PRIMARYKEY's Z_MAX)"
                : "source store: Z_ENT \(storedEntity) is not a concrete entity of \(table); no mapping accounts for "
                    + "the row"
            collector.add(.entityNumber, entity: root, property: "Z_PK", primaryKey: key, detail)
        case .rowsOfNoEntity, .keyBelowOne, .keyAboveMaximum:
            break  // reported row by row as rowOutsideModel
        }
    }
}
