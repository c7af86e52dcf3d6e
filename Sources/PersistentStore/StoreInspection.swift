public import ObjectModel
import SQLiteDatabase

/// What a store holds, read without a model: its metadata, entities and row counts.
///
/// Works on stores written by Core Data as well as by this project. Core Data's persistent-history
/// entities (numbers from 16000) are left alone.
public struct StoreInspection: Sendable {
    /// One entity listed in the store's `Z_PRIMARYKEY` table.
    public struct InspectedEntity: Sendable, Hashable {
        /// The entity name.
        public let name: String
        /// Its number, `Z_ENT`.
        public let number: Int
        /// The number of its parent entity, 0 for a root.
        public let parentNumber: Int
        /// The largest primary key handed out, `Z_MAX`.
        public let maxPrimaryKey: Int64
        /// The number of rows of exactly this entity (subentities' rows not included).
        public let rowCount: Int
    }

    /// The store file.
    public let path: String
    /// The store's metadata.
    public let metadata: StoreMetadata
    /// The model's entities, in entity-number order.
    public let entities: [InspectedEntity]

    /// The first entity number Core Data uses for persistent-history bookkeeping.
    static let firstHistoryEntityNumber = 16000

    /// Reads the store at `path` without changing it.
    public static func inspect(path: String) throws(StoreError) -> StoreInspection {
        let metadata = try Store.metadata(at: path)
        let connection = try storeOperation(path) { try Connection(path: path, mode: .readOnly) }
        let entities: [InspectedEntity] = try storeOperation(path) {
            let tables = Set(try connection.tableNames())
            var listed: [(number: Int, name: String, parent: Int, max: Int64)] = []
            try connection.withStatement("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
                row in
                while try row.step() {
                    let number = Int(row.int64(0))
                    guard number < firstHistoryEntityNumber, let name = row.string(1) else { continue }
                    listed.append((number, name, Int(row.int64(2)), row.int64(3)))
                }
            }
            var counts: [Int: Int] = [:]
            for entity in listed where entity.parent == 0 {
                // The table of an inheritance root, named by the layout's rule (T1).
                guard let table = try? EntityTable.storedName(entity.name, in: ""), tables.contains(table) else {
                    continue
                }
                try connection.withStatement("SELECT Z_ENT, COUNT(*) FROM \(quoted(table)) GROUP BY Z_ENT") { row in
                    while try row.step() { counts[Int(row.int64(0))] = Int(row.int64(1)) }
                }
            }
            return listed.map {
                InspectedEntity(
                    name: $0.name, number: $0.number, parentNumber: $0.parent, maxPrimaryKey: $0.max,
                    rowCount: counts[$0.number] ?? 0)
            }
        }
        return StoreInspection(path: path, metadata: metadata, entities: entities)
    }

    /// The version of `history` the store is at, found by exact equality of all entity hashes; among versions
    /// with identical hashes, the one the metadata names, else the oldest.
    public func matchingVersion(in history: ModelHistory) -> ModelVersion? {
        history.version(matching: metadata.versionHashes, named: metadata.modelVersionName)
    }

    /// For each version of `history`, the entities whose hashes differ from the store's.
    public func mismatches(in history: ModelHistory) -> [(version: String, entities: [String])] {
        history.versions.map { ($0.name, metadata.mismatchedEntities(against: $0)) }
    }
}
