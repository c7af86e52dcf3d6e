import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Everything the generation loop needs, worked out before the first row: primary-key ranges, value
/// writers per column, and one assignment per stored relationship.
struct GenerationPlan {
    struct ToOneColumn {
        let parameter: Int32
        let orderKeyParameter: Int32?
        let assignment: any ToOneAssignment
        /// The first primary key of the declaring entity's range, from which ordinals count.
        let sourceFirstPrimaryKey: Int64
    }

    struct EntityRows {
        let count: Int
        let firstPrimaryKey: Int64
        let inserter: RowInserter
        let attributes: [AttributeWriter]
        let toOnes: [ToOneColumn]
        let joins: [JoinAssignment]
    }

    /// Concrete entities with objects, in the order their rows are written (table by table, depth first).
    let entityOrder: [String]
    let entities: [String: EntityRows]
    let bufferSize: Int

    init(generator: StoreGenerator, store: Store) throws {
        let version = generator.version
        let dataset = generator.dataset
        let layout = store.layout
        let counts = generator.objectCounts

        let (firstKey, ranges, order) = Self.primaryKeyRanges(layout: layout, counts: counts)
        let joinSides = try layout.joinTables.map { join throws(GenerationError) in
            try JoinSide(table: join, version: version, dataset: dataset, ranges: ranges)
        }
        // The destinations of a shaped many-to-many are shared by the driving entity's subentities.
        var sharedTargets: [String: ShapedTargets] = [:]
        for side in joinSides {
            guard side.fanOut != nil, let targetFanOut = side.targetFanOut, side.targets.count > 0 else { continue }
            var random = RandomSource(seed: dataset.seed, stream: "\(side.key)/shape")
            let counts = side.shapedCounts(random: &random)
            var targetRandom = RandomSource(seed: dataset.seed, stream: "\(side.key)/targets")
            sharedTargets[side.table.name] = ShapedTargets(
                targets: side.targets, fanOut: targetFanOut, byKey: side.targetByKey, edges: counts.total,
                sources: side.sources.count, inKeyOrder: side.targetInKeyOrder, random: &targetRandom)
        }
        let assignments = try Self.toOneAssignments(version: version, dataset: dataset, ranges: ranges)
        var maxLength = 64
        var entities: [String: EntityRows] = [:]
        for entity in order {
            let inserter = try RowInserter(store: store, entity: entity)
            let lineage = [entity] + version.ancestors(of: entity)
            let unique = Set(
                lineage.flatMap { (version.entity(named: $0)?.uniquenessConstraints ?? []).flatMap { $0 } })
            var writers: [AttributeWriter] = []
            for attribute in version.storedAttributes(of: entity) {
                guard let parameter = inserter.parameter(for: attribute.name) else { continue }
                let owner = lineage.first { version.entity(named: $0)!.attributes.contains(attribute) } ?? entity
                let fill =
                    dataset.attributes["\(entity).\(attribute.name)"]
                    ?? dataset.attributes["\(owner).\(attribute.name)"]
                let isBinary = [.binary, .transformable].contains(attribute.type)
                let length = fill?.length ?? (isBinary ? dataset.binaryLength : dataset.stringLength)
                maxLength = max(maxLength, length.max + 48, Int(fill?.shape?.lengths?.values.last ?? 0) + 48)
                let nullRatio = attribute.isOptional ? (fill?.nullRatio ?? dataset.nullRatio) : 0
                var writer = AttributeWriter(
                    parameter: parameter,
                    type: attribute.type,
                    nullThreshold: UInt64(min(max(nullRatio, 0), 1) * 4_294_967_296),
                    length: length,
                    isUnique: unique.contains(attribute.name),
                    distinct: fill?.distinct ?? 0,
                    poolSalt: RandomSource(seed: dataset.seed, stream: "\(owner).\(attribute.name)").peek())
                if let shape = fill?.shape {
                    var random = RandomSource(seed: dataset.seed, stream: "\(entity).\(attribute.name)/shape")
                    writer.shaped = ShapedValues(
                        shape: shape, nullRatio: nullRatio, count: counts[entity]!, firstPrimaryKey: firstKey[entity]!,
                        random: &random)
                }
                writers.append(writer)
            }
            var toOnes: [ToOneColumn] = []
            for relationship in version.relationships(of: entity)
            where !relationship.isToMany && !relationship.isTransient {
                guard let parameter = inserter.parameter(for: relationship.name) else { continue }
                let owner = lineage.first { version.entity(named: $0)!.relationships.contains(relationship) } ?? entity
                guard let assignment = assignments["\(owner).\(relationship.name)"] else { continue }
                toOnes.append(
                    ToOneColumn(
                        parameter: parameter,
                        orderKeyParameter: inserter.orderKeyParameter(for: relationship.name),
                        assignment: assignment,
                        sourceFirstPrimaryKey: ranges[owner]!.firstPrimaryKey))
            }
            var joins: [JoinAssignment] = []
            for side in joinSides where version.entity(entity, isKindOf: side.drivingEntity) {
                let targets = sharedTargets[side.table.name]
                joins.append(
                    try JoinAssignment(
                        side: side, store: store, seed: dataset.seed, entity: entity, shapedTargets: targets))
            }
            entities[entity] = EntityRows(
                count: counts[entity]!, firstPrimaryKey: firstKey[entity]!, inserter: inserter,
                attributes: writers, toOnes: toOnes, joins: joins)
        }
        self.entityOrder = order
        self.entities = entities
        self.bufferSize = maxLength
    }

    /// Primary keys: contiguous per table, each entity's block after its parent's, so that every entity's
    /// whole hierarchy is one contiguous range. Also the order in which entities' rows are written.
    static func primaryKeyRanges(
        layout: StoreLayout,
        counts: [String: Int]
    ) -> (firstKey: [String: Int64], ranges: [String: ObjectRange], order: [String]) {
        let version = layout.version
        var firstKey: [String: Int64] = [:]
        var ranges: [String: ObjectRange] = [:]
        var order: [String] = []
        for table in layout.entityTables {
            var next: Int64 = 1
            for entity in table.entities {
                firstKey[entity] = next
                next += Int64(counts[entity] ?? 0)
                if (counts[entity] ?? 0) > 0 { order.append(entity) }
            }
            for entity in table.entities {
                let total = version.hierarchy(of: entity).reduce(0) { $0 + (counts[$1] ?? 0) }
                ranges[entity] = ObjectRange(firstPrimaryKey: firstKey[entity]!, count: total)
            }
        }
        return (firstKey, ranges, order)
    }

    /// Checks, before any file is written, that the dataset can be generated: every relationship's counts
    /// and fills fit the model and the object counts.
    static func checkFeasibility(version: ModelVersion, dataset: Dataset, counts: [String: Int]) throws {
        let layout = try StoreLayout(version: version)
        let (_, ranges, _) = primaryKeyRanges(layout: layout, counts: counts)
        _ = try toOneAssignments(version: version, dataset: dataset, ranges: ranges)
        for join in layout.joinTables {
            _ = try JoinSide(table: join, version: version, dataset: dataset, ranges: ranges)
        }
    }

    private static func toOneAssignments(
        version: ModelVersion,
        dataset: Dataset,
        ranges: [String: ObjectRange]
    ) throws -> [String: any ToOneAssignment] {
        var result: [String: any ToOneAssignment] = [:]
        for entity in version.entities {
            for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
                let key = "\(entity.name).\(relationship.name)"
                guard result[key] == nil else { continue }
                let sources = ranges[entity.name]!
                let targets = ranges[relationship.destination]!
                let required = !relationship.isOptional || relationship.minCount > 0
                let inverse = version.inverse(of: relationship)
                let inverseKey = relationship.inverse.map { "\(relationship.destination).\($0)" }
                let fill = try Self.fill(key: key, required: required, dataset: dataset)
                if required && sources.count > 0 && targets.count == 0 {
                    throw GenerationError("\(key) is required, but '\(relationship.destination)' gets no objects")
                }
                var random = RandomSource(seed: dataset.seed, stream: key)
                switch inverse {
                case nil:
                    result[key] = RandomToOne(
                        key: key, sources: sources.count, fill: fill, targets: targets, random: random)
                case let inverse? where inverse.isToMany:
                    var filled = targets.count == 0 ? 0 : Int((Double(sources.count) * fill).rounded(.down))
                    // A required to-many with minimum 0 may be empty, as in Core Data.
                    let minCount = inverse.minCount
                    let maxCount = inverse.maxCount
                    if maxCount > 0 && filled > targets.count * maxCount {
                        guard !required else {
                            throw GenerationError(
                                "\(key) is required, but \(sources.count) objects cannot share \(targets.count) "
                                    + "'\(relationship.destination)' objects of at most \(maxCount) each (\(inverseKey!))"
                            )
                        }
                        filled = targets.count * maxCount
                    }
                    if filled < targets.count * minCount {
                        throw GenerationError(
                            "\(inverseKey!) needs at least \(minCount) objects each, but only \(filled) '\(entity.name)' "
                                + "objects are available for \(targets.count) '\(relationship.destination)' objects")
                    }
                    if let shape = dataset.relationships[inverseKey!]?.shape {
                        result[key] = ShapedBlockToOne(
                            key: key, children: sources.count, filled: filled, parents: targets, fanOut: shape.fanOut,
                            minCount: minCount, maxCount: maxCount,
                            inKeyOrder: inverse.isOrdered ? shape.inKeyOrder : nil, byKey: shape.byKey,
                            random: &random)
                        continue
                    }
                    let average = targets.count == 0 ? 0 : Double(filled) / Double(targets.count)
                    let range =
                        dataset.relationships[inverseKey!]?.count
                        ?? IntRange(Int((average * 0.5).rounded(.down)), Int((average * 1.5).rounded(.up)))
                    result[key] = BlockToOne(
                        key: key, children: sources.count, filled: filled, parents: targets, range: range,
                        minCount: minCount, maxCount: maxCount, random: random)
                case _? where inverseKey == key:
                    // Its own inverse (a spouse): objects are paired with each other, both ways.
                    let paired = (Int((Double(sources.count) * fill).rounded(.down)) / 2) * 2
                    if required && paired < sources.count {
                        throw GenerationError(
                            "\(key) is its own required inverse, so '\(entity.name)' needs an even number of objects "
                                + "(it gets \(sources.count))")
                    }
                    result[key] = SelfPairing(key: key, objects: sources, paired: paired, random: &random)
                case let inverse?:
                    // One-to-one: both sides hold a foreign key; plan them together.
                    let otherKey = inverseKey!
                    let otherRequired = !inverse.isOptional || inverse.minCount > 0
                    let otherFill = try Self.fill(key: otherKey, required: otherRequired, dataset: dataset)
                    var pairs = Int((Double(min(sources.count, targets.count)) * min(fill, otherFill)).rounded(.down))
                    if required { pairs = sources.count }
                    if otherRequired { pairs = targets.count }
                    if pairs > min(sources.count, targets.count)
                        || (required && otherRequired && sources.count != targets.count)
                    {
                        throw GenerationError(
                            "the one-to-one \(key) ↔ \(otherKey) cannot pair \(sources.count) '\(entity.name)' objects "
                                + "with \(targets.count) '\(relationship.destination)' objects as the model requires")
                    }
                    let pairing = OneToOnePairing(first: sources, second: targets, pairs: pairs, random: &random)
                    result[key] = OneToOnePairing.Side(key: key, pairing: pairing, isFirst: true)
                    result[otherKey] = OneToOnePairing.Side(key: otherKey, pairing: pairing, isFirst: false)
                }
            }
        }
        return result
    }

    private static func fill(key: String, required: Bool, dataset: Dataset) throws(GenerationError) -> Double {
        let fill = dataset.relationships[key]?.fill ?? 1
        guard (0...1).contains(fill) else {
            throw GenerationError("dataset.relationships.\(key).fill must be between 0 and 1")
        }
        if required && fill < 1 {
            throw GenerationError("\(key) is required, so its fill must be 1 (the dataset says \(fill))")
        }
        return fill
    }
}

/// Which side of a join table drives its edges, and how many each driving object gets.
///
/// The owner side drives, unless the dataset gives a count range for the other side only: then that side
/// drives, so that the range holds for the objects it names.
struct JoinSide {
    let table: JoinTable
    let drivingEntity: String
    let key: String
    /// Whether the driving objects are the table's destination column (the inverse side).
    let reversed: Bool
    let targets: ObjectRange
    let range: IntRange
    /// The driving objects (the driving entity and its subentities).
    let sources: ObjectRange
    /// The measured fan-out of the driving side, which then replaces `range`.
    let fanOut: Quantiles?
    /// The measured mean of that fan-out, which the counts then add up to.
    let meanFanOut: Double?
    /// The measured fan-out of the other side, which then decides how the destinations are shared.
    let targetFanOut: Quantiles?
    /// Where in key order each side's edges are held (``FanOutShape/byKey``), when measured.
    let byKey: Quantiles?
    let targetByKey: Quantiles?
    /// For an ordered driving relationship with a measured order: the share of consecutive destinations, in each
    /// list's order, whose keys ascend (``FanOutShape/inKeyOrder``).
    let inKeyOrder: Double?
    /// The same for the other side's lists, when it is ordered too.
    let targetInKeyOrder: Double?
    /// The bounds of each driving object's count: the model's, and the destination objects there are.
    let minCount: Int
    let maxCount: Int

    /// The driving objects' counts from the measured fan-out (call only when there is one).
    func shapedCounts(random: inout RandomSource) -> ShapedFanOut {
        ShapedFanOut(
            fanOut: fanOut!, sources: sources.count,
            total: meanFanOut.map { Int(($0 * Double(sources.count)).rounded()) },
            lowest: minCount, highest: maxCount, byKey: byKey, random: &random)
    }

    init(
        table: JoinTable, version: ModelVersion, dataset: Dataset, ranges: [String: ObjectRange]
    ) throws(GenerationError) {
        let ownerKey = "\(table.ownerEntity).\(table.ownerRelationship)"
        let inverseKey = table.inverseRelationship.map { "\(table.inverseEntity).\($0)" }
        let drives = { (key: String) in
            dataset.relationships[key]?.count != nil || dataset.relationships[key]?.shape != nil
        }
        let reversed = !drives(ownerKey) && inverseKey.map(drives) == true
        let (entity, name, other) =
            reversed
            ? (table.inverseEntity, table.inverseRelationship!, table.ownerEntity)
            : (table.ownerEntity, table.ownerRelationship, table.inverseEntity)
        let key = "\(entity).\(name)"
        let relationship = version.relationship(name, of: entity)!
        let targets = ranges[other]!
        let minCount = relationship.minCount
        let maxCount = min(relationship.maxCount == 0 ? Int.max : relationship.maxCount, targets.count)
        if minCount > targets.count && (ranges[entity]?.count ?? 0) > 0 {
            throw GenerationError(
                "\(key) needs at least \(minCount) destinations, but '\(other)' has \(targets.count) objects")
        }
        let wanted = dataset.relationships[key]?.count ?? IntRange(1, 3)
        self.table = table
        self.drivingEntity = entity
        self.key = key
        self.reversed = reversed
        self.targets = targets
        self.range = IntRange(
            min(max(wanted.min, minCount), maxCount), min(max(wanted.max, minCount), maxCount))
        self.sources = ranges[entity]!
        self.fanOut = dataset.relationships[key]?.shape?.fanOut
        self.meanFanOut = dataset.relationships[key]?.shape?.mean
        let otherKey = reversed ? ownerKey : inverseKey
        self.targetFanOut = otherKey.flatMap { dataset.relationships[$0]?.shape?.fanOut }
        self.byKey = dataset.relationships[key]?.shape?.byKey
        self.inKeyOrder = relationship.isOrdered ? dataset.relationships[key]?.shape?.inKeyOrder : nil
        self.targetByKey = otherKey.flatMap { dataset.relationships[$0]?.shape?.byKey }
        let inverseName = reversed ? table.ownerRelationship : table.inverseRelationship
        self.targetInKeyOrder =
            inverseName.flatMap { version.relationship($0, of: other) }?.isOrdered == true
            ? otherKey.flatMap { dataset.relationships[$0]?.shape?.inKeyOrder } : nil
        self.minCount = min(minCount, maxCount)
        self.maxCount = maxCount
        // The other side's maximum holds too: a dataset count that gives every driving object at least
        // `range.min` objects of the other side must not give those more than their maximum count (it was
        // generated anyway).
        if dataset.relationships[key]?.count != nil, let inverseName,
            let inverse = version.relationship(inverseName, of: other), inverse.maxCount > 0
        {
            let driving = ranges[entity]?.count ?? 0
            if driving * range.min > targets.count * inverse.maxCount {
                let message =
                    "gives each of \(driving) '\(entity)' objects at least \(range.min) '\(other)' objects, more than "
                    + "\(targets.count) of them can take at the model's maximum count of \(inverse.maxCount) "
                    + "(\(other).\(inverseName))"
                throw dataset.error("relationships.\(key)", message)
            }
        }
    }
}

/// The edges of one join table, generated as each driving object is written.
final class JoinAssignment {
    private let side: JoinSide
    private let inserter: JoinRowInserter
    private var random: RandomSource
    /// With a measured fan-out: the counts, and (with the other side's) the destinations.
    private var shapedCounts: ShapedFanOut?
    private let shapedTargets: ShapedTargets?
    /// With a measured order of the driving side's lists: where each destination goes in its list.
    private var order: ListOrder?

    init(side: JoinSide, store: Store, seed: UInt64, entity: String, shapedTargets: ShapedTargets? = nil) throws {
        self.side = side
        self.inserter = try JoinRowInserter(store: store, table: side.table)
        // One stream per driving entity, so that sibling subentities do not draw the same sequence.
        self.random = RandomSource(seed: seed, stream: "\(side.key)/\(entity)")
        if side.fanOut != nil {
            // The same stream for every subentity: the counts are one draw over the whole driving range.
            var shapeRandom = RandomSource(seed: seed, stream: "\(side.key)/shape")
            shapedCounts = side.shapedCounts(random: &shapeRandom)
        }
        self.shapedTargets = shapedTargets
        if let share = side.inKeyOrder {
            order = ListOrder(
                inKeyOrder: share, random: RandomSource(seed: seed, stream: "\(side.key)/\(entity) order"))
        }
    }

    /// Inserts the edges of the driving object `object`: a count drawn from the range, to consecutive
    /// (hence distinct) objects of the other side from a random start.
    func insertEdges(owner object: Int64) throws {
        let targets = side.targets
        guard targets.count > 0 else { return }
        let count =
            shapedCounts != nil
            ? shapedCounts!.next(ordinal: Int(object - side.sources.firstPrimaryKey)) : random.within(side.range)
        guard count > 0 else { return }
        let start = random.below(targets.count)
        var others = shapedTargets?.pick(count) ?? (0..<count).map { (start + $0) % targets.count }
        // A measured order: the destinations in key order, each placed in the list as it says.
        var places = Array(1...count)
        if order != nil {
            others.sort()
            places = (1...count).map { order!.position(ofIndex: $0, in: count) }
        }
        for (ordinal, place) in zip(others, places) {
            let other = targets.primaryKey(ofOrdinal: ordinal)
            // In the other side's list: where its measured order says, else in key order (the sources' order).
            let placeThere = shapedTargets?.position(inListOf: ordinal) ?? object
            if side.reversed {
                try inserter.insert(owner: other, destination: object, orderKeys: (placeThere, Int64(place)))
            } else {
                try inserter.insert(owner: object, destination: other, orderKeys: (Int64(place), placeThere))
            }
        }
    }
}
