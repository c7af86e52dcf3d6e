import MappingModel
import ObjectModel
import SQLiteDatabase

/// The source ↔ destination associations of one entity mapping, in both directions.
///
/// Core Data keeps these in dictionaries of managed objects. Here, while every destination object keeps its
/// source object's primary key (the usual case), the table holds one bit per object and nothing else, so a
/// streaming migration's memory does not grow with the store; the first association that breaks the
/// pattern turns it into dense arrays indexed by primary key (8 bytes an object, each way). One source
/// object may have several destination objects; the extra ones go to a small side table.
final class AssociationTable {
    /// The entity mapping's name.
    let mapping: String
    /// The source entity number.
    let sourceEntity: Int32
    /// The destination entity number of the objects the mapping creates by default.
    let destinationEntity: Int32

    private var isIdentity = true
    /// Identity: a bit per source primary key.
    private var present = KeyBitmap(limit: InputLimits.primaryKey)
    private var forward: [Int64] = []  // dense: source pk → first destination pk, 0 for none
    private var forwardEntity: [Int32] = []  // dense: used only when a destination is not of `destinationEntity`
    private var reverse: [Int64] = []  // dense: destination pk → source pk, 0 for none
    private var extra: [Int64: [ObjectID]] = [:]
    private var denseCount = 0

    /// The number of associations.
    var count: Int { isIdentity ? present.count : denseCount }

    init(mapping: String, sourceEntity: Int32, destinationEntity: Int32) {
        self.mapping = mapping
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
    }

    /// Records that `destination` was made from the source object with primary key `source`.
    ///
    /// - Throws: ``MigrationError`` when either key is outside 1 … ``InputLimits/primaryKey``: a damaged store's
    ///   negative or huge `Z_PK` would otherwise trap here or ask for terabytes.
    func associate(source: Int64, destination: ObjectID) throws(MigrationError) {
        // Checked without building anything: this runs once per object.
        if !(1...InputLimits.primaryKey).contains(source) { throw outOfBounds("source", source) }
        if !(1...InputLimits.primaryKey).contains(destination.primaryKey) {
            throw outOfBounds("destination", destination.primaryKey)
        }
        if isIdentity {
            if destination.primaryKey == source && destination.entity == destinationEntity && !contains(source) {
                present.insert(source)
                return
            }
            becomeDense()
        }
        denseCount += 1
        Self.set(&reverse, at: destination.primaryKey, to: source)
        let index = Int(source)
        if index < forward.count, forward[index] != 0 {
            extra[source, default: []].append(destination)
            return
        }
        Self.set(&forward, at: source, to: destination.primaryKey)
        if destination.entity != destinationEntity {
            Self.set(&forwardEntity, at: source, to: destination.entity)
        }
    }

    /// The error for a key that no association can index.
    func outOfBounds(_ side: String, _ key: Int64) -> MigrationError {
        MigrationError(
            .store,
            "entity mapping '\(mapping)': \(side) primary key (Z_PK) \(key) is outside 1…\(InputLimits.primaryKey)",
            entityMapping: mapping, sourceKey: side == "source" ? key : nil, underlying: nil)
    }

    /// Makes room for source keys up to about `keys` at once, so that the table does not grow by doubling
    /// (which would leave up to half of it unused, and hold the old and the new copy while it grows).
    func reserve(sourceKeys keys: Int) {
        guard isIdentity, keys > 0 else { return }
        present.reserve(upTo: Int64(keys))
    }

    /// The identity bits, while every association so far keeps its source key in the destination entity: SQL
    /// functions then associate and look up straight in them (``BulkInstanceCreation``).
    var identityKeys: KeyBitmap? { isIdentity ? present : nil }

    /// The destination objects made from source object `source`, in the order they were made.
    func destinations(ofSource source: Int64) -> [ObjectID] {
        guard let first = firstDestination(ofSource: source) else { return [] }
        guard let more = extra[source] else { return [first] }
        return [first] + more
    }

    /// The first destination object made from source object `source`.
    func firstDestination(ofSource source: Int64) -> ObjectID? {
        if isIdentity {
            return contains(source) ? ObjectID(side: .destination, entity: destinationEntity, primaryKey: source) : nil
        }
        let index = Int(source)
        guard index > 0, index < forward.count, forward[index] != 0 else { return nil }
        let entity = index < forwardEntity.count && forwardEntity[index] != 0 ? forwardEntity[index] : destinationEntity
        return ObjectID(side: .destination, entity: entity, primaryKey: forward[index])
    }

    /// The primary key of the source object that destination primary key `destination` was made from.
    func source(ofDestination destination: Int64) -> Int64? {
        if isIdentity { return contains(destination) ? destination : nil }
        let index = Int(destination)
        guard index > 0, index < reverse.count, reverse[index] != 0 else { return nil }
        return reverse[index]
    }

    /// Bytes held, for the report.
    var footprint: Int {
        present.footprint + (forward.capacity + reverse.capacity) * 8 + forwardEntity.capacity * 4
            + extra.count * 64
    }

    private func contains(_ key: Int64) -> Bool {
        present.contains(key)
    }

    private func becomeDense() {
        isIdentity = false
        denseCount = present.count
        present.forEach { key in
            Self.set(&forward, at: key, to: key)
            Self.set(&reverse, at: key, to: key)
        }
        present = KeyBitmap(limit: InputLimits.primaryKey)
    }

    private static func set<T: FixedWidthInteger>(_ array: inout [T], at key: Int64, to value: T) {
        let index = Int(key)
        if index >= array.count { grow(&array, to: index + 1) }
        array[index] = value
    }

    /// Grows `array` with zeros to at least `count` elements: into the capacity reserved when it suffices,
    /// else doubling so that appends stay amortised O(1).
    private static func grow<T: FixedWidthInteger>(_ array: inout [T], to count: Int) {
        let target = count <= array.capacity ? array.capacity : max(count, array.count * 2)
        array += repeatElement(0, count: target - array.count)
    }
}
