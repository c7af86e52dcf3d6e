public import ObjectModel

/// The table of one inheritance tree: `Z_PK`, `Z_ENT`, `Z_OPT` and one column per stored property.
public struct EntityTable: Sendable, Hashable {
    /// The table name, `Z` and the root entity's name in upper case.
    public let name: String
    /// The root entity.
    public let root: String
    /// The root and all its subentities, depth first.
    public let entities: [String]
    /// The property columns, in Core Data's order (format note C3).
    public let columns: [Column]
    /// Whether the table holds one entity alone, without subentities: each of its rows is of that entity, so no
    /// query of it needs to read `Z_ENT` to tell entities apart.
    public var holdsOneEntity: Bool { entities.count == 1 }

    private let columnIndex: [ColumnKey: Int]

    private struct ColumnKey: Hashable, Sendable {
        var entity: String
        var property: String
        var kind: Column.Kind.Lookup
    }

    /// One column of an entity table.
    public struct Column: Sendable, Hashable {
        /// The column name, such as `ZTITLE`, `ZNAME1` or `Z_FOK_AUTHOR`.
        public let name: String
        /// The declared SQL type, as Core Data writes it (`INTEGER`, `VARCHAR`, `TIMESTAMP`, …).
        public let sqlType: String
        /// The entity that declares the property.
        public let entity: String
        /// The property name.
        public let property: String
        /// What the column holds.
        public let kind: Kind

        /// What a column holds.
        public enum Kind: Sendable, Hashable {
            /// The value of an attribute of this type.
            case attribute(AttributeType)
            /// The primary key of the destination of a to-one relationship.
            case foreignKey
            /// The position of this object in the ordered to-many inverse of the to-one `property`.
            case orderKey
            /// The entity number (`Z_ENT`) of the destination of the to-one `property`, whose destination
            /// entity has subentities: `Z<n>_<NAME>`.
            case entityNumber

            /// What a lookup by property tells apart: the value, the order key and the entity number.
            enum Lookup: Hashable, Sendable { case value, orderKey, entityNumber }

            var lookup: Lookup {
                switch self {
                case .attribute, .foreignKey: .value
                case .orderKey: .orderKey
                case .entityNumber: .entityNumber
                }
            }
        }
    }

    init(root: String, version: ModelVersion, numbers: [String: Int]) throws(StoreError) {
        self.root = root
        self.name = try Self.storedName(root, in: version.name)
        self.entities = version.hierarchy(of: root)

        // Core Data's column order (format note C3): by group, then the declaring entity's place in the
        // hierarchy, then (integers before foreign keys) the property name in code-unit order.
        var pending: [(key: SortKey, property: PendingProperty)] = []
        for (position, entity) in entities.enumerated() {
            guard let declared = version.entity(named: entity) else { continue }
            for attribute in declared.attributes where !attribute.isTransient {
                let group = Self.group(of: attribute.type)
                let key = SortKey(group: group, entity: position, subgroup: 0, name: attribute.name)
                pending.append((key, .attribute(entity, attribute)))
            }
            for relationship in declared.relationships where !relationship.isToMany && !relationship.isTransient {
                pending.append(
                    (
                        SortKey(group: 0, entity: position, subgroup: 1, name: relationship.name),
                        .toOne(entity, relationship)
                    )
                )
                if let inverse = version.inverse(of: relationship), inverse.isOrdered {
                    pending.append(
                        (
                            SortKey(group: 1, entity: position, subgroup: 0, name: relationship.name),
                            .orderKey(entity, relationship)
                        ))
                }
            }
        }
        pending.sort { $0.key < $1.key }

        // Names are handed out in that order; a name already used gets the first free suffix 1, 2, … (C5).
        var used = Set(RowShape.bookkeepingColumns)
        func unique(_ base: String) -> String {
            var candidate = base
            var suffix = 1
            while used.contains(candidate) {
                candidate = base + String(suffix)
                suffix += 1
            }
            used.insert(candidate)
            return candidate
        }
        var foreignKeyNames: [String: String] = [:]
        var columns: [Column] = []
        for (_, property) in pending {
            switch property {
            case .attribute(let entity, let attribute):
                let base = try Self.storedName(attribute.name, in: version.name, entity: entity)
                columns.append(
                    Column(
                        name: unique(base), sqlType: Self.sqlType(of: attribute.type), entity: entity,
                        property: attribute.name, kind: .attribute(attribute.type)))
            case .toOne(let entity, let relationship):
                let base = try Self.storedName(relationship.name, in: version.name, entity: entity)
                let name = unique(base)
                foreignKeyNames[entity + "." + relationship.name] = name
                columns.append(
                    Column(
                        name: name, sqlType: "INTEGER", entity: entity, property: relationship.name, kind: .foreignKey))
                // A to-one into an entity with subentities also records the target's Z_ENT (R2).
                if !version.subentities(of: relationship.destination).isEmpty,
                    let number = numbers[relationship.destination]
                {
                    columns.append(
                        Column(
                            name: unique("Z\(number)_" + name.dropFirst()), sqlType: "INTEGER", entity: entity,
                            property: relationship.name, kind: .entityNumber))
                }
            case .orderKey(let entity, let relationship):
                let foreignKey = foreignKeyNames[entity + "." + relationship.name] ?? ""
                columns.append(
                    Column(
                        name: unique("Z_FOK_" + foreignKey.dropFirst()), sqlType: "INTEGER", entity: entity,
                        property: relationship.name, kind: .orderKey))
            }
        }
        self.columns = columns
        var index: [ColumnKey: Int] = [:]
        for (position, column) in columns.enumerated() {
            index[ColumnKey(entity: column.entity, property: column.property, kind: column.kind.lookup)] = position
        }
        self.columnIndex = index
    }

    private enum PendingProperty {
        case attribute(String, Attribute)
        case toOne(String, Relationship)
        case orderKey(String, Relationship)
    }

    private struct SortKey: Comparable {
        var group: Int
        var entity: Int
        var subgroup: Int
        var name: String

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            if (lhs.group, lhs.entity, lhs.subgroup) != (rhs.group, rhs.entity, rhs.subgroup) {
                return (lhs.group, lhs.entity, lhs.subgroup) < (rhs.group, rhs.entity, rhs.subgroup)
            }
            return lhs.name.utf16.lexicographicallyPrecedes(rhs.name.utf16)
        }
    }

    /// SQL true for a row whose `Z_ENT` is none of `numbers`, or NULL. With one number it is one comparison,
    /// which SQLite tests about a quarter faster per row than `NOT IN` with its NULL test (0.032 s against
    /// 0.044 s over 900,000 rows).
    public static func noEntitySQL(of numbers: [Int]) -> String {
        if numbers.count == 1 { return "Z_ENT IS NOT \(numbers[0])" }
        return "Z_ENT IS NULL OR Z_ENT NOT IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    /// The column of `property`, declared by `entity` or one of its ancestors in this table.
    public func column(for property: String, of entity: String, version: ModelVersion) -> Column? {
        column(for: property, of: entity, version: version, kind: .value)
    }

    /// The order-key column `Z_FOK_…` that goes with the to-one `relationship`, when its inverse is ordered.
    public func orderKeyColumn(for relationship: String, of entity: String, version: ModelVersion) -> Column? {
        column(for: relationship, of: entity, version: version, kind: .orderKey)
    }

    /// The column `Z<n>_<NAME>` that records the destination's entity number for the to-one `relationship`,
    /// when its destination has subentities.
    public func entityNumberColumn(for relationship: String, of entity: String, version: ModelVersion) -> Column? {
        column(for: relationship, of: entity, version: version, kind: .entityNumber)
    }

    private func column(
        for property: String, of entity: String, version: ModelVersion, kind: Column.Kind.Lookup
    ) -> Column? {
        for owner in [entity] + version.ancestors(of: entity) {
            if let index = columnIndex[ColumnKey(entity: owner, property: property, kind: kind)] {
                return columns[index]
            }
        }
        return nil
    }

    /// `Z` and `name` in upper case, refused when it could not be a safe identifier.
    static func storedName(_ name: String, in version: String, entity: String? = nil) throws(StoreError) -> String {
        let upper = name.uppercased()
        guard !upper.isEmpty,
            upper.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic
                        || $0.properties.numericType != nil || $0 == "_")
            })
        else {
            throw StoreError(
                .unsupportedModel,
                "'\(name)' cannot be a column or table name (ASCII letters, digits and '_' only)",
                entity: entity ?? name)
        }
        return "Z" + upper
    }

    static func sqlType(of type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: "INTEGER"
        case .decimal: "DECIMAL"
        case .double, .float: "FLOAT"
        case .date: "TIMESTAMP"
        case .string, .uri, .undefined: "VARCHAR"
        case .binary, .uuid, .transformable: "BLOB"
        }
    }

    /// The group of C3: integers 0 (foreign keys join them), order keys 1, then dates and floating point,
    /// decimals, strings, UUIDs, URIs, transformables and binary data.
    private static func group(of type: AttributeType) -> Int {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: 0
        case .date, .double, .float: 2
        case .decimal: 3
        case .string, .undefined: 4
        case .uuid: 5
        case .uri: 6
        case .transformable: 7
        case .binary: 8
        }
    }
}
