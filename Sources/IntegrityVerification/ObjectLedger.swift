import Foundation

/// What the object comparisons of one verification found that the checks after them build on, shared by the
/// verification's two runs: the comparisons run on either thread, key range by key range, and the checks that
/// read the ledger run after all of them have finished (see ``SharedChecks``).
final class ObjectLedger: @unchecked Sendable {
    // @unchecked Sendable is sound: every stored property is only touched under `lock`.

    /// What one comparison of objects by key found.
    struct Comparison {
        /// The destination entity compared.
        var entity: String
        /// Destination objects found for their source objects; nil when that could not be told.
        var matched: Int64?
        /// Of those, the objects with a required attribute or to-one unset; nil when not counted.
        var unset: Int64?
        /// The to-one relationships of `entity` whose edges the comparison checked with its rows.
        var edges: [String] = []
        /// Whether the comparison looked at every row it was given (it may stop early, or fail).
        var complete = false
        /// Source rows the comparison read (every row of its source entity in its range of keys); nil when
        /// not counted.
        var sourceRows: Int64?
    }

    private let lock = NSLock()
    private var keptKeys: [String: String] = [:]
    /// Per destination table: objects found for source objects, over every comparison into it; nil once one
    /// could not tell.
    private var matched: [String: Int64?] = [:]
    /// Per destination entity: objects with a required value unset, over every comparison into it; nil once
    /// one did not count them.
    private var unset: [String: Int64?] = [:]
    /// `Entity.relationship` of the to-one relationships whose edges a comparison checked with its rows.
    private var edges: Set<String> = []
    /// Destination entities a comparison into which did not look at every row it was given.
    private var incomplete: Set<String> = []
    /// Per destination table: whether the comparisons met every row of it (see ``metEveryRow(of:count:)``).
    private var metEvery: [String: Bool] = [:]
    /// Per source table, source entity and mapping (see ``recordSourceRows(_:table:entity:feeder:)``): the source
    /// rows its comparisons read; nil once one did not count them.
    private var sourceRows: [String: [String: [String: Int64?]]] = [:]

    /// Records `comparison`, made into `table`.
    func record(_ comparison: Comparison, table: String) {
        lock.withLock {
            let sofar = matched[table] ?? 0
            matched.updateValue(sofar.flatMap { total in comparison.matched.map { total + $0 } }, forKey: table)
            let unsetSoFar = unset[comparison.entity] ?? 0
            unset.updateValue(
                unsetSoFar.flatMap { total in comparison.unset.map { total + $0 } }, forKey: comparison.entity)
            for edge in comparison.edges { edges.insert("\(comparison.entity).\(edge)") }
            if !comparison.complete { incomplete.insert(comparison.entity) }
        }
    }

    /// Records the source rows that a comparison by one mapping, `feeder`, read from `table`, all of the concrete
    /// source entity `entity` in its range of keys. `feeder` is unique to the mapping among the verification's
    /// (a mapping's name is not: it is unique only within its mapping model).
    func recordSourceRows(_ rows: Int64?, table: String, entity: String, feeder: String) {
        lock.withLock {
            let sofar = sourceRows[table]?[entity]?[feeder] ?? 0
            sourceRows[table, default: [:]][entity, default: [:]].updateValue(
                sofar.flatMap { total in rows.map { total + $0 } }, forKey: feeder)
        }
    }

    /// Whether the comparisons read every row of the source table `table`: each of its source entities read
    /// whole by some mapping (every mapping of one entity reads the same rows, so they are counted once), and
    /// as many rows read as the table has, `count()`. Each row read has a concrete entity's `Z_ENT`.
    func readEveryRow(ofSource table: String, count: () throws -> Int64) rethrows -> Bool {
        try lock.withLock {
            guard let entities = sourceRows[table] else { return false }
            var total: Int64 = 0
            for byMapping in entities.values {
                let counts = Set(byMapping.values)
                guard counts.count == 1, let rows = counts.first ?? nil else { return false }
                total += rows
            }
            return try count() == total
        }
    }

    /// Records that `entity`'s objects have the primary keys of their source objects, from `sourceTable`.
    func keepsKeys(_ entity: String, from sourceTable: String) {
        lock.withLock { keptKeys[entity] = sourceTable }
    }

    /// The source table whose primary keys `entity`'s objects were found to have.
    func keptKeys(of entity: String) -> String? {
        lock.withLock { keptKeys[entity] }
    }

    /// Whether the edges of `entity`'s `relationship` were checked with the rows of every comparison into it.
    func edgesChecked(of entity: String, _ relationship: String) -> Bool {
        lock.withLock { edges.contains("\(entity).\(relationship)") && !incomplete.contains(entity) }
    }

    /// Whether the comparisons met every row of `table`: as many objects were found for source objects as the
    /// table has rows, `count()` (asked once, by the first to want to know). Each one found has the entity
    /// number of a concrete entity of the table, so then no row has another.
    func metEveryRow(of table: String, count: () throws -> Int64) rethrows -> Bool {
        try lock.withLock {
            if let known = metEvery[table] { return known }
            guard let found = matched[table] ?? nil else { return false }
            let every = try count() == found
            metEvery[table] = every
            return every
        }
    }

    /// How many objects of `entity` the comparisons found with a required value unset; nil when they did not
    /// count them all.
    func unset(of entity: String) -> Int64? {
        lock.withLock { unset[entity] ?? nil }
    }
}
