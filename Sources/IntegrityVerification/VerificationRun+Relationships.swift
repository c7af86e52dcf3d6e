import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// `SELECT a, b, o`: the edges of `relationship` owned by objects of exactly `entity` (owner `a`, target
    /// `b`, order key `o`) in the store of `layout`, whose tables live in `schema`; nil when it is not stored.
    /// Ordered by `a, b`, it reads an index (or the table itself) in order, with no sort.
    static func edges(of relationship: Relationship, entity: String, in layout: StoreLayout, schema: String) -> String?
    {
        let version = layout.version
        let table = layout.table(for: entity)
        let number = layout.entityNumbers[entity]!
        // Joining the owner's table to keep to `entity` is needed only when the table holds other entities.
        let ownerOnly = table.holdsOneEntity
        switch layout.storage(of: relationship, in: entity) {
        case .none: return nil
        case .foreignKey:
            guard let column = table.column(for: relationship.name, of: entity, version: version) else { return nil }
            return "SELECT Z_PK AS a, \(quoted(column.name)) AS b, NULL AS o FROM \(schema).\(quoted(table.name)) "
                + "WHERE Z_ENT = \(number) AND \(quoted(column.name)) IS NOT NULL"
        case .inverseForeignKey:
            guard let inverse = version.inverse(of: relationship) else { return nil }
            let target = layout.table(for: relationship.destination)
            guard let column = target.column(for: inverse.name, of: relationship.destination, version: version) else {
                return nil
            }
            let order =
                target.orderKeyColumn(for: inverse.name, of: relationship.destination, version: version)
                .map { "x.\(quoted($0.name))" } ?? "NULL"
            var conditions = ["x.\(quoted(column.name)) IS NOT NULL"]
            if !tableHoldsOnly(relationship.destination, in: layout) {
                conditions.append("x.Z_ENT BETWEEN \(range(relationship.destination, in: layout))")
            }
            var from = "\(schema).\(quoted(target.name)) x"
            if !ownerOnly {
                from += " JOIN \(schema).\(quoted(table.name)) y ON y.Z_PK = x.\(quoted(column.name))"
                conditions.append("y.Z_ENT = \(number)")
            }
            return "SELECT x.\(quoted(column.name)) AS a, x.Z_PK AS b, \(order) AS o FROM \(from) "
                + "WHERE \(conditions.joined(separator: " AND "))"
        case .joinTable:
            guard let join = layout.joinTable(for: relationship.name, of: entity) else { return nil }
            let owner = join.sourceColumn(forRelationship: relationship.name, of: entity)
            let target = join.targetColumn(forRelationship: relationship.name, of: entity)
            let order =
                join.orderColumn(forRelationship: relationship.name, of: entity).map { "x.\(quoted($0))" } ?? "NULL"
            let select = "SELECT x.\(quoted(owner)) AS a, x.\(quoted(target)) AS b, \(order) AS o "
            if ownerOnly { return select + "FROM \(schema).\(quoted(join.name)) x" }
            return select + "FROM \(schema).\(quoted(join.name)) x JOIN \(schema).\(quoted(table.name)) y "
                + "ON y.Z_PK = x.\(quoted(owner)) WHERE y.Z_ENT = \(number)"
        }
    }

    /// The source relationship a relationship mapping copies, when its expression is one of the two
    /// `FUNCTION($manager, "destinationInstances…", "…", $source.<relationship>)` forms.
    static func copiedRelationship(_ expression: CompiledExpression) -> String? {
        guard case .relationshipCopy(let relationship, _) = expression.shape else { return nil }
        return relationship
    }

    /// Every source edge exists between the corresponding destination objects and no other edge does; ordered
    /// relationships keep their order; relationships that nothing sets are empty. Checked where the objects
    /// at both ends are known by their source keys; the edges a built-in policy sets are checked with its
    /// objects.
    func checkRelationshipEdges() {
        let policySet = policyRelationships()
        for entity in destination.entities where !entity.isAbstract {
            let name = entity.name
            let mapping: CompiledEntityMapping?
            switch correspondences[name] ?? .noObjects {
            case .sameKeys(let feeders) where feeders.count == 1: mapping = feeders[0]
            case .inOrder(let compiled): mapping = compiled
            case .madeByPolicy: mapping = nil
            case .noObjects: continue
            case .sameKeys, .counted, .unknown:
                collector.skip(.missingEdge, entity: name, "the objects of this entity are not paired one by one")
                continue
            }
            for relationship in destination.relationships(of: name) where !relationship.isTransient {
                if policySet.contains("\(name).\(relationship.name)") { continue }
                if let expression = mapping?.relationship(named: relationship.name)?.expression {
                    checkCopiedEdges(of: relationship, entity: name, mapping: mapping!, expression: expression)
                } else {
                    checkUnsetEdges(of: relationship, entity: name, policySet: policySet)
                }
            }
        }
    }

    /// `Entity.relationship` of both sides of every relationship a policy sets to the objects it makes.
    private func policyRelationships() -> Set<String> {
        var result: Set<String> = []
        for compiled in mappings {
            for made in compiled.mapping.madeObjects {
                guard let owner = compiled.mapping.destinationEntity,
                    let relationship = destination.relationship(made.relationship, of: owner)
                else { continue }
                for entity in destination.hierarchy(of: owner) { result.insert("\(entity).\(made.relationship)") }
                if let inverse = relationship.inverse {
                    for entity in destination.hierarchy(of: relationship.destination) {
                        result.insert("\(entity).\(inverse)")
                    }
                }
            }
        }
        return result
    }

    /// The expression the mappings of the objects at the other end give `relationship`'s inverse: copies
    /// first, then any other; nil when none does.
    private func inverseExpression(of relationship: Relationship) -> CompiledExpression? {
        guard let inverse = relationship.inverse else { return nil }
        let expressions = destination.hierarchy(of: relationship.destination).flatMap { entity in
            mappings(into: entity).compactMap { $0.relationship(named: inverse)?.expression }
        }
        return expressions.first { Self.copiedRelationship($0) != nil } ?? expressions.first
    }

    private func checkCopiedEdges(
        of relationship: Relationship,
        entity: String,
        mapping: CompiledEntityMapping,
        expression: CompiledExpression
    ) {
        if ledger.edgesChecked(of: entity, relationship.name) { return }
        guard let sourceEntity = mapping.mapping.sourceEntity,
            let sourceName = Self.copiedRelationship(expression),
            let sourceRelationship = source.relationship(sourceName, of: sourceEntity)
        else {
            collector.skip(
                .missingEdge, entity: entity, property: relationship.name,
                "the mapping's expression is not a copy of a source relationship")
            return
        }
        // Edges kept by the inverse's storage are checked there when its side copies too; only their order here.
        let checkedByInverse =
            isStoredByInverse(relationship, of: entity)
            && inverseExpression(of: relationship).map { Self.copiedRelationship($0) != nil } == true
        let ordered = relationship.isOrdered && sourceRelationship.isOrdered
        if checkedByInverse && !ordered { return }
        let targetTable = sourceLayout.table(for: sourceRelationship.destination).name
        let targetsKept = destination.hierarchy(of: relationship.destination).allSatisfy { target in
            if destination.entity(named: target)?.isAbstract == true || ledger.keptKeys(of: target) == targetTable {
                return true
            }
            if case .noObjects = correspondences[target] { return true }
            return false
        }
        guard ledger.keptKeys(of: entity) == sourceLayout.table(for: sourceEntity).name, targetsKept else {
            collector.skip(
                .missingEdge, entity: entity, property: relationship.name,
                "the objects at one end do not have their source objects' primary keys")
            return
        }
        guarded(.missingEdge, entity: entity, property: relationship.name) {
            try compareEdges(
                relationship, of: entity, with: sourceRelationship, of: sourceEntity, reportingEdges: !checkedByInverse)
        }
    }

    /// A relationship that no mapping and no policy sets has no edges. Checked from the side that stores
    /// them, once per relationship.
    private func checkUnsetEdges(of relationship: Relationship, entity: String, policySet: Set<String>) {
        if let inverse = relationship.inverse {
            if inverseExpression(of: relationship) != nil { return }
            if policySet.contains("\(relationship.destination).\(inverse)") { return }
            if isStoredByInverse(relationship, of: entity) { return }
        }
        let others = destination.hierarchy(of: relationship.destination).compactMap { target -> String? in
            if case .unknown(let reason) = correspondences[target] { return reason }
            return nil
        }
        if let reason = others.first {
            collector.skip(.unexpectedEdge, entity: entity, property: relationship.name, reason)
            return
        }
        guard let edges = Self.edges(of: relationship, entity: entity, in: layout, schema: "main") else { return }
        guarded(.unexpectedEdge, entity: entity, property: relationship.name) {
            try forEachRow("SELECT a, b FROM (\(edges)) ORDER BY a, b") { row in
                collector.add(
                    .unexpectedEdge, entity: entity, property: relationship.name, primaryKey: row.int64(0),
                    "edge \(row.int64(0)) → \(row.int64(1)), but no mapping sets \(entity).\(relationship.name)")
            }
        }
    }

    /// Whether `relationship`, copied from `sourceRelationship`, has a to-one inverse where the source had a
    /// to-many one or none (`User.memberships` now `User.membership`; `Author.books`, kept in a join table, now
    /// with `Book.author`): a narrowed inverse. An object at the other end, held by several in the source, holds
    /// one now, so one link per object at the other end is kept.
    func isNarrowed(_ relationship: Relationship, from sourceRelationship: Relationship) -> Bool {
        guard destination.inverse(of: relationship).map({ !$0.isToMany }) == true else { return false }
        return source.inverse(of: sourceRelationship)?.isToMany ?? true
    }

    /// Whether the edges of `relationship` are kept by its inverse's storage: a foreign key on the other
    /// side, or a join table named after the other side.
    private func isStoredByInverse(_ relationship: Relationship, of entity: String) -> Bool {
        guard let inverse = destination.inverse(of: relationship), !inverse.isTransient else { return false }
        switch layout.storage(of: relationship, in: entity) {
        case .inverseForeignKey: return true
        case .joinTable:
            return layout.joinTable(for: relationship.name, of: entity)?.isOwner(relationship.name, of: entity) == false
        default: return false
        }
    }

    /// One ordered merge of the source edges and the destination edges, both sorted by owner and target. A
    /// source edge missing from the destination counts only when both its ends were migrated.
    private func compareEdges(
        _ relationship: Relationship,
        of entity: String,
        with sourceRelationship: Relationship,
        of sourceEntity: String,
        reportingEdges: Bool
    ) throws {
        guard var theirs = Self.edges(of: sourceRelationship, entity: sourceEntity, in: sourceLayout, schema: "src"),
            let ours = Self.edges(of: relationship, entity: entity, in: layout, schema: "main")
        else { return }
        // A narrowed inverse: each object at the other end holds one, so, as the engine sets the links in key
        // order, the last of those that held it keeps it; the others lose their link.
        if isNarrowed(relationship, from: sourceRelationship) {
            theirs = "SELECT MAX(a) AS a, b FROM (\(theirs)) GROUP BY b"
        }
        let migrated = try MigratedEnds(relationship, of: entity, run: self)
        var differs = false
        var excused = false
        try connection.withStatement("SELECT a, b FROM (\(theirs)) ORDER BY a, b") { expected in
            try connection.withStatement("SELECT a, b FROM (\(ours)) ORDER BY a, b") { actual in
                var left = try expected.step() ? (expected.int64(0), expected.int64(1)) : nil
                var right = try actual.step() ? (actual.int64(0), actual.int64(1)) : nil
                while left != nil || right != nil {
                    if let edge = left, right.map({ edge < $0 }) ?? true {
                        if try migrated.contains(edge) {
                            differs = true
                            if reportingEdges {
                                collector.add(
                                    .missingEdge, entity: entity, property: relationship.name, primaryKey: edge.0,
                                    "edge \(edge.0) → \(edge.1) is missing")
                            }
                        } else {
                            excused = true
                        }
                        left = try expected.step() ? (expected.int64(0), expected.int64(1)) : nil
                    } else if let edge = right, left.map({ edge < $0 }) ?? true {
                        differs = true
                        if reportingEdges {
                            collector.add(
                                .unexpectedEdge, entity: entity, property: relationship.name, primaryKey: edge.0,
                                "edge \(edge.0) → \(edge.1) has no source")
                        }
                        right = try actual.step() ? (actual.int64(0), actual.int64(1)) : nil
                    } else {
                        left = try expected.step() ? (expected.int64(0), expected.int64(1)) : nil
                        right = try actual.step() ? (actual.int64(0), actual.int64(1)) : nil
                    }
                }
            }
        }
        guard relationship.isOrdered, sourceRelationship.isOrdered, !differs else { return }
        try compareOrder(
            relationship, of: entity, theirs: theirs, ours: ours, skipping: excused ? migrated : nil)
    }

    /// Both lists of every owner, read side by side in order: the n-th target must be the same. Source edges
    /// whose ends were not migrated (`skipping`) are passed over.
    private func compareOrder(
        _ relationship: Relationship,
        of entity: String,
        theirs: String,
        ours: String,
        skipping migrated: MigratedEnds?
    ) throws {
        try connection.withStatement("SELECT a, b FROM (\(theirs)) ORDER BY a, o, b") { expected in
            try connection.withStatement("SELECT a, b FROM (\(ours)) ORDER BY a, o, b") { actual in
                var owner: Int64?
                var position = 0
                while try actual.step() {
                    var edge: (Int64, Int64)
                    repeat {
                        guard try expected.step() else { return }
                        edge = (expected.int64(0), expected.int64(1))
                    } while try migrated.map({ try !$0.contains(edge) }) ?? false
                    guard edge.0 == actual.int64(0) else { return }
                    position = owner == edge.0 ? position + 1 : 1
                    owner = edge.0
                    if edge.1 != actual.int64(1) {
                        collector.add(
                            .edgeOrder, entity: entity, property: relationship.name, primaryKey: edge.0,
                            "\(edge.1) should be at position \(position), found \(actual.int64(1))")
                    }
                }
            }
        }
    }
}

/// Whether both ends of a source edge were migrated: its owner is an object of the relationship's entity and
/// its target one of the destination entity, in the destination store. Point look-ups, the last owner
/// remembered, since edges come sorted by owner.
private final class MigratedEnds {
    private let owner: Statement
    private let target: Statement
    private var lastOwner: (key: Int64, exists: Bool)?

    init(_ relationship: Relationship, of entity: String, run: VerificationRun) throws {
        let layout = run.layout
        owner = try run.connection.prepare(
            "SELECT 1 FROM main.\(quoted(layout.table(for: entity).name)) WHERE Z_PK = ?1 "
                + "AND Z_ENT = \(layout.entityNumbers[entity]!)")
        target = try run.connection.prepare(
            "SELECT 1 FROM main.\(quoted(layout.table(for: relationship.destination).name)) WHERE Z_PK = ?1 "
                + "AND Z_ENT BETWEEN \(VerificationRun.range(relationship.destination, in: layout))")
    }

    func contains(_ edge: (Int64, Int64)) throws -> Bool {
        if lastOwner?.key != edge.0 { lastOwner = (edge.0, try Self.exists(edge.0, owner)) }
        guard lastOwner?.exists == true else { return false }
        return try Self.exists(edge.1, target)
    }

    private static func exists(_ key: Int64, _ statement: Statement) throws -> Bool {
        statement.reset()
        try statement.bind(key, at: 1)
        return try statement.step()
    }
}
