public import ObjectModel
package import SQLiteDatabase

/// How a model version maps onto Core Data's SQLite layout: entity numbers, tables and columns.
///
/// The rules reproduce what Core Data writes, so that a store made here reads like one Core Data made:
/// - entities are numbered (`Z_ENT`) from 1, roots in order of name, each followed depth-first by its
///   subentities, so that every inheritance tree has a contiguous range of numbers;
/// - one table `Z<ROOT>` per inheritance root holds `Z_PK`, `Z_ENT`, `Z_OPT` and a column `Z<PROPERTY>`
///   per stored attribute and to-one relationship of every entity in the tree; a name used twice in one
///   table gets a numeric suffix (`ZNAME`, `ZNAME1`);
/// - a to-one relationship is a foreign-key column on its own side (on both sides of a one-to-one);
///   the to-one side of an ordered one-to-many also holds the order key `Z_FOK_<INVERSE>`;
/// - many-to-many and inverse-less to-many relationships live in join tables named after the
///   relationship of the lower-numbered entity, `Z_<n><RELATIONSHIP>`, with one column per side,
///   `Z_<entity number><name of the relationship that points at it>`, and `Z_FOK_…` order keys for ordered sides.
public struct StoreLayout: Sendable {
    /// The model version this layout is for.
    public let version: ModelVersion
    /// Each entity's number, `Z_ENT`.
    public let entityNumbers: [String: Int]
    /// One table per inheritance root, in order of root name.
    public let entityTables: [EntityTable]
    /// The join tables of many-to-many and inverse-less to-many relationships.
    public private(set) var joinTables: [JoinTable]

    private let tableIndexByEntity: [String: Int]
    private let entityNamesByNumber: [Int: String]
    private let joinTableIndex: [RelationshipKey: Int]

    private struct RelationshipKey: Hashable, Sendable {
        var entity: String
        var relationship: String
    }

    /// Computes the layout of `version`.
    ///
    /// - Throws: ``StoreError`` when a name cannot be stored.
    public init(version: ModelVersion) throws(StoreError) {
        try self.init(version: version, numbers: Self.entityNumbers(of: version))
    }

    /// Core Data's entity numbers (format note E1): the inheritance forest walked depth first, roots and each
    /// entity's subentities in code-unit order of name, numbered from 1.
    static func entityNumbers(of version: ModelVersion) -> [String: Int] {
        var numbers: [String: Int] = [:]
        var next = 1
        for root in version.rootEntities {
            for entity in version.hierarchy(of: root.name) {
                numbers[entity] = next
                next += 1
            }
        }
        return numbers
    }

    private init(version: ModelVersion, numbers: [String: Int]) throws(StoreError) {
        self.version = version
        self.entityNumbers = numbers
        self.entityNamesByNumber = Dictionary(uniqueKeysWithValues: numbers.map { ($1, $0) })

        var tables: [EntityTable] = []
        var tableIndexByEntity: [String: Int] = [:]
        for root in version.rootEntities {
            let table = try EntityTable(root: root.name, version: version, numbers: numbers)
            for entity in table.entities { tableIndexByEntity[entity] = tables.count }
            tables.append(table)
        }
        self.entityTables = tables
        self.tableIndexByEntity = tableIndexByEntity

        let columns = Self.joinColumnNames(version: version, numbers: numbers)
        var joins: [JoinTable] = []
        var joinIndex: [RelationshipKey: Int] = [:]
        for entity in version.entities {
            for relationship in entity.relationships where Self.needsJoinTable(relationship, in: version) {
                let key = RelationshipKey(entity: entity.name, relationship: relationship.name)
                guard joinIndex[key] == nil else { continue }
                let join = Self.joinTable(
                    entity: entity.name, relationship: relationship, version: version, numbers: numbers,
                    columns: columns)
                joinIndex[RelationshipKey(entity: join.ownerEntity, relationship: join.ownerRelationship)] = joins.count
                if let other = join.inverseRelationship {
                    joinIndex[RelationshipKey(entity: join.inverseEntity, relationship: other)] = joins.count
                }
                joins.append(join)
            }
        }
        self.joinTables = joins
        self.joinTableIndex = joinIndex
    }

    /// The layout of `version` as the store on `connection` has it: entity numbers from its `Z_PRIMARYKEY`
    /// and each join table under the name the store gives it (a reflexive pair may be named from either side).
    ///
    /// Names and shapes are found by name; what earlier in-place migrations left (extra indexes, columns
    /// out of place, an entity row that kept an old name) is tolerated and left alone.
    package init(version: ModelVersion, readingFrom connection: Connection) throws(StoreError) {
        let tables: Set<String>
        var listed: [String: Int] = [:]
        do {
            tables = Set(try connection.tableNames())
            for row in try connection.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
                if let number = row[0].int64, let name = row[1].string { listed[name] = Int(number) }
            }
        } catch {
            throw StoreError(error, path: connection.path)
        }
        // Each entity under its own name or, after a rename, the old name Core Data may have kept (H4).
        var numbers = Self.entityNumbers(of: version)
        for entity in version.entities {
            if let number = listed[entity.name] ?? entity.renamingIdentifier.flatMap({ listed[$0] }) {
                numbers[entity.name] = number
            }
        }
        let distinct = Set(numbers.values).count == numbers.count
        let predicted = Self.entityNumbers(of: version)
        self = try StoreLayout(version: version, numbers: distinct ? numbers : predicted)
            .resolving(existingTables: tables)
    }

    /// This layout with each join table missing from `existingTables` replaced by the same table named from
    /// its other side, when the store has that one (format note X1).
    public func resolving(existingTables: Set<String>) -> StoreLayout {
        var copy = self
        for (index, join) in joinTables.enumerated() where !existingTables.contains(join.name) {
            if let flipped = join.namedFromOtherSide(version: version, numbers: entityNumbers),
                existingTables.contains(flipped.name)
            {
                copy.joinTables[index] = flipped
            }
        }
        return copy
    }

    /// The join-table column each many-to-many relationship reserves for its own entity's rows, named after
    /// its inverse (M3): entity by entity in number order, relationships in name order, one set of used names
    /// per inheritance root, a clash getting the first free suffix 1, 2, ….
    private static func joinColumnNames(version: ModelVersion, numbers: [String: Int]) -> [RelationshipKey: String] {
        var result: [RelationshipKey: String] = [:]
        var used: [String: Set<String>] = [:]
        for entity in version.entities.sorted(by: { numbers[$0.name, default: 0] < numbers[$1.name, default: 0] }) {
            let number = numbers[entity.name] ?? 0
            let root = version.root(of: entity.name)
            let relationships = entity.relationships.filter { needsJoinTable($0, in: version) }
                .sorted { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }
            for relationship in relationships {
                let base = "Z_\(number)\((relationship.inverse ?? "inverse").uppercased())"
                var candidate = base
                var suffix = 1
                while used[root, default: []].contains(candidate) {
                    candidate = base + String(suffix)
                    suffix += 1
                }
                used[root, default: []].insert(candidate)
                result[RelationshipKey(entity: entity.name, relationship: relationship.name)] = candidate
            }
        }
        return result
    }

    /// The join table of `relationship` of `entity`, named after the side whose entity has the lower number
    /// (M2); between two sides of one entity, after the relationship whose name sorts first (X1's default).
    private static func joinTable(
        entity: String, relationship: Relationship, version: ModelVersion, numbers: [String: Int],
        columns: [RelationshipKey: String]
    ) -> JoinTable {
        let inverse = version.inverse(of: relationship)
        let inverseOwner =
            inverse.flatMap { inverse in
                ([relationship.destination] + version.ancestors(of: relationship.destination)).first {
                    version.entity(named: $0)?.relationships.contains(inverse) == true
                }
            } ?? relationship.destination
        let own = (
            entity: entity, relationship: relationship,
            column: columns[RelationshipKey(entity: entity, relationship: relationship.name)] ?? ""
        )
        var otherColumn =
            inverse.flatMap { columns[RelationshipKey(entity: inverseOwner, relationship: $0.name)] }
            ?? "Z_\(numbers[inverseOwner] ?? 0)\(relationship.name.uppercased())"
        if otherColumn == own.column { otherColumn += "1" }
        let other = (entity: inverseOwner, relationship: inverse, column: otherColumn)
        let ownNumber = numbers[entity] ?? 0
        let otherNumber = numbers[inverseOwner] ?? 0
        if let inverse,
            otherNumber < ownNumber
                || (otherNumber == ownNumber && inverse.name.utf16.lexicographicallyPrecedes(relationship.name.utf16))
        {
            return JoinTable(
                owner: (other.entity, inverse, other.column), other: (own.entity, own.relationship, own.column),
                version: version, numbers: numbers)
        }
        return JoinTable(owner: own, other: other, version: version, numbers: numbers)
    }

    /// The entity whose number is `number`.
    public func entityName(number: Int) -> String? {
        entityNamesByNumber[number]
    }

    /// The table that holds the objects of `entity`.
    public func table(for entity: String) -> EntityTable {
        guard let index = tableIndexByEntity[entity] else {
            preconditionFailure("entity '\(entity)' is not in version '\(version.name)'")
        }
        return entityTables[index]
    }

    /// The join table of a to-many relationship stored in one, declared by `entity` or an ancestor.
    public func joinTable(for relationship: String, of entity: String) -> JoinTable? {
        for owner in [entity] + version.ancestors(of: entity) {
            if let index = joinTableIndex[RelationshipKey(entity: owner, relationship: relationship)] {
                return joinTables[index]
            }
        }
        return nil
    }

    /// The entity numbers of `entity` and all its subentities: one contiguous range.
    public func entityNumberRange(of entity: String) -> ClosedRange<Int> {
        let numbers = version.hierarchy(of: entity).compactMap { entityNumbers[$0] }
        return numbers.min()!...numbers.max()!
    }

    /// How `relationship` of `entity` is stored.
    public func storage(of relationship: Relationship, in entity: String) -> RelationshipStorage {
        if relationship.isTransient { return .none }
        if !relationship.isToMany { return .foreignKey }
        if joinTable(for: relationship.name, of: entity) != nil { return .joinTable }
        return .inverseForeignKey
    }

    /// `CREATE TABLE` statements for the entity and join tables not in `excluded`, each name preceded by `prefix`.
    public func dataTableStatements(prefix: String = "", excluding excluded: Set<String> = []) -> [String] {
        SchemaBuilder(layout: self).dataTableStatements(prefix: prefix, excluding: excluded)
    }

    /// `CREATE INDEX` statements for the entity and join tables.
    public func indexStatements() -> [String] {
        SchemaBuilder(layout: self).indexStatements()
    }

    /// `CREATE UNIQUE INDEX IF NOT EXISTS` for `entity`'s uniqueness constraint `constraint`, the statement
    /// ``indexStatements()`` holds for it; nil when a property of the constraint has no column.
    public func uniquenessIndexStatement(of entity: String, constraint: [String]) -> String? {
        SchemaBuilder(layout: self).uniquenessIndexStatement(of: entity, constraint)
    }

    static func needsJoinTable(_ relationship: Relationship, in version: ModelVersion) -> Bool {
        guard relationship.isToMany, !relationship.isTransient else { return false }
        guard let inverse = version.inverse(of: relationship) else { return true }
        return inverse.isToMany
    }
}

/// Where the edges of a relationship are kept.
public enum RelationshipStorage: Sendable, Hashable {
    /// A foreign-key column on the entity's own table.
    case foreignKey
    /// The foreign-key column of the inverse to-one, on the destination's table.
    case inverseForeignKey
    /// A join table.
    case joinTable
    /// Not stored (transient).
    case none
}
