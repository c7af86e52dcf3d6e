import ObjectModel

/// The SQL that creates a store's tables and indexes, as Core Data writes them (format note §2–§8).
///
/// Every name is built from ASCII letters, digits and `_` and starts with `Z`, so the statements carry no
/// quotes, byte for byte what Core Data writes.
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
    ///
    /// Entity tables come in entity-number order, each followed by the join tables it names.
    func dataTableStatements(prefix: String, excluding excluded: Set<String> = []) -> [String] {
        var sql: [String] = []
        for table in layout.entityTables {
            if !excluded.contains(table.name) { sql.append(tableStatement(table, prefix: prefix)) }
            for join in layout.joinTables where table.entities.contains(join.ownerEntity) {
                if !excluded.contains(join.name) { sql.append(tableStatement(join, prefix: prefix)) }
            }
        }
        return sql
    }

    /// `CREATE TABLE` for one entity table.
    func tableStatement(_ table: EntityTable, prefix: String = "") -> String {
        let columns =
            ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            + table.columns.map { "\($0.name) \($0.sqlType)" }
        return "CREATE TABLE \(prefix)\(table.name) ( \(columns.joined(separator: ", ")) )"
    }

    /// `CREATE TABLE` for one join table, with its composite primary key (M4).
    func tableStatement(_ join: JoinTable, prefix: String = "") -> String {
        let columns = join.columns.map { "\($0) INTEGER" }
        let key = "PRIMARY KEY (\(join.ownerColumn), \(join.destinationColumn))"
        return "CREATE TABLE \(prefix)\(join.name) ( \(columns.joined(separator: ", ")), \(key) )"
    }

    /// The indexes: created after a bulk load, which is much faster than keeping them up to date row by row.
    ///
    /// Foreign keys (I1), the entity number of a hierarchy table (I2), join tables (M6), fetch indexes and
    /// indexed attributes (I4) and uniqueness constraints (I6), with the names of a modern store.
    func indexStatements() -> [String] {
        var sql: [String] = []
        for table in layout.entityTables {
            for column in table.columns where column.kind == .foreignKey {
                sql.append(index("\(table.name)_\(column.name)_INDEX", on: table.name, [column.name]))
            }
            if table.entities.count > 1 {
                sql.append(index("\(table.name)_Z_ENT_INDEX", on: table.name, ["Z_ENT"]))
            }
            for entity in table.entities {
                guard let declared = layout.version.entity(named: entity) else { continue }
                let columns = { (properties: [String]) -> [String]? in
                    let found = properties.compactMap {
                        table.column(for: $0, of: entity, version: self.layout.version)?.name
                    }
                    return found.count == properties.count ? found.map { "\($0) COLLATE BINARY ASC" } : nil
                }
                for attribute in declared.attributes where attribute.isIndexed && !attribute.isTransient {
                    if let columns = columns([attribute.name]) {
                        sql.append(index("Z_\(entity)_\(attribute.name)", on: table.name, columns))
                    }
                }
                for fetchIndex in declared.indexes {
                    if let columns = columns(fetchIndex.properties) {
                        sql.append(index("Z_\(entity)_\(fetchIndex.name)", on: table.name, columns))
                    }
                }
                for constraint in declared.uniquenessConstraints {
                    if let statement = uniquenessIndexStatement(of: entity, constraint) { sql.append(statement) }
                }
            }
        }
        for join in layout.joinTables {
            let name = "\(join.name)_\(join.destinationColumn)_INDEX"
            sql.append(index(name, on: join.name, [join.destinationColumn, join.ownerColumn]))
        }
        return sql
    }

    /// The unique index of `entity`'s uniqueness constraint `constraint` (I6), or nil when a property of it has
    /// no column.
    func uniquenessIndexStatement(of entity: String, _ constraint: [String]) -> String? {
        let table = layout.table(for: entity)
        let columns = constraint.compactMap { table.column(for: $0, of: entity, version: layout.version)?.name }
        guard columns.count == constraint.count else { return nil }
        let name = "Z_\(entity)_UNIQUE_" + constraint.joined(separator: "_")
        return index(name, on: table.name, columns.map { "\($0) COLLATE BINARY ASC" }, unique: true)
    }

    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS`: an in-place step reruns them over tables that kept their indexes.
    /// A name made of letters, digits and underscores is written bare, as Core Data writes it (every name here
    /// starts with `Z` or a table's name, so none is a keyword); any other (a fetch index named `by title`)
    /// is quoted — it was written bare, and the store could not be made.
    private func index(_ name: String, on table: String, _ columns: [String], unique: Bool = false) -> String {
        let plain = name.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                || (0x61...0x7A).contains($0)
        }
        return "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(plain ? name : quoted(name)) ON \(table) "
            + "(\(columns.joined(separator: ", ")))"
    }
}
