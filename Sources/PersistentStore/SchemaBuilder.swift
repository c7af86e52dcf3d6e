import ObjectModel

/// The SQL that creates a store's tables and indexes, as Core Data writes them.
struct SchemaBuilder {
    let layout: StoreLayout

    /// The tables, including Core Data's bookkeeping tables.
    func tableStatements() -> [String] {
        dataTableStatements(prefix: "") + [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
    }

    /// The entity and join tables only, but those in `excluded`, each name preceded by `prefix`.
    func dataTableStatements(prefix: String, excluding excluded: Set<String> = []) -> [String] {
        var sql: [String] = []
        for table in layout.entityTables where !excluded.contains(table.name) {
            let columns =
                ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + table.columns.map { "\(quoted($0.name)) \($0.sqlType)" }
            sql.append("CREATE TABLE \(quoted(prefix + table.name)) ( \(columns.joined(separator: ", ")) )")
        }
        for join in layout.joinTables where !excluded.contains(join.name) {
            var columns = ["\(quoted(join.ownerColumn)) INTEGER", "\(quoted(join.destinationColumn)) INTEGER"]
            for order in [join.ownerOrderColumn, join.inverseOrderColumn].compactMap({ $0 }) {
                columns.append("\(quoted(order)) INTEGER")
            }
            let key = "PRIMARY KEY (\(quoted(join.ownerColumn)), \(quoted(join.destinationColumn)))"
            sql.append("CREATE TABLE \(quoted(prefix + join.name)) ( \(columns.joined(separator: ", ")), \(key) )")
        }
        return sql
    }

    /// The indexes: created after a bulk load, which is much faster than keeping them up to date row by row.
    func indexStatements() -> [String] {
        var sql: [String] = []
        for table in layout.entityTables {
            for column in table.columns where column.kind == .foreignKey {
                sql.append(index(table: table.name, columns: [column.name]))
            }
            for entity in table.entities {
                guard let declared = layout.version.entity(named: entity) else { continue }
                for attribute in declared.attributes where attribute.isIndexed && !attribute.isTransient {
                    if let column = table.column(for: attribute.name, of: entity, version: layout.version) {
                        sql.append(index(table: table.name, columns: [column.name]))
                    }
                }
                for fetchIndex in declared.indexes {
                    let columns = fetchIndex.properties.compactMap {
                        table.column(for: $0, of: entity, version: layout.version)?.name
                    }
                    guard columns.count == fetchIndex.properties.count else { continue }
                    let name = "Z_\(entity.uppercased())_\(fetchIndex.name.uppercased())"
                    sql.append(
                        "CREATE INDEX IF NOT EXISTS \(quoted(name)) ON \(quoted(table.name)) "
                            + "(\(columns.map(quoted).joined(separator: ", ")))")
                }
            }
        }
        for join in layout.joinTables {
            sql.append(index(table: join.name, columns: [join.destinationColumn, join.ownerColumn]))
        }
        return sql
    }

    /// `CREATE INDEX <TABLE>_<COLUMN>_INDEX`, Core Data's name for a single-column index.
    private func index(table: String, columns: [String]) -> String {
        let name = "\(table)_\(columns.joined(separator: "_"))_INDEX"
        return
            "CREATE INDEX IF NOT EXISTS \(quoted(name)) ON \(quoted(table)) (\(columns.map(quoted).joined(separator: ", ")))"
    }
}
