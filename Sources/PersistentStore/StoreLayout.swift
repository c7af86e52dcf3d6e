public import ObjectModel

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
    public let joinTables: [JoinTable]

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
        self.version = version
        var numbers: [String: Int] = [:]
        var next = 1
        for root in version.rootEntities {
            for entity in version.hierarchy(of: root.name) {
                numbers[entity] = next
                next += 1
            }
        }
        self.entityNumbers = numbers
        self.entityNamesByNumber = Dictionary(uniqueKeysWithValues: numbers.map { ($1, $0) })

        var tables: [EntityTable] = []
        var tableIndexByEntity: [String: Int] = [:]
        for root in version.rootEntities {
            let table = try EntityTable(root: root.name, version: version)
            for entity in table.entities { tableIndexByEntity[entity] = tables.count }
            tables.append(table)
        }
        self.entityTables = tables
        self.tableIndexByEntity = tableIndexByEntity

        var joins: [JoinTable] = []
        var joinIndex: [RelationshipKey: Int] = [:]
        for entity in version.entities {
            for relationship in entity.relationships where Self.needsJoinTable(relationship, in: version) {
                let key = RelationshipKey(entity: entity.name, relationship: relationship.name)
                guard joinIndex[key] == nil else { continue }
                let join = JoinTable(
                    entity: entity.name, relationship: relationship, version: version, numbers: numbers)
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
