import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Stage 3: the destination objects against the destination model's rules — required attributes and
/// relationships, min/max counts of to-many relationships, uniqueness constraints — checked in SQL.
///
/// Reports every broken rule (with a count and the first primary keys), not just the first.
struct DestinationValidation {
    let store: Store
    let entities: [String]

    /// Checks the rules; `relationships` also the relationships' counts (once every pass has written its edges).
    ///
    /// With `buildingUniqueIndexes` (the last pass: no row is written after it), each uniqueness constraint is
    /// proved by building its unique index, which the finished store has anyway (``Store/finishBulkLoad()``
    /// then finds it built) — a sort once, where a `GROUP BY` was a second sort (64 M instructions of the
    /// primary-key-adoption step at 10,000 objects). Only if an index refuses a duplicate are the duplicates
    /// looked for with `GROUP BY`, over the table alone (`NOT INDEXED`): the destination journals nothing, so
    /// the failed index is left half built, and the store is removed with the error.
    func check(relationships: Bool, buildingUniqueIndexes: Bool = false) throws {
        var problems: [String] = []
        var constraints: [(entity: String, properties: [String])] = []
        let version = store.version
        let layout = store.layout
        for entity in entities where version.entity(named: entity)?.isAbstract == false {
            let table = layout.table(for: entity)
            let number = layout.entityNumbers[entity]!
            // Rules about one row at a time: one scan tells whether any is broken (a WHERE clause, which SQLite
            // tests with jumps, costs a quarter less per row than sums of every rule); only then is each rule
            // looked at closely.
            var rules: [(rule: String, condition: String)] = []
            for attribute in version.attributes(of: entity) where !attribute.isOptional && !attribute.isTransient {
                guard let column = table.column(for: attribute.name, of: entity, version: version) else { continue }
                rules.append(("\(entity).\(attribute.name) is required but nil", "\(quoted(column.name)) IS NULL"))
            }
            if relationships {
                for relationship in version.relationships(of: entity) where !relationship.isTransient {
                    // A to-many is never nil: a required one with minimum 0 may be empty, as in Core Data.
                    let minimum =
                        relationship.isToMany
                        ? relationship.minCount : max(relationship.minCount, relationship.isOptional ? 0 : 1)
                    guard let count = countExpression(relationship, of: entity) else { continue }
                    if minimum > 0 {
                        // An optional relationship may be empty; its minimum counts only when it has objects.
                        let condition =
                            relationship.isOptional
                            ? "(\(count)) > 0 AND (\(count)) < \(minimum)" : "(\(count)) < \(minimum)"
                        rules.append(("\(entity).\(relationship.name) needs at least \(minimum)", condition))
                    }
                    if relationship.isToMany && relationship.maxCount > 0 {
                        rules.append(
                            (
                                "\(entity).\(relationship.name) allows at most \(relationship.maxCount)",
                                "(\(count)) > \(relationship.maxCount)"
                            ))
                    }
                }
            }
            // A table of this entity alone holds only rows the engine wrote with its number: reading Z_ENT
            // again costs a column per row (14 M instructions of the library step at 100,000 objects).
            let ownRows = table.holdsOneEntity ? "" : "Z_ENT = \(number) AND "
            let rows = "FROM \(quoted(table.name)) WHERE \(ownRows)"
            let anyBroken = rules.map { "(\($0.condition))" }.joined(separator: " OR ")
            if !rules.isEmpty,
                try store.connection.scalar("SELECT EXISTS (SELECT 1 \(rows)(\(anyBroken)))")?.int64 == 1
            {
                for rule in rules {
                    try collect(&problems, rule.rule, "SELECT Z_PK \(rows)(\(rule.condition))")
                }
            }
            for constraint in version.entity(named: entity)?.uniquenessConstraints ?? [] {
                constraints.append((entity, constraint))
            }
        }
        // After every other rule: once an index has failed, only the tables themselves are read.
        var indexFailed = !buildingUniqueIndexes
        for (entity, constraint) in constraints {
            var refusal: SQLiteError?
            if !indexFailed, let statement = layout.uniquenessIndexStatement(of: entity, constraint: constraint) {
                refusal = try refusedIndex(statement)
                if refusal == nil { continue }
                indexFailed = true
            }
            let found = problems.count
            try collectDuplicates(&problems, entity, constraint)
            // The index spans its whole table: a duplicate among other entities' rows sharing the column is no
            // duplicate of `entity`'s, yet the index (the finished store's, too) cannot be built.
            if let refusal, problems.count == found { throw refusal }
        }
        if !problems.isEmpty {
            throw MigrationError(
                .validation, "the destination breaks its model's rules:\n" + problems.joined(separator: "\n"))
        }
    }

    /// SQL for the number of destination objects of `relationship`, per row of `entity`'s table.
    private func countExpression(_ relationship: Relationship, of entity: String) -> String? {
        let layout = store.layout
        let version = store.version
        let table = layout.table(for: entity)
        switch layout.storage(of: relationship, in: entity) {
        case .foreignKey:
            let column = table.column(for: relationship.name, of: entity, version: version)!
            return "\(quoted(column.name)) IS NOT NULL"
        case .inverseForeignKey:
            let inverse = version.inverse(of: relationship)!
            let other = layout.table(for: relationship.destination)
            let column = other.column(for: inverse.name, of: relationship.destination, version: version)!
            return
                "SELECT COUNT(*) FROM \(quoted(other.name)) c WHERE c.\(quoted(column.name)) = \(quoted(table.name)).Z_PK"
        case .joinTable:
            let join = layout.joinTable(for: relationship.name, of: entity)!
            let column = join.sourceColumn(forRelationship: relationship.name, of: entity)
            return "SELECT COUNT(*) FROM \(quoted(join.name)) j WHERE j.\(quoted(column)) = \(quoted(table.name)).Z_PK"
        case .none:
            return nil
        }
    }

    /// Builds a unique index: nil when built, the error when a duplicate refused it.
    private func refusedIndex(_ statement: String) throws(SQLiteError) -> SQLiteError? {
        do {
            try store.connection.execute(statement)
            return nil
        } catch {
            guard ResultCode.constraint ~= error.code else { throw error }
            return error
        }
    }

    /// Adds the objects of `entity` sharing the values of `constraint` with an object of a lower key.
    private func collectDuplicates(_ problems: inout [String], _ entity: String, _ constraint: [String]) throws {
        let layout = store.layout
        let table = layout.table(for: entity)
        let columns = constraint.compactMap { table.column(for: $0, of: entity, version: store.version)?.name }
        guard columns.count == constraint.count else { return }
        let range = layout.entityNumberRange(of: entity)
        let kinds = table.holdsOneEntity ? "1" : "Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        try collect(
            &problems, "\(entity) (\(constraint.joined(separator: ", "))) must be unique",
            "SELECT MIN(Z_PK) FROM \(quoted(table.name)) NOT INDEXED WHERE \(kinds)"
                + "\(columns.map { " AND \(quoted($0)) IS NOT NULL" }.joined()) GROUP BY \(columns.map(quoted).joined(separator: ", ")) HAVING COUNT(*) > 1"
        )
    }

    private func collect(_ problems: inout [String], _ rule: String, _ sql: String) throws {
        let keys = try store.connection.rows(sql).compactMap { $0.first?.int64 }
        guard !keys.isEmpty else { return }
        let examples = keys.prefix(5).map(String.init).joined(separator: ", ")
        let more = keys.count > 5 ? ", …" : ""
        problems.append("  \(rule): \(keys.count) object\(keys.count == 1 ? "" : "s") (Z_PK \(examples)\(more))")
    }
}
