import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// `PRAGMA integrity_check` of the destination store is clean.
    /// Damage so bad that the check itself stops (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) is damage found.
    func checkIntegrity() {
        do {
            for row in try connection.rows("PRAGMA main.integrity_check") {
                let message = row.first?.string ?? ""
                if message != "ok" { collector.add(.integrityCheck, entity: nil, primaryKey: nil, message) }
            }
        } catch let error where ResultCode.corrupt ~= error.code || ResultCode.notADatabase ~= error.code {
            collector.add(.integrityCheck, entity: nil, primaryKey: nil, "the check stopped: \(error.message)")
        } catch {
            collector.failed(.integrityCheck, entity: nil, error)
        }
    }

    /// The metadata's entity version hashes (and recorded version name) are the destination model's.
    func checkMetadata() {
        let metadata: StoreMetadata
        do {
            metadata = try Store.metadata(at: destinationPath)
        } catch {
            collector.add(.metadata, entity: nil, primaryKey: nil, "unreadable: \(error)")
            return
        }
        for entity in metadata.mismatchedEntities(against: destination) {
            let found = metadata.versionHashes[entity]?.hex ?? "none"
            let expected = destination.versionHashes[entity]?.hex ?? "none"
            collector.add(
                .metadata, entity: entity, property: "versionHash", primaryKey: nil,
                "expected \(expected), found \(found)")
        }
        if let name = metadata.modelVersionName, name != destination.name {
            collector.add(
                .metadata, entity: nil, property: "modelVersionName", primaryKey: nil,
                "expected '\(destination.name)', found '\(name)'")
        }
    }

    /// Every table and column of the destination layout exists, and no other data table or column does; each
    /// entity table's `Z_PK` is its rowid, so that keys are present and unique.
    func checkSchema() {
        guarded(.schema, entity: nil) {
            var expected: [String: (entity: String, columns: [String])] = [:]
            for table in layout.entityTables {
                expected[table.name] = (table.root, RowShape.inserted(table.columns.map(\.name)).columnNames)
            }
            for join in layout.joinTables {
                expected[join.name] = (join.ownerEntity, join.columns)
            }
            let bookkeeping: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
            let actual = Set(try connection.tableNames())
            for table in actual.sorted() where expected[table] == nil && !bookkeeping.contains(table) {
                guard !table.hasPrefix("ACHANGE"), !table.hasPrefix("ATRANSACTION") else { continue }
                collector.add(.schema, entity: nil, primaryKey: nil, "unexpected table \(table)")
            }
            for table in bookkeeping.sorted() where !actual.contains(table) && table != "Z_MODELCACHE" {
                collector.add(.schema, entity: nil, primaryKey: nil, "missing table \(table)")
            }
            for (table, want) in expected.sorted(by: { $0.key < $1.key }) {
                guard actual.contains(table) else {
                    collector.add(.schema, entity: want.entity, primaryKey: nil, "missing table \(table)")
                    continue
                }
                let have = try connection.columns(of: table).map(\.name)
                let entityTable = layout.entityTables.first { $0.name == table }
                let properties = Dictionary(
                    entityTable?.columns.map { ($0.name, $0) } ?? [], uniquingKeysWith: { first, _ in first })
                for column in want.columns where !have.contains(column) {
                    // Named by the model's entity and property where the column holds one.
                    collector.add(
                        .schema, entity: properties[column]?.entity ?? want.entity,
                        property: properties[column]?.property ?? column, primaryKey: nil,
                        "missing column \(table).\(column)")
                }
                for column in have where !want.columns.contains(column) {
                    collector.add(
                        .schema, entity: want.entity, property: column, primaryKey: nil,
                        "unexpected column \(table).\(column)")
                }
                if entityTable != nil, have.contains("Z_PK"),
                    try !EntityTable.keyIsRowid(ofTable: table, in: connection)
                {
                    collector.add(
                        .schema, entity: want.entity, property: "Z_PK", primaryKey: nil,
                        "\(table).Z_PK is not its INTEGER PRIMARY KEY")
                }
            }
        }
    }

    /// `Z_PRIMARYKEY` numbers the entities as the destination model does, and its `Z_MAX` covers every key.
    func checkEntityNumbers() {
        guarded(.entityNumber, entity: nil) {
            var listed: [Int: (name: String, parent: Int, max: Int64)] = [:]
            try forEachRow("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM main.Z_PRIMARYKEY WHERE Z_ENT < 16000") { row in
                listed[Int(row.int64(0))] = (row.string(1) ?? "", Int(row.int64(2)), row.int64(3))
            }
            for (entity, number) in layout.entityNumbers.sorted(by: { $0.value < $1.value }) {
                let parent = destination.entity(named: entity)?.parent.flatMap { layout.entityNumbers[$0] } ?? 0
                guard let row = listed.removeValue(forKey: number) else {
                    collector.add(.entityNumber, entity: entity, primaryKey: nil, "no Z_PRIMARYKEY row \(number)")
                    continue
                }
                // After a rename Core Data may keep the old name in Z_PRIMARYKEY (format note H4).
                let names = [entity, destination.entity(named: entity)?.renamingIdentifier].compactMap { $0 }
                if !names.contains(row.name) || row.parent != parent {
                    collector.add(
                        .entityNumber, entity: entity, primaryKey: nil,
                        "expected Z_ENT \(number) = \(entity) (Z_SUPER \(parent)), "
                            + "found \(row.name) (Z_SUPER \(row.parent))")
                }
                // Keys are handed out per inheritance root (format note E3): a root's Z_MAX covers its whole
                // table, read from the b-tree at once; a subentity's is not used (Core Data leaves it 0).
                let table = layout.table(for: entity)
                guard table.root == entity else { continue }
                let maximum = try count("SELECT MAX(Z_PK) FROM main.\(quoted(table.name))")
                if maximum > row.max {
                    collector.add(
                        .entityNumber, entity: entity, property: "Z_MAX", primaryKey: maximum,
                        "Z_MAX \(row.max) is below the largest primary key \(maximum)")
                }
            }
            for (number, row) in listed.sorted(by: { $0.key < $1.key }) {
                collector.add(
                    .entityNumber, entity: row.name, primaryKey: nil, "Z_PRIMARYKEY row \(number) names no entity")
            }
        }
    }

    /// Every row's `Z_ENT` is a concrete entity of its table: known without reading the table again where
    /// the object comparisons met every row of it (see ``ObjectLedger``). Runs after the comparisons.
    func checkEntityNumbersOfRows() {
        guarded(.entityNumber, entity: nil) {
            for table in layout.entityTables {
                if try metEveryRow(of: table.name) { continue }
                let concrete = table.entities.filter { destination.entity(named: $0)?.isAbstract == false }
                let condition = EntityTable.noEntitySQL(of: concrete.compactMap { layout.entityNumbers[$0] })
                let sql = "SELECT Z_PK, Z_ENT FROM main.\(quoted(table.name)) WHERE \(condition) ORDER BY Z_PK"
                try forEachRow(sql) { row in
                    let found = row.string(1) ?? "NULL"  // as stored: a REAL 2.5 is no entity 2
                    collector.add(
                        .entityNumber, entity: table.root, property: "Z_ENT", primaryKey: row.int64(0),
                        "Z_ENT \(found) is not a concrete entity of \(table.name)")
                }
            }
        }
    }
}
