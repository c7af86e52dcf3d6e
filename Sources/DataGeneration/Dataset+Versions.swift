public import ObjectModel

extension Dataset {
    /// The dataset as it applies to `version` of `history`: one dataset serves every version of a history, so
    /// an entry naming an entity, attribute or relationship that `version` lacks but another version has is left
    /// out (an `attributes` entry for `Post.color`, an attribute until the version that makes it a relationship).
    /// An entry that no version has is kept, for the generator's check to refuse with the key's file and line.
    public func applying(to version: ModelVersion, in history: ModelHistory) -> Dataset {
        let others = history.versions.filter { $0.name != version.name }
        func keep(_ has: (ModelVersion) -> Bool) -> Bool { has(version) || !others.contains(where: has) }
        var result = self
        result.objects = objects.filter { name, _ in keep { $0.entity(named: name) != nil } }
        result.relationships = relationships.filter { key, _ in
            let (entity, property) = Self.split(key)
            return keep { $0.relationship(property, of: entity) != nil }
        }
        result.attributes = attributes.filter { key, _ in
            let (entity, property) = Self.split(key)
            return keep { $0.attribute(property, of: entity) != nil }
        }
        return result
    }

    /// Whether `shape` wrote the dataset: some entry holds a measured distribution.
    public var isShape: Bool {
        attributes.values.contains { $0.shape != nil } || relationships.values.contains { $0.shape != nil }
    }

    /// For a dataset that `shape` wrote, the stored attributes of `version` (`Entity.attribute`) it has no entry
    /// for — added after the shaped store's version —, which are generated with the defaults; empty for any other
    /// dataset.
    public func unshapedAttributes(of version: ModelVersion) -> [String] {
        guard isShape else { return [] }
        return version.entities.flatMap { entity in
            entity.attributes.filter { !$0.isTransient && attributes["\(entity.name).\($0.name)"] == nil }
                .map { "\(entity.name).\($0.name)" }
        }
    }
}

/// A small builder for datasets written in Swift, one entry at a time:
///
/// ```swift
/// let dataset = Dataset(seed: 7)
///     .objects("Post", 1)
///     .attribute("Post.hexColor", nullRatio: 0)        // every post has a colour
///     .relationship("Author.posts", count: 2...5)
/// ```
extension Dataset {
    /// `objects` per size unit of `entity` (`objects: { Entity: multiple }`).
    public func objects(_ entity: String, _ multiple: Double) -> Dataset {
        var result = self
        result.objects[entity] = multiple
        return result
    }

    /// The shape of the values of `key` (`Entity.attribute`); a field left nil keeps the default.
    public func attribute(
        _ key: String, nullRatio: Double? = nil, length: ClosedRange<Int>? = nil, distinct: Int? = nil
    ) -> Dataset {
        var result = self
        var fill = attributes[key] ?? AttributeFill()
        if let nullRatio { fill.nullRatio = nullRatio }
        if let length { fill.length = IntRange(length.lowerBound, length.upperBound) }
        if let distinct { fill.distinct = distinct }
        result.attributes[key] = fill
        return result
    }

    /// How `key` (`Entity.relationship`) fans out: `fill` for a to-one, `count` for a to-many.
    public func relationship(_ key: String, fill: Double? = nil, count: ClosedRange<Int>? = nil) -> Dataset {
        var result = self
        var entry = relationships[key] ?? RelationshipFill()
        if let fill { entry.fill = fill }
        if let count { entry.count = IntRange(count.lowerBound, count.upperBound) }
        result.relationships[key] = entry
        return result
    }
}
