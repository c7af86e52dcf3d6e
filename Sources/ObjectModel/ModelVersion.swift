/// One version of a managed object model: a validated set of entities with inheritance resolved.
///
/// Creating a version checks it the way Core Data's model loader does (unknown destinations, inverse
/// mismatches, duplicate names, inheritance cycles, untyped stored attributes) and computes every
/// entity's version hash once.
///
/// ```swift
/// let version = try ModelVersion(name: "V1", entities: [
///     Entity(name: "Author", attributes: [Attribute(name: "name", type: .string)],
///            relationships: [Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true)]),
///     Entity(name: "Book", attributes: [Attribute(name: "title", type: .string)],
///            relationships: [Relationship(name: "author", destination: "Author", inverse: "books")]),
/// ])
/// print(version.versionHashes["Book"]!.hex)
/// ```
public struct ModelVersion: Sendable, Hashable {
    /// The version name (the `.xcdatamodel` folder name without its extension, or the name in a model file).
    public let name: String
    /// The entities, in order of name.
    public let entities: [Entity]
    /// Core Data's free-text version identifiers (`userDefinedModelVersionIdentifier`).
    public let versionIdentifiers: [String]
    /// Every entity's version hash, by entity name.
    public let versionHashes: [String: VersionHash]
    /// Warnings from loading, such as coerced default values.
    public let warnings: [String]

    private let indexByName: [String: Int]
    private let resolved: [ResolvedProperties]

    private struct ResolvedProperties: Sendable, Hashable {
        var attributes: [Attribute]
        var relationships: [Relationship]
        var storedAttributes: [Attribute]
        var storedToOnes: [Relationship]
        var ancestors: [String]
        var children: [String]
    }

    /// Validates `entities` and resolves inheritance.
    ///
    /// - Throws: ``ModelError`` naming the version, entity and property at fault.
    public init(
        name: String,
        entities: [Entity],
        versionIdentifiers: [String] = [],
        warnings: [String] = []
    ) throws(ModelError) {
        let sorted = entities.sorted { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }
        var indexByName: [String: Int] = [:]
        for (index, entity) in sorted.enumerated() {
            guard Self.isValidName(entity.name) else {
                throw ModelError(
                    .invalidName, "'\(entity.name)' is not a valid entity name", version: name, entity: entity.name)
            }
            if indexByName.updateValue(index, forKey: entity.name) != nil {
                throw ModelError(
                    .duplicateName, "two entities are named '\(entity.name)'", version: name, entity: entity.name)
            }
        }
        self.name = name
        self.entities = sorted
        self.versionIdentifiers = versionIdentifiers
        self.indexByName = indexByName
        self.resolved = try Self.resolve(sorted, indexByName: indexByName, version: name)
        self.warnings = warnings

        var hashes: [String: VersionHash] = [:]
        for index in Self.parentsFirst(sorted, indexByName: indexByName, resolved: resolved) {
            let entity = sorted[index]
            hashes[entity.name] = VersionHashing.hash(
                of: entity,
                parentHash: entity.parent.flatMap { hashes[$0] },
                attributes: resolved[index].attributes,
                relationships: resolved[index].relationships
            )
        }
        self.versionHashes = hashes
        try validateRelationships()
    }

    /// The entity named `name`.
    public func entity(named name: String) -> Entity? {
        indexByName[name].map { entities[$0] }
    }

    /// All attributes of the entity, inherited ones first, transient ones included.
    public func attributes(of entity: String) -> [Attribute] {
        indexByName[entity].map { resolved[$0].attributes } ?? []
    }

    /// All relationships of the entity, inherited ones first.
    public func relationships(of entity: String) -> [Relationship] {
        indexByName[entity].map { resolved[$0].relationships } ?? []
    }

    /// The entity's stored (non-transient) attributes in slot order: inherited ones first, each entity's in
    /// declaration order. An attribute's slot — what `$source.x` reads, what a source row lists after its
    /// key — is its position here.
    public func storedAttributes(of entity: String) -> [Attribute] {
        indexByName[entity].map { resolved[$0].storedAttributes } ?? []
    }

    /// The entity's stored (non-transient) to-one relationships, inherited ones first: what a source row lists
    /// after the stored attributes.
    public func storedToOneRelationships(of entity: String) -> [Relationship] {
        indexByName[entity].map { resolved[$0].storedToOnes } ?? []
    }

    /// The attribute named `name` of the entity, own or inherited.
    public func attribute(_ name: String, of entity: String) -> Attribute? {
        attributes(of: entity).first { $0.name == name }
    }

    /// The relationship named `name` of the entity, own or inherited.
    public func relationship(_ name: String, of entity: String) -> Relationship? {
        relationships(of: entity).first { $0.name == name }
    }

    /// The inverse of `relationship`, declared on its destination entity or one of that entity's ancestors.
    public func inverse(of relationship: Relationship) -> Relationship? {
        guard let inverse = relationship.inverse else { return nil }
        return self.relationship(inverse, of: relationship.destination)
    }

    /// The entity's ancestors, its parent first.
    public func ancestors(of entity: String) -> [String] {
        indexByName[entity].map { resolved[$0].ancestors } ?? []
    }

    /// The root of the entity's inheritance tree (the entity itself when it has no parent).
    public func root(of entity: String) -> String {
        ancestors(of: entity).last ?? entity
    }

    /// The entity's direct subentities, in order of name.
    public func subentities(of entity: String) -> [String] {
        indexByName[entity].map { resolved[$0].children } ?? []
    }

    /// The entity and all entities below it, depth first, each before its subentities.
    public func hierarchy(of entity: String) -> [String] {
        var result = [entity]
        for child in subentities(of: entity) { result += hierarchy(of: child) }
        return result
    }

    /// Whether `entity` is `ancestor` or inherits from it.
    public func entity(_ entity: String, isKindOf ancestor: String) -> Bool {
        entity == ancestor || ancestors(of: entity).contains(ancestor)
    }

    /// The entities without a parent, in order of name.
    public var rootEntities: [Entity] { entities.filter { $0.parent == nil } }

    /// Core Data's `NSStoreModelVersionHashesDigest` of this version.
    public var versionHashesDigest: String { VersionHashing.digest(of: versionHashes) }

    /// Versions are equal when their names and entities are (hashes follow from the entities).
    public static func == (lhs: ModelVersion, rhs: ModelVersion) -> Bool {
        lhs.name == rhs.name && lhs.entities == rhs.entities
    }

    /// Hashes the name and the entities, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(entities)
    }

    // MARK: - Validation

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_"
        }
    }

    private static func resolve(
        _ entities: [Entity],
        indexByName: [String: Int],
        version: String
    ) throws(ModelError) -> [ResolvedProperties] {
        var ancestorsOf: [[String]] = []
        for entity in entities {
            var chain: [String] = []
            var next = entity.parent
            while let parent = next {
                guard let parentIndex = indexByName[parent] else {
                    throw ModelError(
                        .unknownEntity, "parent entity '\(parent)' does not exist", version: version,
                        entity: entity.name)
                }
                if parent == entity.name || chain.contains(parent) {
                    let cycle = ([entity.name] + chain + [parent]).joined(separator: " → ")
                    throw ModelError(
                        .inheritanceCycle, "inheritance cycle: \(cycle)", version: version, entity: entity.name)
                }
                chain.append(parent)
                next = entities[parentIndex].parent
            }
            ancestorsOf.append(chain)
        }

        var result: [ResolvedProperties] = []
        for (index, entity) in entities.enumerated() {
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            var seen: Set<String> = []
            for owner in ancestorsOf[index].reversed() + [entity.name] {
                let declaring = entities[indexByName[owner]!]
                for attribute in declaring.attributes {
                    try check(name: attribute.name, seen: &seen, owner: owner, entity: entity.name, version: version)
                    if attribute.type == .undefined && !attribute.isTransient {
                        throw ModelError(
                            .unknownAttributeType, "a stored attribute needs a type (Undefined is for transient ones)",
                            version: version, entity: owner, property: attribute.name)
                    }
                    if let value = attribute.defaultValue, !Self.value(value, fits: attribute.type) {
                        throw ModelError(
                            .invalidDefaultValue, "default value \(value) does not fit type \(attribute.type.rawValue)",
                            version: version, entity: owner, property: attribute.name)
                    }
                    attributes.append(attribute)
                }
                for relationship in declaring.relationships {
                    try check(name: relationship.name, seen: &seen, owner: owner, entity: entity.name, version: version)
                    relationships.append(relationship)
                }
            }
            for constraint in entity.uniquenessConstraints {
                for property in constraint where !seen.contains(property) {
                    throw ModelError(
                        .invalidProperty, "uniqueness constraint names unknown property '\(property)'",
                        version: version, entity: entity.name, property: property)
                }
            }
            for index in entity.indexes {
                for property in index.properties where !seen.contains(property) {
                    throw ModelError(
                        .invalidProperty, "index '\(index.name)' names unknown property '\(property)'",
                        version: version, entity: entity.name, property: property)
                }
            }
            let children = entities.filter { $0.parent == entity.name }.map(\.name)
            result.append(
                ResolvedProperties(
                    attributes: attributes, relationships: relationships,
                    storedAttributes: attributes.filter { !$0.isTransient },
                    storedToOnes: relationships.filter { !$0.isToMany && !$0.isTransient },
                    ancestors: ancestorsOf[index], children: children))
        }
        return result
    }

    private static func check(
        name: String,
        seen: inout Set<String>,
        owner: String,
        entity: String,
        version: String
    ) throws(ModelError) {
        guard isValidName(name) else {
            throw ModelError(
                .invalidName, "'\(name)' is not a valid property name", version: version, entity: owner, property: name)
        }
        guard seen.insert(name).inserted else {
            let detail = owner == entity ? "is declared twice" : "is declared twice (once inherited)"
            throw ModelError(
                .duplicateName, "property '\(name)' \(detail)", version: version, entity: entity, property: name)
        }
    }

    static func value(_ value: AttributeValue, fits type: AttributeType) -> Bool {
        switch (value, type) {
        case (.integer(let number), _) where type.integerRange != nil: type.integerRange!.contains(number)
        case (.boolean, .boolean), (.double, .double), (.double, .float), (.decimal, .decimal), (.string, .string),
            (.date, .date), (.binary, .binary), (.binary, .transformable), (.uuid, .uuid), (.uri, .uri):
            true
        default: false
        }
    }

    private static func parentsFirst(
        _ entities: [Entity],
        indexByName: [String: Int],
        resolved: [ResolvedProperties]
    ) -> [Int] {
        entities.indices.sorted { resolved[$0].ancestors.count < resolved[$1].ancestors.count }
    }

    private func validateRelationships() throws(ModelError) {
        for entity in entities {
            for relationship in entity.relationships {
                func fail(_ code: ModelError.Code, _ message: String) -> ModelError {
                    ModelError(code, message, version: name, entity: entity.name, property: relationship.name)
                }
                guard self.entity(named: relationship.destination) != nil else {
                    throw fail(.unknownEntity, "unknown destination entity '\(relationship.destination)'")
                }
                if relationship.minCount < 0 || relationship.maxCount < 0
                    || (relationship.maxCount > 0 && relationship.minCount > relationship.maxCount)
                {
                    throw fail(
                        .invalidProperty,
                        "minCount \(relationship.minCount) and maxCount \(relationship.maxCount) do not fit")
                }
                if !relationship.isToMany && relationship.isOrdered {
                    throw fail(.invalidProperty, "only a to-many relationship can be ordered")
                }
                guard let inverseName = relationship.inverse else { continue }
                guard let inverse = self.relationship(inverseName, of: relationship.destination) else {
                    throw fail(
                        .inverseMismatch,
                        "inverse '\(inverseName)' is not a relationship of '\(relationship.destination)'")
                }
                guard
                    self.entity(entity.name, isKindOf: inverse.destination)
                        || self.entity(inverse.destination, isKindOf: entity.name)
                else {
                    throw fail(
                        .inverseMismatch,
                        "inverse '\(relationship.destination).\(inverseName)' points to '\(inverse.destination)', not '\(entity.name)'"
                    )
                }
                if let back = inverse.inverse, back != relationship.name {
                    throw fail(
                        .inverseMismatch,
                        "inverse '\(relationship.destination).\(inverseName)' names '\(back)' as its inverse, not '\(relationship.name)'"
                    )
                }
            }
        }
    }
}
