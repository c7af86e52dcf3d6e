import Foundation
public import ObjectModel
import PersistentStore
import SQLiteDatabase

/// The shape of a store — how many objects, how values and fan-outs are distributed — read from the store
/// itself, with no stored value kept: what `migration-bench shape` writes as a dataset file.
///
/// The store is opened read-only, its `-wal` (if any) read but never written or folded in, and the `-shm` that
/// reading a WAL-mode store makes is removed again: its folder is left byte for byte as it was.
///
/// The measurements (``attributes``, ``fanOuts``) are exact; ``dataset(seed:)`` makes them a dataset file's
/// entries, rounding the quantiles of numbers (``roundedForPrivacy(_:)``).
public struct StoreShape: Sendable {
    /// What was measured of one attribute, over the objects of its entity and subentities.
    public struct AttributeMeasure: Sendable {
        /// Objects that have the attribute (rows of the entity and its subentities).
        public var objects = 0
        /// Objects whose value is not nil.
        public var values = 0
        /// The numbers, sorted (number and date attributes).
        public var numbers: [Double]?
        /// The lengths of the strings (characters) or binary values (bytes), sorted.
        public var lengths: [Double]?
        /// The number of different non-nil values.
        public var distinct = 0
        /// Objects per value, for booleans and small integer enumerations.
        public var counts: [String: Int]?

        /// The share of objects whose value is nil.
        public var nullRatio: Double { objects == 0 ? 0 : Double(objects - values) / Double(objects) }
    }

    /// The model version the store is at.
    public let version: ModelVersion
    /// Objects per concrete entity (an entity's own rows, not its subentities').
    public let objects: [String: Int]
    /// Per attribute, keyed `Entity.attribute` by the entity that declares it.
    public let attributes: [String: AttributeMeasure]
    /// Per to-one relationship: the share of objects that have a destination.
    public let fills: [String: Double]
    /// Per many-to-many relationship: the share of destination objects that more than one source object holds.
    public let shared: [String: Double]
    /// Per ordered to-many relationship with at least one pair of destinations: the share of consecutive
    /// destination objects, in the relationship's order, whose primary keys ascend (``FanOutShape/inKeyOrder``).
    public let inKeyOrder: [String: Double]
    /// Per to-many relationship: every source object's number of destination objects, in primary-key order:
    /// the one measurement that both the fan-out (``fanOuts``) and ``FanOutShape/byKey`` are told from.
    public let countsInKeyOrder: [String: [Int]]

    /// Per to-many relationship: every source object's number of destination objects, sorted.
    public var fanOuts: [String: [Int]] { countsInKeyOrder.mapValues { $0.sorted() } }

    /// All objects of the store.
    public var totalObjects: Int { objects.values.reduce(0, +) }

    /// Reads the shape of the store at `path`, whose version is found in `history` by its entity hashes.
    ///
    /// - Throws: ``GenerationError`` naming the store when it is not a store or fits no version of the model.
    public static func read(path: String, history: ModelHistory) throws(GenerationError) -> StoreShape {
        do {
            return try WriteAheadLog.leavingNoSidecars(of: [path]) {
                let metadata = try Store.metadata(at: path)
                guard let version = history.version(matching: metadata.versionHashes) else {
                    let closest = history.versions.map { ($0.name, metadata.mismatchedEntities(against: $0)) }
                        .min { $0.1.count < $1.1.count }
                    throw GenerationError(
                        "\(path): the store fits no version of the model (its entity hashes match none; closest: "
                            + "'\(closest?.0 ?? "")', entities that differ: "
                            + "\(closest?.1.joined(separator: ", ") ?? ""))")
                }
                let store = try Store.open(at: path, version: version, readOnly: true)
                return try StoreShapeReader(store: store).read()
            }
        } catch let error as GenerationError {
            throw error
        } catch let error as StoreError {
            throw GenerationError(error.description)
        } catch {
            throw GenerationError("\(path): cannot read the store: \(error)")
        }
    }

    init(
        version: ModelVersion, objects: [String: Int], attributes: [String: AttributeMeasure],
        fills: [String: Double], shared: [String: Double], inKeyOrder: [String: Double],
        countsInKeyOrder: [String: [Int]]
    ) {
        self.version = version
        self.objects = objects
        self.attributes = attributes
        self.fills = fills
        self.shared = shared
        self.inKeyOrder = inKeyOrder
        self.countsInKeyOrder = countsInKeyOrder
    }

    /// The objects of `entity` and its subentities.
    private func hierarchyObjects(_ entity: String) -> Int {
        version.hierarchy(of: entity).reduce(0) { $0 + (objects[$1] ?? 0) }
    }

    /// The shape as a dataset: generated with `--size` ``totalObjects`` at ``version``, it gives a store of the
    /// same counts and distributions; at ten times the size, ten times the counts and the same distributions.
    public func dataset(seed: UInt64 = 1) -> Dataset {
        var dataset = Dataset(seed: seed)
        let total = Double(max(totalObjects, 1))
        for entity in version.entities where !entity.isAbstract {
            dataset.objects[entity.name] = Double(objects[entity.name] ?? 0) / total
        }
        for (key, measure) in attributes where measure.objects > 0 {
            let (entityName, name) = Dataset.split(key)
            guard let attribute = version.attribute(name, of: entityName) else { continue }
            var fill = AttributeFill(nullRatio: attribute.isOptional ? measure.nullRatio : nil)
            var shape = AttributeShape()
            if let numbers = measure.numbers, !numbers.isEmpty {
                shape.quantiles = Quantiles(sorted: numbers, round: roundedForPrivacy)
            }
            if let lengths = measure.lengths, !lengths.isEmpty {
                shape.lengths = Quantiles(sorted: lengths) { ($0 * 10).rounded() / 10 }
            }
            if measure.values > 0 && measure.counts == nil {
                shape.distinctShare = Double(measure.distinct) / Double(measure.values)
            }
            if let counts = measure.counts, measure.values > 0 {
                shape.frequencies = counts.mapValues { Double($0) / Double(measure.values) }
            }
            fill.shape = shape
            dataset.attributes[key] = fill
        }
        for (key, fill) in fills { dataset.relationships[key] = RelationshipFill(fill: fill) }
        // A one-to-one's pairs are generated as min(objects of either side) × the lower fill: say each side's fill
        // over the smaller side, so that the pairs are the store's.
        for (key, fill) in fills {
            let (entity, name) = Dataset.split(key)
            guard let relationship = version.relationship(name, of: entity),
                let inverse = version.inverse(of: relationship), !inverse.isToMany,
                relationship.inverse != name || relationship.destination != entity
            else { continue }
            let mine = hierarchyObjects(entity)
            let smaller = min(mine, hierarchyObjects(relationship.destination))
            guard smaller > 0 else { continue }
            dataset.relationships[key]?.fill = min(fill * Double(mine) / Double(smaller), 1)
        }
        for (key, counts) in countsInKeyOrder where !counts.isEmpty {
            let sorted = counts.sorted().map(Double.init)
            let empty = Double(counts.count { $0 == 0 }) / Double(counts.count)
            let fanOut = Quantiles(sorted: sorted) { ($0 * 10).rounded() / 10 }
            let mean = (Double(counts.reduce(0, +)) / Double(counts.count) * 1000).rounded() / 1000
            dataset.relationships[key, default: RelationshipFill()].shape = FanOutShape(
                fanOut: fanOut, empty: empty, mean: mean, shared: shared[key],
                inKeyOrder: inKeyOrder[key].map { ($0 * 1000).rounded() / 1000 },
                byKey: KeyProfile.quantiles(countsInKeyOrder: counts))
        }
        return dataset
    }
}

/// Reads one open store's measurements, table by table, with SQL that returns counts and lengths, never values,
/// except numbers (for their quantiles) and the values of small integer enumerations (for their frequencies).
private struct StoreShapeReader {
    let store: Store
    var version: ModelVersion { store.version }
    var layout: StoreLayout { store.layout }
    var connection: Connection { store.connection }

    func read() throws -> StoreShape {
        let objects = try store.objectCounts().filter { version.entity(named: $0.key)?.isAbstract == false }
        var attributes: [String: StoreShape.AttributeMeasure] = [:]
        var fills: [String: Double] = [:]
        var shared: [String: Double] = [:]
        var inKeyOrder: [String: Double] = [:]
        var countsInKeyOrder: [String: [Int]] = [:]
        for entity in version.entities {
            let table = layout.table(for: entity.name)
            let range = layout.entityNumberRange(of: entity.name)
            let scope = "Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
            let rows = try count("SELECT COUNT(*) FROM \(quoted(table.name)) WHERE \(scope)")
            guard rows > 0 else { continue }
            // The entity's keys in order, read once for all of its to-many relationships and held in memory
            // while its relationships are read: 8 bytes a row of the entity.
            var keys: [Int64]?
            func keysInOrder() throws -> [Int64] {
                if let keys { return keys }
                var read: [Int64] = []
                read.reserveCapacity(rows)
                try connection.withStatement(
                    "SELECT Z_PK FROM \(quoted(table.name)) WHERE \(scope) ORDER BY Z_PK"
                ) { row in
                    while try row.step() { read.append(row.int64(0)) }
                }
                keys = read
                return read
            }
            for attribute in entity.attributes where !attribute.isTransient {
                guard let column = table.column(for: attribute.name, of: entity.name, version: version) else {
                    continue
                }
                attributes["\(entity.name).\(attribute.name)"] = try measure(
                    attribute, column: quoted(column.name), table: quoted(table.name), scope: scope, rows: rows)
            }
            for relationship in entity.relationships {
                let key = "\(entity.name).\(relationship.name)"
                switch layout.storage(of: relationship, in: entity.name) {
                case .foreignKey:
                    guard let column = table.column(for: relationship.name, of: entity.name, version: version) else {
                        continue
                    }
                    let filled = try count(
                        "SELECT COUNT(\(quoted(column.name))) FROM \(quoted(table.name)) WHERE \(scope)")
                    fills[key] = Double(filled) / Double(rows)
                case .inverseForeignKey:
                    guard let inverse = version.inverse(of: relationship) else { continue }
                    let children = layout.table(for: relationship.destination)
                    guard
                        let column = children.column(
                            for: inverse.name, of: relationship.destination, version: version)
                    else { continue }
                    let childRange = layout.entityNumberRange(of: relationship.destination)
                    let edges = """
                        \(quoted(children.name)) c JOIN \(quoted(table.name)) p ON p.Z_PK = c.\(quoted(column.name)) \
                        WHERE p.\(scope) AND c.Z_ENT BETWEEN \(childRange.lowerBound) AND \(childRange.upperBound)
                        """
                    countsInKeyOrder[key] = try counts(
                        "SELECT c.\(quoted(column.name)), COUNT(*) FROM \(edges) GROUP BY 1", of: keysInOrder())
                    if relationship.isOrdered,
                        let order = children.orderKeyColumn(
                            for: inverse.name, of: relationship.destination, version: version)
                    {
                        inKeyOrder[key] = try keyOrder(
                            list: "c.\(quoted(column.name))", order: "c.\(quoted(order.name))", target: "c.Z_PK",
                            from: edges)
                    }
                case .joinTable:
                    guard let join = layout.joinTable(for: relationship.name, of: entity.name) else { continue }
                    let source = quoted(join.sourceColumn(forRelationship: relationship.name, of: entity.name))
                    let target = quoted(join.targetColumn(forRelationship: relationship.name, of: entity.name))
                    let edges =
                        "\(quoted(join.name)) j JOIN \(quoted(table.name)) p ON p.Z_PK = j.\(source) WHERE p.\(scope)"
                    countsInKeyOrder[key] = try counts(
                        "SELECT j.\(source), COUNT(*) FROM \(edges) GROUP BY 1", of: keysInOrder())
                    if let order = join.orderColumn(forRelationship: relationship.name, of: entity.name) {
                        inKeyOrder[key] = try keyOrder(
                            list: "j.\(source)", order: "j.\(quoted(order))", target: "j.\(target)",
                            from: edges)
                    }
                    let targets = try objectCount(of: relationship.destination)
                    if targets > 0 {
                        let many = try count(
                            "SELECT COUNT(*) FROM (SELECT 1 FROM \(quoted(join.name)) GROUP BY \(target) "
                                + "HAVING COUNT(*) > 1)")
                        shared[key] = Double(many) / Double(targets)
                    }
                case .none:
                    continue
                }
            }
        }
        return StoreShape(
            version: version, objects: objects, attributes: attributes, fills: fills, shared: shared,
            inKeyOrder: inKeyOrder, countsInKeyOrder: countsInKeyOrder)
    }

    /// The share of consecutive targets, in each list's order, whose keys ascend; nil when no list holds two.
    /// `edges` is a FROM clause (with its WHERE) over the edges, `list` names an edge's list, `order` its place
    /// in the list and `target` its target's key.
    private func keyOrder(list: String, order: String, target: String, from edges: String) throws -> Double? {
        var pairs = 0
        var ascending = 0
        let sql = """
            SELECT COUNT(previous), COALESCE(SUM(key > previous), 0) FROM (SELECT \(target) AS key, \
            LAG(\(target)) OVER (PARTITION BY \(list) ORDER BY \(order), \(target)) AS previous FROM \(edges))
            """
        try connection.withStatement(sql) { row in
            if try row.step() {
                pairs = Int(row.int64(0))
                ascending = Int(row.int64(1))
            }
        }
        return pairs == 0 ? nil : Double(ascending) / Double(pairs)
    }

    private func measure(
        _ attribute: Attribute, column: String, table: String, scope: String, rows: Int
    ) throws -> StoreShape.AttributeMeasure {
        var measure = StoreShape.AttributeMeasure()
        measure.objects = rows
        let present = "FROM \(table) WHERE \(scope) AND \(column) IS NOT NULL"
        measure.values = try count("SELECT COUNT(*) \(present)")
        guard measure.values > 0 else { return measure }
        measure.distinct = try count("SELECT COUNT(DISTINCT \(column)) \(present)")
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .date:
            measure.numbers = try doubles("SELECT \(column) \(present)").sorted()
            if attribute.type.integerRange != nil, measure.distinct <= AttributeShape.enumerationLimit {
                var counts: [String: Int] = [:]
                try connection.withStatement("SELECT \(column), COUNT(*) \(present) GROUP BY 1") { row in
                    while try row.step() { counts[String(row.int64(0))] = Int(row.int64(1)) }
                }
                if counts.values.allSatisfy({ $0 >= AttributeShape.enumerationMinimum }) { measure.counts = counts }
            }
        case .boolean:
            let trues = try count("SELECT COUNT(*) \(present) AND \(column) != 0")
            measure.counts = ["true": trues, "false": measure.values - trues]
        case .string, .uri, .undefined, .binary, .transformable, .objectID:
            // length() counts characters of text and bytes of a blob.
            measure.lengths = try doubles("SELECT length(\(column)) \(present)").sorted()
        case .uuid:
            break
        }
        return measure
    }

    /// Each source object's count, in primary-key order, with the sources that have none as zeros: `sql` gives
    /// each source's key and count, `keys` are the source objects' keys in order.
    private func counts(_ sql: String, of keys: [Int64]) throws -> [Int] {
        var counts: [Int64: Int] = [:]
        try connection.withStatement(sql) { row in
            while try row.step() { counts[row.int64(0)] = Int(row.int64(1)) }
        }
        return keys.map { counts[$0] ?? 0 }
    }

    private func objectCount(of entity: String) throws -> Int {
        let range = layout.entityNumberRange(of: entity)
        return try count(
            "SELECT COUNT(*) FROM \(quoted(layout.table(for: entity).name)) "
                + "WHERE Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)")
    }

    private func count(_ sql: String) throws -> Int {
        Int(try connection.scalar(sql)?.int64 ?? 0)
    }

    private func doubles(_ sql: String) throws -> [Double] {
        var values: [Double] = []
        try connection.withStatement(sql) { row in
            while try row.step() { values.append(row.double(0)) }
        }
        return values
    }
}
