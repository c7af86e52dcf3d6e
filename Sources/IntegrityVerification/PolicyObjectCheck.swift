import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// The objects that a policy makes beside each migrated object (``BuiltInPolicy/splitAttributeIntoEntity`` and
/// ``BuiltInPolicy/findOrCreate``, or a Swift policy's ``PolicyDeclaration``), checked pair by pair as
/// ``VerificationRun`` steps through the migrated objects:
/// - one per object (split): an object with a value relates to exactly one new object holding that value (with
///   a new identifier, if asked), no two objects share one, and no new object is left unrelated;
/// - one per value (find or create): an object with a value relates to exactly one shared object whose key is
///   that value, no two shared objects have the same key, and none is left unrelated.
/// Objects without a value relate to nothing.
final class PolicyObjectCheck {
    private let run: VerificationRun
    private let policy: String
    private let shared: Bool
    private let owner: String
    private let relationship: String
    private let entity: String
    private let attribute: Attribute
    private let identifier: Attribute?
    private let slot: Int
    private let edges: String
    /// The edges of `relationship` from every entity of the owner's inheritance tree: a shared object made
    /// for a sports car is related, though no plain car relates to it.
    private let familyEdges: String
    private let lookup: Statement

    /// The check of `made` by `compiled`'s policy when it names usable properties; else nil, the objects of its
    /// `entity` listed as not checked.
    init?(_ compiled: CompiledEntityMapping, made: MadeObjects, owner: String, run: VerificationRun) throws {
        guard let sourceEntity = compiled.mapping.sourceEntity else { return nil }
        let policy = compiled.mapping.policy ?? ""
        let version = run.destination
        let layout = run.layout
        let entity = made.entity
        let relationshipName = made.relationship
        guard let relationship = version.relationship(relationshipName, of: owner),
            version.entity(named: entity) != nil,
            let attribute = version.attribute(made.attribute, of: entity),
            let slot = run.source.storedAttributes(of: sourceEntity)
                .firstIndex(where: { $0.name == made.sourceAttribute }),
            let edges = VerificationRun.edges(of: relationship, entity: owner, in: layout, schema: "main"),
            let column = layout.table(for: entity).column(for: attribute.name, of: entity, version: version)
        else {
            let what = compiled.mapping.declaration == nil ? "the settings" : "the declaration"
            let reason = "\(what) of policy \(policy) in \(compiled.name) name no usable properties"
            for kind in [ViolationKind.missingObject, .unexpectedObject, .attributeValue, .missingEdge] {
                run.collector.skip(kind, entity: entity, reason)
            }
            return nil
        }
        self.run = run
        self.policy = policy
        self.shared = made.rule == .onePerValue
        self.owner = owner
        self.relationship = relationshipName
        self.entity = entity
        self.attribute = attribute
        self.slot = slot
        self.edges = edges
        let family = version.hierarchy(of: version.root(of: owner)).compactMap { member in
            version.relationship(relationshipName, of: member).flatMap {
                VerificationRun.edges(of: $0, entity: member, in: layout, schema: "main")
            }
        }
        familyEdges = family.isEmpty ? edges : family.joined(separator: " UNION ALL ")
        let table = layout.table(for: entity)
        identifier = shared ? nil : made.identifierAttribute.flatMap { version.attribute($0, of: entity) }
        let identifierColumn =
            identifier.flatMap { table.column(for: $0.name, of: entity, version: version) }.map {
                "t.\(quoted($0.name))"
            }
            ?? "NULL"
        lookup = try run.connection.prepare(
            "SELECT e.b, t.Z_PK, t.\(quoted(column.name)), \(identifierColumn) FROM (\(edges)) e "
                + "LEFT JOIN main.\(quoted(table.name)) t ON t.Z_PK = e.b AND t.Z_ENT BETWEEN "
                + "\(VerificationRun.range(entity, in: layout)) WHERE e.a = ?1 ORDER BY e.b")
    }

    /// Checks what the policy made for the source object under `source`, migrated as destination object `key`.
    func check(source: SourceRowContext, destination key: Int64) throws {
        let value = source.sourceValue(slot: slot)
        lookup.reset()
        try lookup.bind(key, at: 1)
        var related: [(key: Int64, exists: Bool, value: SQLiteValue, identifier: SQLiteValue)] = []
        while try lookup.step() {
            related.append((lookup.int64(0), !lookup.isNull(1), lookup.value(2), lookup.value(3)))
        }
        let collector = run.collector
        guard !value.isNull else {
            for edge in related {
                collector.add(
                    .unexpectedEdge, entity: owner, property: relationship, primaryKey: key,
                    "relates to \(entity) \(edge.key), but its source object has no value to \(policy)")
            }
            return
        }
        guard let expected = StoredValue.expected(value, as: attribute.type) else {
            collector.add(
                .attributeValue, entity: entity, property: attribute.name, primaryKey: nil,
                "the value of \(owner) \(key)'s source object cannot be stored as \(attribute.type.rawValue)")
            return
        }
        if related.isEmpty {
            collector.add(
                .missingEdge, entity: owner, property: relationship, primaryKey: key,
                "relates to no \(entity) holding \(StoredValue.describe(expected))")
        } else if related.count > 1 {
            collector.add(
                .unexpectedEdge, entity: owner, property: relationship, primaryKey: key,
                "relates to \(related.count) \(entity) objects, not one")
        }
        for edge in related where edge.exists {
            if !StoredValue.matches(edge.value, expected, type: attribute.type) && shared {
                // The shared objects' keys are checked unique below: a wrong key means the wrong object.
                collector.add(
                    .unexpectedEdge, entity: owner, property: relationship, primaryKey: key,
                    "relates to \(entity) \(edge.key), whose \(attribute.name) is \(StoredValue.describe(edge.value)), "
                        + "not \(StoredValue.describe(expected))")
            } else if !StoredValue.matches(edge.value, expected, type: attribute.type) {
                collector.add(
                    .attributeValue, entity: entity, property: attribute.name, primaryKey: edge.key,
                    "expected \(StoredValue.describe(expected)) (from \(owner) \(key)), "
                        + "found \(StoredValue.describe(edge.value))")
            }
            if let identifier, !StoredValue.isIdentifier(edge.identifier, type: identifier.type) {
                collector.add(
                    .attributeValue, entity: entity, property: identifier.name, primaryKey: edge.key,
                    "expected a new identifier, found \(StoredValue.describe(edge.identifier))")
            }
        }
    }

    /// After the last pair: no object of `entity` is unrelated, shared by two objects (split) or a duplicate
    /// of another's key (find or create); new identifiers are unique.
    func finish() throws {
        let layout = run.layout
        let table = layout.table(for: entity)
        let number = layout.entityNumbers[entity]!
        let collector = run.collector
        try run.forEachRow(
            "SELECT Z_PK FROM main.\(quoted(table.name)) WHERE Z_ENT = \(number) "
                + "AND Z_PK NOT IN (SELECT b FROM (\(familyEdges))) ORDER BY 1"
        ) { row in
            collector.add(
                .unexpectedObject, entity: entity, primaryKey: row.int64(0),
                "no \(owner) object relates to it through \(relationship)")
        }
        var groups = [(attribute.name, "share one value of \(attribute.name)")]
        if !shared {
            try run.forEachRow("SELECT b, COUNT(*) FROM (\(edges)) GROUP BY b HAVING COUNT(*) > 1 ORDER BY 1") { row in
                collector.add(
                    .unexpectedEdge, entity: owner, property: relationship, primaryKey: nil,
                    "\(row.int64(1)) \(owner) objects share \(entity) \(row.int64(0))")
            }
            groups = identifier.map { [($0.name, "share one new identifier")] } ?? []
        }
        for (name, what) in groups {
            guard let column = table.column(for: name, of: entity, version: run.destination)?.name else { continue }
            let sql =
                "SELECT MIN(Z_PK), COUNT(*) FROM main.\(quoted(table.name)) WHERE Z_ENT = \(number) "
                + "AND \(quoted(column)) IS NOT NULL GROUP BY \(quoted(column)) HAVING COUNT(*) > 1 ORDER BY 1"
            try run.forEachRow(sql) { row in
                let kind: ViolationKind = shared ? .unexpectedObject : .attributeValue
                collector.add(
                    kind, entity: entity, property: shared ? nil : name, primaryKey: row.int64(0),
                    "\(row.int64(1)) \(entity) objects \(what)")
            }
        }
    }
}
