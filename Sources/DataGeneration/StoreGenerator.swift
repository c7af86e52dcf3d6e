import Foundation
import Instrumentation
public import ObjectModel
import PersistentStore
import SQLiteDatabase

/// What a generation produced.
public struct GenerationResult: Sendable, Hashable {
    /// The model version of the store.
    public let version: String
    /// The seed used.
    public let seed: UInt64
    /// Objects per entity (concrete entities only).
    public let objects: [String: Int]
    /// Edges per stored relationship, keyed `Entity.relationship` (see ``Store/edgeCounts()``).
    public let relationships: [String: Int]
    /// Wall-clock seconds, from creating the file to the last sync.
    public let seconds: Double

    /// All objects.
    public var totalObjects: Int { objects.values.reduce(0, +) }
}

/// Generates a synthetic store of any size at any model version, deterministically from a seed.
///
/// Every concrete entity gets `size × objects[entity]` objects (1 × size by default; abstract entities
/// none). Relationships follow the model: inverses agree, min/max counts hold, required ones are filled.
/// Rows are written in primary-key order through one reused prepared statement per entity, inside one
/// transaction; memory stays flat whatever the size.
///
/// ```swift
/// let generator = try StoreGenerator(version: history.currentVersion, dataset: Dataset(seed: 7), size: 100_000)
/// let result = try generator.generate(at: "/tmp/store.sqlite") { done, total in … }
/// ```
public struct StoreGenerator: Sendable {
    /// The model version to generate.
    public let version: ModelVersion
    /// The dataset description.
    public let dataset: Dataset
    /// The size that the dataset's multiples apply to.
    public let size: Int
    /// Objects per concrete entity.
    public let objectCounts: [String: Int]

    /// Checks `dataset` against `version` and works out the object counts.
    ///
    /// - Throws: ``GenerationError`` naming the entity or property that is unknown or cannot be satisfied.
    public init(version: ModelVersion, dataset: Dataset = Dataset(), size: Int) throws(GenerationError) {
        try dataset.check(against: version, size: size)
        var counts: [String: Int] = [:]
        for entity in version.entities where !entity.isAbstract {
            counts[entity.name] = Int((Double(size) * (dataset.objects[entity.name] ?? 1)).rounded())
        }
        do {
            try GenerationPlan.checkFeasibility(version: version, dataset: dataset, counts: counts)
        } catch let error as GenerationError {
            throw dataset.source.file.map { GenerationError("\($0): \(error.message)") } ?? error
        } catch {
            throw GenerationError("version '\(version.name)' cannot be stored: \(error)")
        }
        self.version = version
        self.dataset = dataset
        self.size = size
        self.objectCounts = counts
    }

    /// The number of objects the store will hold.
    public var totalObjects: Int { objectCounts.values.reduce(0, +) }

    /// Creates the store at `path` and fills it.
    ///
    /// - Parameter progress: called now and then with the objects written so far and the total.
    public func generate(at path: String, progress: ((Int, Int) -> Void)? = nil) throws -> GenerationResult {
        let clock = ContinuousClock()
        let start = clock.now
        let store = try Store.create(at: path, version: version, uuid: storeUUID)
        var finished = false
        defer { if !finished { Store.remove(at: path) } }
        let plan = try GenerationPlan(generator: self, store: store)
        let total = totalObjects
        var written = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: plan.bufferSize, alignment: 8)
        defer { buffer.deallocate() }

        try store.connection.transaction {
            for entity in plan.entityOrder {
                let rows = plan.entities[entity]!
                var random = RandomSource(seed: dataset.seed, stream: entity)
                for ordinal in 0..<rows.count {
                    let primaryKey = rows.firstPrimaryKey + Int64(ordinal)
                    try rows.inserter.begin(primaryKey: primaryKey)
                    for writer in rows.attributes {
                        try writer.write(
                            to: rows.inserter.statement, primaryKey: primaryKey, random: &random, buffer: buffer)
                    }
                    for toOne in rows.toOnes {
                        let statement = rows.inserter.statement
                        if let target = toOne.assignment.target(
                            forOrdinal: Int(primaryKey - toOne.sourceFirstPrimaryKey))
                        {
                            try statement.bind(target.primaryKey, at: toOne.parameter)
                            if let orderKey = toOne.orderKeyParameter {
                                try statement.bind(target.orderKey, at: orderKey)
                            }
                        } else {
                            try statement.bindNull(at: toOne.parameter)
                            if let orderKey = toOne.orderKeyParameter { try statement.bindNull(at: orderKey) }
                        }
                    }
                    try rows.inserter.insert()
                    for join in rows.joins {
                        try join.insertEdges(owner: primaryKey)
                    }
                    written += 1
                    if written & 0x3fff == 0 { progress?(written, total) }
                }
            }
        }
        try store.finishBulkLoad()
        let seconds = (clock.now - start).seconds
        finished = true
        progress?(total, total)
        return GenerationResult(
            version: version.name,
            seed: dataset.seed,
            objects: objectCounts,
            relationships: try store.edgeCounts(),
            seconds: seconds)
    }

    /// The store's UUID, derived from the seed so that the same seed gives the same store, metadata included.
    var storeUUID: UUID {
        var random = RandomSource(seed: dataset.seed, stream: "Z_UUID")
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}
