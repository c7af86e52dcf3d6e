import MappingModel
import PersistentStore
import SQLiteDatabase

/// The primary keys of one destination table.
final class TableKeys {
    /// Whether objects keep their source object's primary key.
    let preserving: Bool
    private var next: Int64

    init(preserving: Bool, next: Int64) {
        self.preserving = preserving
        self.next = next
    }

    /// A primary key for a new object: `preferred` when the table keeps source keys, else the next one.
    func allocate(preferred: Int64?) -> Int64 {
        if let preferred, preserving { return preferred }
        defer { next += 1 }
        return next
    }
}

/// Hands out destination primary keys, table by table.
///
/// A destination table fed only from one source table, by mappings without a custom policy, keeps the
/// source objects' primary keys (``PersistentStore/StoreLayout/tablesKeepingSourceKeys(fedBy:source:)``):
/// foreign keys then copy straight across, associations cost one bit an object, and the store's keys stay
/// recognisable. Other tables number their objects from 1.
struct PrimaryKeyAllocator {
    private var next: [String: Int64] = [:]
    private var preserving: Set<String> = []
    private var tables: [String: TableKeys] = [:]

    init(source: Store, destination: Store, passes: [CompiledPass]) throws {
        let feeds = passes.flatMap(\.mappings).compactMap { plan in
            plan.mapping.destinationEntity.map {
                StoreLayout.KeyFeed(
                    destinationEntity: $0, sourceEntity: plan.mapping.policy == nil ? plan.mapping.sourceEntity : nil)
            }
        }
        for (table, sourceTable) in destination.layout.tablesKeepingSourceKeys(fedBy: feeds, source: source.layout) {
            preserving.insert(table)
            let maximum = try source.connection.scalar("SELECT COALESCE(MAX(Z_PK), 0) FROM \(quoted(sourceTable))")
            next[table] = (maximum?.int64 ?? 0) + 1
        }
    }

    /// The keys of `table`, one object per table.
    mutating func keys(of table: String) -> TableKeys {
        if let keys = tables[table] { return keys }
        let keys = TableKeys(preserving: preserving.contains(table), next: next[table, default: 1])
        tables[table] = keys
        return keys
    }
}
