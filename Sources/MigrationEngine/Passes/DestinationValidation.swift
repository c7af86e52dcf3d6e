import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Stage 3: the destination objects against the destination model's rules — required attributes and
/// relationships, min/max counts of to-many relationships, uniqueness constraints — checked in SQL.
///
/// Reports every broken rule (with a count and the first primary keys), not just the first.
///
/// A rule that a column is not NULL need not be scanned for where stage 1 proved it (``RequiredValueWitness``).
struct DestinationValidation {
    let store: Store
    let entities: [String]
    /// What stage 1 proved of the required columns; nil: nothing.
    var witness: RequiredValueWitness? = nil

    /// The columns of `entity`'s table that its rules require not NULL, by property: its required stored
    /// attributes, and its required to-one relationships kept as a foreign key in the row.
    static func requiredColumns(of entity: String, in store: Store) -> [(property: String, column: String)] {
        let version = store.version
        let table = store.layout.table(for: entity)
        let attributes = version.attributes(of: entity).filter { !$0.isOptional && !$0.isTransient }.map(\.name)
        let relationships = version.relationships(of: entity).filter {
            !$0.isTransient && !$0.isToMany && !$0.isOptional && $0.minCount <= 1
                && store.layout.storage(of: $0, in: entity) == .foreignKey
        }
        return (attributes + relationships.map(\.name)).compactMap { property in
            table.column(for: property, of: entity, version: version).map { (property, $0.name) }
        }
    }

    /// Checks the rules; `relationships` also the relationships' counts (once every pass has written its edges).
    ///
    /// With `buildingUniqueIndexes` (the last pass: only the policies' `end` callbacks run after it, and a
    /// duplicate one of them writes fails at its write, against the built index), each uniqueness constraint is
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
        // Whether stage 1 tested every row the pass wrote for NULLs in required columns, and met none.
        let requiredColumnsHoldValues = witness?.provesNoRequiredNull == true
        for entity in entities where version.entity(named: entity)?.isAbstract == false {
            let table = layout.table(for: entity)
            let number = layout.entityNumbers[entity]!
            // Rules about one row at a time: one scan tells whether any is broken (a WHERE clause, which SQLite
            // tests with jumps, costs a quarter less per row than sums of every rule); only then is each rule
            // looked at closely. A rule that a column is not NULL is proved when stage 1 tested it.
            var rules: [(rule: String, condition: String, isProved: Bool)] = []
            let required = Dictionary(uniqueKeysWithValues: Self.requiredColumns(of: entity, in: store))
            for attribute in version.attributes(of: entity) where !attribute.isOptional && !attribute.isTransient {
                guard let column = required[attribute.name] else { continue }
                rules.append(
                    (
                        "\(entity).\(attribute.name) is required but nil", "\(quoted(column)) IS NULL",
                        requiredColumnsHoldValues
                    ))
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
                        // A required to-one kept in the row is its foreign key not NULL.
                        let isProved = !relationship.isOptional && required[relationship.name] != nil
                        rules.append(
                            (
                                "\(entity).\(relationship.name) needs at least \(minimum)", condition,
                                requiredColumnsHoldValues && isProved
                            ))
                    }
                    if relationship.isToMany && relationship.maxCount > 0 {
                        rules.append(
                            (
                                "\(entity).\(relationship.name) allows at most \(relationship.maxCount)",
                                "(\(count)) > \(relationship.maxCount)", false
                            ))
                    }
                }
            }
            // A table of this entity alone holds only rows the engine wrote with its number: reading Z_ENT
            // again costs a column per row (14 M instructions of the library step at 100,000 objects).
            let ownRows = table.holdsOneEntity ? "" : "Z_ENT = \(number) AND "
            let rows = "FROM \(quoted(table.name)) WHERE \(ownRows)"
            let anyBroken = rules.map { "(\($0.condition))" }.joined(separator: " OR ")
            if !rules.allSatisfy(\.isProved),
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
        // An index refused for duplicates that are not its entity's: the index spans its whole table, so a
        // duplicate among other entities' rows sharing the column is no duplicate of `entity`'s, yet the index
        // (the finished store's, too) cannot be built.
        var unexplainedRefusal: SQLiteError?
        for (entity, constraint) in constraints {
            var refusal: SQLiteError?
            if !indexFailed, let statement = layout.uniquenessIndexStatement(of: entity, constraint: constraint) {
                refusal = try refusedIndex(statement)
                if refusal == nil { continue }
                indexFailed = true
            }
            let found = problems.count
            try collectDuplicates(&problems, entity, constraint)
            if let refusal, problems.count == found { unexplainedRefusal = refusal }
        }
        if !problems.isEmpty {
            throw MigrationError(
                .validation, "the destination breaks its model's rules:\n" + problems.joined(separator: "\n"))
        }
        // As ``Store/finishBulkLoad()`` would have thrown it, building the same index.
        if let unexplainedRefusal { throw StoreError(unexplainedRefusal, path: store.path) }
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

/// What stage 1 proves of the required columns of the rows it writes (``DestinationValidation/requiredColumns(of:in:)``),
/// so that stage 3 need not scan every row for NULLs in them (67 M instructions of the library step at 100,000
/// objects, the floor's whole copy being 686 M).
///
/// A statement of ``BulkInstanceCreation`` wraps each such column's value as `coalesce(value, required_null())`:
/// SQLite calls the function only for a NULL, which it records, then stores the NULL as before. The proof holds
/// while every row the destination connection changed since the migration began was inserted by such a
/// statement and none met a NULL: any other write (a row made in Swift, a relationship set in stage 2, a policy's
/// value) shows as a change the statements did not count, and stage 3 scans as before, reporting what it always
/// reported.
final class RequiredValueWitness {
    /// The function a tested statement calls for a NULL in a required column: it records it and returns NULL.
    static let nullFunction = "migrationbench_required_null"

    private let connection: Connection
    private let changesAtStart: Int64
    /// Rows inserted by statements that tested every required column of each row.
    var rowsTested: Int64 = 0
    /// Whether such a statement met a NULL in a required column.
    var sawNull = false

    /// Starts counting from the rows `connection`, the new destination's, has changed so far.
    init(connection: Connection) {
        self.connection = connection
        self.changesAtStart = connection.totalChanges
    }

    /// Whether no required column of any row written since the migration began holds NULL.
    var provesNoRequiredNull: Bool { !sawNull && connection.totalChanges - changesAtStart == rowsTested }

    /// Registers ``nullFunction`` on the destination connection, until ``removeFunction()``; not deterministic,
    /// so that SQLite never calls it once for a whole statement.
    func registerFunction() throws {
        try connection.registerFunction(Self.nullFunction, argumentCount: 0) { [weak self] call in
            self?.sawNull = true
            call.result(.null)
        }
    }

    func removeFunction() {
        try? connection.removeFunction(Self.nullFunction, argumentCount: 0)
    }

    /// `value`, the SQL of a required column's value, tested for NULL.
    static func tested(_ value: String) -> String { "coalesce(\(value), \(nullFunction)())" }

    /// The required columns of `writer`'s rows in `store` (``DestinationValidation/requiredColumns(of:in:)``), and
    /// whether its row shape writes them all: a required column a statement does not write would be NULL untested,
    /// so its rows count as tested only then.
    static func requiredColumns(
        of writer: DestinationWriter, in store: Store
    ) -> (columns: Set<String>, allWritten: Bool) {
        let columns = Set(DestinationValidation.requiredColumns(of: writer.entity, in: store).map(\.column))
        return (columns, columns.isSubset(of: writer.inserter.shape.slots))
    }
}
