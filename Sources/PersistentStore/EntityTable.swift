public import ObjectModel

/// The table of one inheritance tree: `Z_PK`, `Z_ENT`, `Z_OPT` and one column per stored property.
public struct EntityTable: Sendable, Hashable {
    /// The table name, `Z` and the root entity's name in upper case.
    public let name: String
    /// The root entity.
    public let root: String
    /// The root and all its subentities, depth first.
    public let entities: [String]
    /// The property columns, in Core Data's order (integers, foreign keys, numbers, dates, text, blobs).
    public let columns: [Column]

    private let columnIndex: [ColumnKey: Int]

    private struct ColumnKey: Hashable, Sendable {
        var entity: String
        var property: String
        var isOrderKey: Bool
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
        }
    }

    init(root: String, version: ModelVersion) throws(StoreError) {
        self.root = root
        self.name = try Self.storedName(root, in: version.name)
        self.entities = version.hierarchy(of: root)

        var pending: [(rank: Int, column: Column)] = []
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
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
        for entity in entities {
            guard let declared = version.entity(named: entity) else { continue }
            for attribute in declared.attributes where !attribute.isTransient {
                let base = try Self.storedName(attribute.name, in: version.name, entity: entity)
                let column = Column(
                    name: unique(base), sqlType: Self.sqlType(of: attribute.type), entity: entity,
                    property: attribute.name, kind: .attribute(attribute.type))
                pending.append((Self.rank(of: attribute.type), column))
            }
            for relationship in declared.relationships where !relationship.isToMany && !relationship.isTransient {
                let base = try Self.storedName(relationship.name, in: version.name, entity: entity)
                pending.append(
                    (
                        1,
                        Column(
                            name: unique(base), sqlType: "INTEGER", entity: entity, property: relationship.name,
                            kind: .foreignKey)
                    ))
                if let inverse = version.inverse(of: relationship), inverse.isOrdered {
                    pending.append(
                        (
                            1,
                            Column(
                                name: unique("Z_FOK_" + base.dropFirst()), sqlType: "INTEGER", entity: entity,
                                property: relationship.name, kind: .orderKey)
                        ))
                }
            }
        }
        // Core Data groups columns by storage class; within a group, declaration order is kept.
        let ordered = pending.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
        self.columns = ordered.map(\.element.column)
        var index: [ColumnKey: Int] = [:]
        for (position, column) in columns.enumerated() {
            let isOrderKey = column.kind == .orderKey
            index[ColumnKey(entity: column.entity, property: column.property, isOrderKey: isOrderKey)] = position
        }
        self.columnIndex = index
    }

    /// The column of `property`, declared by `entity` or one of its ancestors in this table.
    public func column(for property: String, of entity: String, version: ModelVersion) -> Column? {
        column(for: property, of: entity, version: version, orderKey: false)
    }

    /// The order-key column `Z_FOK_…` that goes with the to-one `relationship`, when its inverse is ordered.
    public func orderKeyColumn(for relationship: String, of entity: String, version: ModelVersion) -> Column? {
        column(for: relationship, of: entity, version: version, orderKey: true)
    }

    private func column(for property: String, of entity: String, version: ModelVersion, orderKey: Bool) -> Column? {
        for owner in [entity] + version.ancestors(of: entity) {
            if let index = columnIndex[ColumnKey(entity: owner, property: property, isOrderKey: orderKey)] {
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

    private static func rank(of type: AttributeType) -> Int {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: 0
        case .decimal: 2
        case .double, .float: 3
        case .date: 4
        case .string, .uri, .undefined: 5
        case .binary, .uuid, .transformable: 6
        }
    }
}
