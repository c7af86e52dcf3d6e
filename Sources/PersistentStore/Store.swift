public import Foundation
public import ObjectModel
public import SQLiteDatabase

/// An SQLite store in Core Data's layout, open at one model version.
///
/// ```swift
/// let store = try Store.create(at: "/tmp/library.sqlite", version: history.currentVersion)
/// try store.connection.transaction { … insert rows … }
/// try store.finishBulkLoad()
/// ```
public final class Store {
    /// The store file.
    public let path: String
    /// The connection to the store; statements prepared on it never outlive it.
    public let connection: Connection
    /// How the store's model version is laid out in tables.
    public let layout: StoreLayout
    /// The store's metadata.
    public private(set) var metadata: StoreMetadata

    /// The model version the store is at.
    public var version: ModelVersion { layout.version }

    private init(path: String, connection: Connection, layout: StoreLayout, metadata: StoreMetadata) {
        self.path = path
        self.connection = connection
        self.layout = layout
        self.metadata = metadata
    }

    /// The pragmas of a new store's bulk load, in the order they must run: no rollback journal, no syncs, then
    /// incremental auto-vacuum, as every store Core Data creates has. Auto-vacuum must come before the first
    /// table, or SQLite ignores it, and after the two others, or it commits an empty transaction through a
    /// rollback journal, with four syncs. The floors set the same (`Scenarios/floors/*-copy.sql` spells them out).
    public static let freshStorePragmas: [(name: String, value: String)] = [
        ("journal_mode", "OFF"), ("synchronous", "OFF"), ("auto_vacuum", "2"),
    ]

    /// Sets ``freshStorePragmas`` on `connection`, a new, empty database, in their order.
    public static func setFreshStorePragmas(_ connection: Connection) throws(SQLiteError) {
        for pragma in freshStorePragmas { try connection.setPragma(pragma.name, pragma.value) }
    }

    /// Creates an empty store at `version`: tables, indexes, `Z_PRIMARYKEY` and `Z_METADATA`.
    ///
    /// The store is set up for a fast bulk load (no rollback journal, no syncs); call ``finishBulkLoad()``
    /// when the rows are in to switch it to WAL mode, as Core Data uses, and make it durable. Like every store
    /// Core Data creates (format note S4), it has incremental auto-vacuum, which its metadata says.
    ///
    /// - Parameter uuid: the store's UUID; a new random one by default.
    /// - Throws: ``StoreError/Code/alreadyExists`` if a file is at `path`.
    public static func create(at path: String, version: ModelVersion, uuid: UUID = UUID()) throws(StoreError) -> Store {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.alreadyExists, "a file already exists here; remove it or choose another path", path: path)
        }
        let layout = try StoreLayout(version: version)
        let metadata = StoreMetadata(version: version, uuid: uuid.uuidString)
        return try storeOperation(path) {
            let connection = try Connection(path: path, mode: .readWriteCreate)
            try registerCoreDataFunctions(connection)
            try setFreshStorePragmas(connection)
            let store = Store(path: path, connection: connection, layout: layout, metadata: metadata)
            try connection.transaction {
                for statement in SchemaBuilder(layout: layout).tableStatements() { try connection.execute(statement) }
                try store.writePrimaryKeyTable()
                try store.writeMetadata()
            }
            return store
        }
    }

    /// Opens an existing store, which must be at `version` (its hashes must equal the version's).
    ///
    /// - Throws: ``StoreError/Code/incompatibleModel`` naming the entities whose hashes differ.
    public static func open(at path: String, version: ModelVersion, readOnly: Bool = false) throws(StoreError) -> Store
    {
        let connection = try openConnection(path, readOnly: readOnly)
        let metadata = try readMetadata(connection, path: path)
        guard metadata.isCompatible(with: version) else {
            let entities = metadata.mismatchedEntities(against: version).joined(separator: ", ")
            throw StoreError(
                .incompatibleModel,
                "the store is not at model version '\(version.name)'; entities whose hashes differ: \(entities)",
                path: path)
        }
        let layout = try StoreLayout(version: version, readingFrom: connection)
        return Store(path: path, connection: connection, layout: layout, metadata: metadata)
    }

    /// Removes the store file at `path` and its SQLite sidecars (`-wal`, `-shm`, `-journal`), where present.
    public static func remove(at path: String) {
        // Only files that exist: a failed removal costs an error object, which is slow to make on Linux.
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Reads a store's metadata without a model, like Core Data's `metadataForPersistentStore`.
    public static func metadata(at path: String) throws(StoreError) -> StoreMetadata {
        try readMetadata(try openConnection(path, readOnly: true), path: path)
    }

    /// Builds the indexes, records the primary keys handed out, switches a freshly loaded store to WAL mode,
    /// as Core Data uses, and syncs it to disk.
    public func finishBulkLoad() throws(StoreError) {
        try storeOperation(path) {
            try connection.transaction {
                try fillEntityNumbers()
                for statement in SchemaBuilder(layout: layout).indexStatements() { try connection.execute(statement) }
                try updatePrimaryKeyMaxima()
            }
            try connection.setPragma("journal_mode", "WAL")
            try connection.setPragma("synchronous", "NORMAL")
            try connection.checkpoint(.truncate)
        }
    }

    /// The number of objects of each concrete or abstract entity (its own rows, not its subentities').
    public func objectCounts() throws(StoreError) -> [String: Int] {
        try storeOperation(path) {
            var counts: [String: Int] = [:]
            let names = Dictionary(uniqueKeysWithValues: layout.entityNumbers.map { ($1, $0) })
            for table in layout.entityTables {
                for entity in table.entities { counts[entity] = 0 }
                if table.holdsOneEntity {
                    // One entity: SQLite counts a table's rows from its b-tree without decoding them.
                    counts[table.root] = Int(
                        try connection.scalar("SELECT COUNT(*) FROM \(quoted(table.name))")?.int64 ?? 0)
                    continue
                }
                try connection.withStatement("SELECT Z_ENT, COUNT(*) FROM \(quoted(table.name)) GROUP BY Z_ENT") {
                    statement in
                    while try statement.step() {
                        if let entity = names[Int(statement.int64(0))] { counts[entity] = Int(statement.int64(1)) }
                    }
                }
            }
            return counts
        }
    }

    /// The number of edges of each stored relationship, keyed `Entity.relationship`.
    ///
    /// A relationship and its inverse are counted once, under the side that stores it: the to-one side of
    /// a one-to-many, the owner of a join table; both sides of a one-to-one count their own foreign keys.
    public func edgeCounts() throws(StoreError) -> [String: Int] {
        try storeOperation(path) {
            var counts: [String: Int] = [:]
            for table in layout.entityTables {
                for column in table.columns where column.kind == .foreignKey {
                    let sql = "SELECT COUNT(*) FROM \(quoted(table.name)) WHERE \(quoted(column.name)) IS NOT NULL"
                    counts["\(column.entity).\(column.property)"] = Int(try connection.scalar(sql)?.int64 ?? 0)
                }
            }
            for join in layout.joinTables {
                let sql = "SELECT COUNT(*) FROM \(quoted(join.name))"
                counts["\(join.ownerEntity).\(join.ownerRelationship)"] = Int(try connection.scalar(sql)?.int64 ?? 0)
            }
            return counts
        }
    }

    // MARK: - Bookkeeping tables

    /// Rewrites `Z_PRIMARYKEY` and `Z_METADATA` for `layout`'s version, keeping the store's UUID and
    /// Core Data's persistent-history rows (entity numbers from 16000). For migrations that change a store's
    /// version in place; run it inside their transaction.
    package static func rewriteBookkeeping(
        connection: Connection,
        layout: StoreLayout,
        uuid: String
    ) throws {
        try connection.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < \(StoreInspection.firstHistoryEntityNumber)")
        let store = Store(
            path: connection.path, connection: connection, layout: layout,
            metadata: StoreMetadata(version: layout.version, uuid: uuid))
        try store.writePrimaryKeyTable()
        try store.fillEntityNumbers()
        try store.updatePrimaryKeyMaxima()
        try store.writeMetadata()
    }

    private func writePrimaryKeyTable() throws {
        try connection.withStatement("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)") {
            statement in
            for (entity, number) in layout.entityNumbers.sorted(by: { $0.value < $1.value }) {
                try statement.bind(Int64(number), at: 1)
                try statement.bind(entity, at: 2)
                let parent = version.entity(named: entity)?.parent.flatMap { layout.entityNumbers[$0] } ?? 0
                try statement.bind(Int64(parent), at: 3)
                try statement.run()
            }
        }
    }

    /// Sets each root entity's `Z_MAX` to the largest primary key in its table; a subentity's stays 0.
    ///
    /// Core Data hands out primary keys per inheritance root (format note E3): every entity of a table
    /// takes its keys from the root's counter.
    func updatePrimaryKeyMaxima() throws {
        try connection.withStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?") { update in
            for table in layout.entityTables {
                // The whole table's largest key is a b-tree lookup.
                let maximum = try connection.scalar("SELECT COALESCE(MAX(Z_PK), 0) FROM \(quoted(table.name))")
                try update.bind(maximum?.int64 ?? 0, at: 1)
                try update.bind(Int64(layout.entityNumbers[table.root]!), at: 2)
                try update.run()
            }
        }
    }

    /// Writes each `Z<n>_<NAME>` column: the entity number of the row its foreign key points at (R2).
    ///
    /// Rows are written with the key alone; one statement per such column then reads the numbers from the
    /// destination table. Tables without such columns cost nothing.
    func fillEntityNumbers() throws {
        for table in layout.entityTables {
            for column in table.columns where column.kind == .entityNumber {
                guard let relationship = version.relationship(column.property, of: column.entity),
                    let foreignKey = table.column(for: column.property, of: column.entity, version: version)
                else { continue }
                let target = layout.table(for: relationship.destination).name
                try connection.execute(
                    "UPDATE \(quoted(table.name)) SET \(quoted(column.name)) = (SELECT t.Z_ENT FROM \(quoted(target)) t "
                        + "WHERE t.Z_PK = \(quoted(table.name)).\(quoted(foreignKey.name))) "
                        + "WHERE \(quoted(foreignKey.name)) IS NOT NULL")
            }
        }
    }

    /// Writes `Z_METADATA`, its `_NSAutoVacuumLevel` the file's own `PRAGMA auto_vacuum` (a store this project
    /// generated before it set auto-vacuum is at 0).
    private func writeMetadata() throws {
        if case .integer(let level)? = try connection.pragma("auto_vacuum") { metadata.autoVacuumLevel = Int(level) }
        try connection.execute("DELETE FROM Z_METADATA")
        try connection.withStatement("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)") {
            statement in
            try statement.bind(metadata.uuid, at: 1)
            try statement.bind(try metadata.plist(), at: 2)
            try statement.run()
        }
    }

    private static func openConnection(_ path: String, readOnly: Bool) throws(StoreError) -> Connection {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notAStore, "no such file", path: path)
        }
        return try storeOperation(path) {
            let connection = try Connection(path: path, mode: readOnly ? .readOnly : .readWrite)
            try registerCoreDataFunctions(connection)
            return connection
        }
    }

    /// The SQL functions the triggers of Core Data's derived attributes call (format note D1), as no-ops:
    /// Core Data uses them to refresh its in-memory objects; the triggers keep the stored values up to date
    /// without them.
    package static func registerCoreDataFunctions(_ connection: Connection) throws(SQLiteError) {
        for name in [
            "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
        ] {
            try connection.registerNoOpFunction(name, argumentCount: 5)
        }
    }

    private static func readMetadata(_ connection: Connection, path: String) throws(StoreError) -> StoreMetadata {
        let row: [SQLiteValue]
        do {
            row = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1").first ?? []
        } catch {
            switch error.code {
            case .notADatabase:
                throw StoreError(.notAStore, "not an SQLite database", path: path, underlying: error)
            case .error:  // no such table
                throw StoreError(
                    .notAStore, "no Z_METADATA table: not a Core Data store", path: path, underlying: error)
            default:
                // A store in WAL mode needs its -shm file, which SQLite cannot create in a folder it cannot write.
                throw StoreError(
                    .notAStore, "cannot read the store (is its folder writable?)", path: path, underlying: error)
            }
        }
        guard row.count == 2, let plist = row[1].bytes else {
            throw StoreError(.notAStore, "Z_METADATA holds no metadata row: not a Core Data store", path: path)
        }
        do {
            return try StoreMetadata(plist: plist, uuid: row[0].string ?? "")
        } catch {
            throw error.at(path)
        }
    }
}

/// `name` as an SQL identifier in double quotes, with any quote inside doubled.
///
/// Foundation's `replacingOccurrences` is called only for a name that holds a quote: it bridges through
/// `NSString` at some 9,000 instructions a call, which the engine paid twice for every UPDATE it built (half
/// of merge-duplicates' relationship stage at 10,000 objects).
public func quoted(_ name: String) -> String {
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

extension EntityTable {
    /// The lowest and highest `Z_PK` of the table `name` in the database `schema` of `connection`, each read
    /// from an end of the table's b-tree (a lone MIN or MAX, which SQLite answers without a scan); nil when the
    /// table is empty.
    public static func keyRange(
        ofTable name: String, schema: String = "main", in connection: Connection
    ) throws(SQLiteError) -> ClosedRange<Int64>? {
        let table = "\(schema).\(quoted(name))"
        let ends = try connection.rows("SELECT (SELECT MIN(Z_PK) FROM \(table)), (SELECT MAX(Z_PK) FROM \(table))")
        guard let lowest = ends.first?[0].int64, let highest = ends.first?[1].int64 else { return nil }
        return lowest...highest
    }

    /// Whether `Z_PK` is the rowid of the table `name` in the database `schema` of `connection`, as Core Data
    /// declares it (`Z_PK INTEGER PRIMARY KEY`, format note C1): its only primary-key column, declared `INTEGER`,
    /// in a table with rowids. Only then is every key present and unique.
    public static func keyIsRowid(
        ofTable name: String, schema: String = "main", in connection: Connection
    ) throws(SQLiteError) -> Bool {
        let keys = try connection.rows(
            "SELECT name, upper(type) FROM pragma_table_info(?, ?) WHERE pk > 0", [.text(name), .text(schema)])
        guard keys.count == 1, keys[0][0].string == "Z_PK", keys[0][1].string == "INTEGER" else { return false }
        let withRowid = try connection.scalar(
            "SELECT wr = 0 FROM pragma_table_list WHERE schema = ? AND name = ?", [.text(schema), .text(name)])
        return withRowid?.int64 == 1
    }
}
