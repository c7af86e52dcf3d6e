import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Reads values along key paths from a store: attributes, and to-one relationships followed to their objects.
struct TestStoreReading {
    let store: Store

    /// The value at `keyPath` of every object of `entity` (its own), in primary-key order.
    func values(_ entity: String, keyPath: [String]) throws -> [AttributeValue?] {
        try rows(entity, keyPath: keyPath).map(\.value)
    }

    private func rows(_ entity: String, keyPath: [String]) throws -> [(key: Int64, value: AttributeValue?)] {
        let version = store.version
        guard version.entity(named: entity) != nil else {
            throw MigrationTestError("version '\(version.name)' has no entity '\(entity)'")
        }
        guard let key = keyPath.first else { throw MigrationTestError("an empty key path") }
        let rest = Array(keyPath.dropFirst())
        if let attribute = version.attribute(key, of: entity), !attribute.isTransient {
            guard rest.isEmpty else {
                throw MigrationTestError("'\(entity).\(key)' is an attribute: the key path cannot go on past it")
            }
            return try read(entity, key) { AttributeValue(sqlite: $0, as: attribute.type) }
        }
        guard let relationship = version.relationship(key, of: entity), !relationship.isToMany else {
            throw MigrationTestError("'\(key)' is neither an attribute nor a to-one relationship of '\(entity)'")
        }
        guard !rest.isEmpty else {
            throw MigrationTestError("the key path ends at the relationship '\(entity).\(key)': name an attribute")
        }
        var targets: [Int64: AttributeValue?] = [:]
        for destination in version.hierarchy(of: relationship.destination) {
            for row in try rows(destination, keyPath: rest) { targets[row.key] = row.value }
        }
        return try read(entity, key) { value -> Int64? in value.int64 }.map { row in
            (row.key, row.value.flatMap { targets[$0] ?? nil })
        }
    }

    private func read<T>(
        _ entity: String, _ property: String, _ convert: (SQLiteValue) -> T?
    ) throws -> [(
        key: Int64, value: T?
    )] {
        let reader = try RowReader(store: store, entity: entity, properties: [property])
        var rows: [(key: Int64, value: T?)] = []
        while try reader.next() { rows.append((reader.primaryKey, convert(reader.value(at: 0)))) }
        return rows
    }
}
