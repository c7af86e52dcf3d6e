import MappingModel

/// The source ↔ destination associations of one entity mapping, in both directions.
///
/// Core Data keeps these in dictionaries of managed objects; here they are dense arrays indexed by primary
/// key (8 bytes an object, each way). One source object may have several destination objects; the extra
/// ones go to a small side table.
final class AssociationTable {
    /// The entity mapping's name.
    let mapping: String
    /// The source entity number.
    let sourceEntity: Int32
    /// The destination entity number of the objects the mapping creates by default.
    let destinationEntity: Int32

    private var forward: [Int64] = []  // source pk → first destination pk, 0 for none
    private var forwardEntity: [Int32] = []  // used only when a destination is not of `destinationEntity`
    private var extra: [Int64: [ObjectID]] = [:]
    private var reverse: [Int64] = []  // destination pk → source pk, 0 for none
    private(set) var count = 0

    init(mapping: String, sourceEntity: Int32, destinationEntity: Int32) {
        self.mapping = mapping
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
    }

    /// Records that `destination` was made from the source object with primary key `source`.
    func associate(source: Int64, destination: ObjectID) {
        count += 1
        Self.set(&reverse, at: destination.primaryKey, to: source)
        let index = Int(source)
        if index < forward.count, forward[index] != 0 {
            extra[source, default: []].append(destination)
            return
        }
        Self.set(&forward, at: source, to: destination.primaryKey)
        if destination.entity != destinationEntity {
            if forwardEntity.count < forward.count {
                forwardEntity += Array(repeating: 0, count: forward.count - forwardEntity.count)
            }
            forwardEntity[index] = destination.entity
        }
    }

    /// The destination objects made from source object `source`, in the order they were made.
    func destinations(ofSource source: Int64) -> [ObjectID] {
        guard let first = firstDestination(ofSource: source) else { return [] }
        guard let more = extra[source] else { return [first] }
        return [first] + more
    }

    /// The first destination object made from source object `source`.
    func firstDestination(ofSource source: Int64) -> ObjectID? {
        let index = Int(source)
        guard index >= 0, index < forward.count, forward[index] != 0 else { return nil }
        let entity = index < forwardEntity.count && forwardEntity[index] != 0 ? forwardEntity[index] : destinationEntity
        return ObjectID(side: .destination, entity: entity, primaryKey: forward[index])
    }

    /// The primary key of the source object that destination primary key `destination` was made from.
    func source(ofDestination destination: Int64) -> Int64? {
        let index = Int(destination)
        guard index >= 0, index < reverse.count, reverse[index] != 0 else { return nil }
        return reverse[index]
    }

    /// Bytes held, for the report.
    var footprint: Int {
        (forward.capacity + reverse.capacity) * 8 + forwardEntity.capacity * 4 + extra.count * 64
    }

    private static func set(_ array: inout [Int64], at key: Int64, to value: Int64) {
        let index = Int(key)
        precondition(index >= 0, "primary keys are positive")
        if index >= array.count {
            array.reserveCapacity(max(index + 1, array.count * 2))
            array += Array(repeating: 0, count: index + 1 - array.count)
        }
        array[index] = value
    }
}
