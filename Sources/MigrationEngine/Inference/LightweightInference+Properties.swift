import MappingModel
import ObjectModel

/// A stored attribute or relationship, as Core Data's `propertiesByName` holds it for matching.
enum StoredProperty {
    case attribute(Attribute)
    case relationship(Relationship)

    var name: String {
        switch self {
        case .attribute(let attribute): attribute.name
        case .relationship(let relationship): relationship.name
        }
    }

    var renamingKey: String {
        switch self {
        case .attribute(let attribute): attribute.renamingKey
        case .relationship(let relationship): relationship.renamingKey
        }
    }

    /// The non-transient properties of `entity`, inherited ones included.
    static func all(of entity: String, in version: ModelVersion) -> [StoredProperty] {
        version.storedAttributes(of: entity).map(StoredProperty.attribute)
            + version.relationships(of: entity).filter { !$0.isTransient }.map(StoredProperty.relationship)
    }
}

extension StoredProperty {
    /// Whether `newcomer`, added where this property was removed, is likely this property renamed without a
    /// renaming identifier: the same kind, a type inference could carry (attributes) or the same destination
    /// entity (relationships), and a similar name. A plain removal beside an unrelated addition is not.
    func isLikelyRenamed(as newcomer: StoredProperty) -> Bool {
        switch (self, newcomer) {
        case (.attribute(let old), .attribute(let new)):
            old.type.isInferable(into: new.type, allowingTransformation: true) && Self.similar(old.name, new.name)
        case (.relationship(let old), .relationship(let new)):
            old.destination == new.destination && Self.similar(old.name, new.name)
        default:
            false
        }
    }

    /// Names that one contains the other of (ignoring case; `color` and `hexColor`), that share a beginning or
    /// an end of at least half the shorter one and four letters (`numberOfFlagella`, `numberOfFlippers`), or
    /// that differ by at most a third of the longer's letters (`adress`, `address`).
    static func similar(_ one: String, _ other: String) -> Bool {
        let first = Array(one.lowercased())
        let second = Array(other.lowercased())
        if first.count >= 3 && second.count >= 3
            && (one.lowercased().contains(other.lowercased()) || other.lowercased().contains(one.lowercased()))
        {
            return true
        }
        let shared = max(
            zip(first, second).prefix { $0 == $1 }.count,
            zip(first.reversed(), second.reversed()).prefix { $0 == $1 }.count)
        if shared >= 4 && shared * 2 >= min(first.count, second.count) { return true }
        // Edit distance, one row at a time.
        var previous = Array(0...second.count)
        for (i, letter) in first.enumerated() {
            var row = [i + 1]
            for (j, otherLetter) in second.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (letter == otherLetter ? 0 : 1)))
            }
            previous = row
        }
        return previous[second.count] * 3 <= max(first.count, second.count)
    }
}

extension AttributeType {
    /// Whether inference carries a value of this type into `other`: the same type, numeric or Boolean into
    /// numeric or Boolean, or Binary and Transformable into each other when the destination allows it.
    func isInferable(into other: AttributeType, allowingTransformation: Bool) -> Bool {
        let numeric: Set<AttributeType> = [.integer16, .integer32, .integer64, .decimal, .double, .float, .boolean]
        if self == other || (numeric.contains(self) && numeric.contains(other)) { return true }
        return allowingTransformation && Set([self, other]) == [.binary, .transformable]
    }
}

extension Relationship {
    /// Whether Core Data's inference treats the relationship as one every object must hold: a required
    /// to-one, or a required to-many with a minimum count (a to-many of minimum 0 may be empty).
    var isMandatoryForInference: Bool { !isOptional && (!isToMany || minCount > 0) }
}

extension LightweightInference {
    /// The entity mapping and correspondence of destination `entity` from `sourceEntity`, with their changes.
    mutating func inferProperties(from sourceEntity: Entity, to entity: Entity) {
        let sourceProperties = StoredProperty.all(of: sourceEntity.name, in: source)
        let destinationProperties = StoredProperty.all(of: entity.name, in: destination)
        let match = RenamingMatch(
            source: sourceProperties, destination: destinationProperties, key: pairsByName ? \.name : \.renamingKey,
            name: \.name)
        for key in match.duplicateSourceKeys + match.duplicateDestinationKeys {
            refuse(
                entity.name, key, .duplicateRenamingIdentifier, "Each property must have a unique renaming identifier")
        }
        var attributeSources: [String: String?] = [:]
        var relationshipSources: [String: String?] = [:]
        var attributes: [PropertyMapping] = []
        var relationships: [PropertyMapping] = []
        var matched: Set<String> = []
        var newcomers: [StoredProperty] = []
        for property in destinationProperties {
            let counterpart = match.sources[property.name]
            switch (property, counterpart) {
            case (.attribute(let attribute), .attribute(let old)?):
                matched.insert(old.name)
                let expression = inferAttribute(attribute, from: old, of: entity.name)
                attributeSources[attribute.name] = old.name
                attributes.append(PropertyMapping(name: attribute.name, valueExpression: expression))
            case (.relationship(let relationship), .relationship(let old)?):
                matched.insert(old.name)
                let kept = inferRelationship(relationship, from: old, of: entity.name)
                relationshipSources[relationship.name] = kept ? old.name : .some(nil)
                relationships.append(
                    PropertyMapping(name: relationship.name, valueExpression: ExpressionText.relationshipCopy(old.name))
                )
            case (_, let other?):
                matched.insert(other.name)
                note(
                    entity.name, property.name, .dataLoss,
                    "shares its renaming identifier with '\(other.name)', which was "
                        + (property.isAttribute ? "a relationship" : "an attribute")
                        + "; Core Data does not map properties to other property types, so its values are dropped")
                addNew(property, of: entity.name)
                if case .attribute(let attribute) = property {
                    attributeSources[attribute.name] = .some(nil)
                    attributes.append(PropertyMapping(name: attribute.name, valueExpression: nil))
                } else {
                    relationshipSources[property.name] = .some(nil)
                    relationships.append(PropertyMapping(name: property.name, valueExpression: nil))
                }
            case (.attribute(let attribute), nil):
                newcomers.append(property)
                addNew(property, of: entity.name)
                attributeSources[attribute.name] = .some(nil)
                attributes.append(PropertyMapping(name: attribute.name, valueExpression: nil))
            case (.relationship(let relationship), nil):
                newcomers.append(property)
                addNew(property, of: entity.name)
                relationshipSources[relationship.name] = .some(nil)
                relationships.append(PropertyMapping(name: relationship.name, valueExpression: nil))
            }
        }
        for property in sourceProperties where !matched.contains(property.name) {
            if case .relationship(let old) = property, let holder = newInverse(replacing: old, in: entity.name) {
                if old.isToMany && destination.relationship(holder, of: entity.name)?.isToMany == false {
                    // Narrowed: an object can hold one where it held many, so Core Data's inverse maintenance
                    // leaves one link of each, and the other objects lose theirs.
                    note(
                        entity.name, property.name, .dataLoss,
                        "narrowed to the to-one '\(holder)': of the objects it held, each keeps only one, the last "
                            + "by key; the others lose their link")
                } else {
                    // Core Data sets the kept inverse, and with it the new relationship: no edge is lost.
                    note(entity.name, property.name, .removed, "its edges stay, held by '\(holder)'")
                }
            } else if let namesake = destinationProperties.first(where: { $0.name == property.name }) {
                note(
                    entity.name, property.name, .dataLoss,
                    "its renaming identifier changed from '\(property.renamingKey)' to '\(namesake.renamingKey)', "
                        + "so Core Data no longer pairs it with its old values: they are dropped")
            } else if let newcomer = newcomers.first(where: { $0.renamingKey == property.name }) {
                note(
                    entity.name, property.name, .dataLoss,
                    "'\(newcomer.name)' names it as its renaming identifier, but Core Data pairs identifiers with "
                        + "identifiers ('\(property.renamingKey)' here), not names: its values are dropped")
            } else if let newcomer = newcomers.first(where: property.isLikelyRenamed) {
                note(
                    entity.name, property.name, .dataLoss,
                    "removed while '\(newcomer.name)', likely the same renamed, is added, and no renaming identifier "
                        + "pairs them: its values are dropped")
            } else {
                note(entity.name, property.name, .removed, "its values are dropped")
            }
        }
        correspondences.append(
            LightweightPlan.EntityCorrespondence(
                destination: entity.name, source: sourceEntity.name, attributes: attributeSources,
                relationships: relationshipSources))
        // Core Data: equal version hashes give a copy mapping, anything else a transform.
        let isCopy = source.versionHashes[sourceEntity.name] == destination.versionHashes[entity.name]
        mappings.append(
            EntityMapping(
                name: "\(sourceEntity.name)To\(entity.name)", kind: isCopy ? .copy : .transform,
                sourceEntity: sourceEntity.name, destinationEntity: entity.name,
                sourceEntityVersionHash: source.versionHashes[sourceEntity.name],
                destinationEntityVersionHash: destination.versionHashes[entity.name],
                attributeMappings: attributes, relationshipMappings: relationships))
    }

    /// The value expression of `attribute` from the matched `old`, refusing an incompatible change.
    private mutating func inferAttribute(_ attribute: Attribute, from old: Attribute, of entity: String) -> String {
        if old.name != attribute.name { note(entity, attribute.name, .renamed, "from '\(old.name)'") }
        let allowing = attribute.userInfo["NSMigrationAllowTypeTransformation"] != nil
        if !old.type.isInferable(into: attribute.type, allowingTransformation: allowing) {
            refuse(
                entity, attribute.name, .typeChange,
                "Source and destination attribute types are incompatible: \(old.type.rawValue) → \(attribute.type.rawValue)"
            )
        } else if old.type != attribute.type {
            let narrower = attribute.type.integerRange.map { new in
                old.type.integerRange.map { !new.contains($0.lowerBound) || !new.contains($0.upperBound) } ?? true
            }
            let caveat =
                narrower == true && attribute.type != .boolean
                ? " (narrowing: fractions are truncated toward zero; values outside its range stay as stored, "
                    + "and Core Data's in-place result for them is not verified)" : ""
            note(entity, attribute.name, .converted, "\(old.type.rawValue) → \(attribute.type.rawValue)\(caveat)")
        }
        if old.allowsExternalBinaryDataStorage && !attribute.allowsExternalBinaryDataStorage
            && attribute.type == .binary
        {
            refuse(
                entity, attribute.name, .externalIntoStore,
                "Unable to use inferred mapping to move external reference into store")
        }
        // The mapping reads the source name; Core Data's has no cast (the value arrives as a number).
        let value = "$source.\(old.name)"
        guard old.isOptional && !attribute.isOptional else { return value }
        guard let fill = attribute.defaultValue.flatMap(ExpressionText.literal) else {
            note(
                entity, attribute.name, .needsValue,
                "made required without a default value: the step fails on the first object without a value")
            return value
        }
        note(entity, attribute.name, .filled, "made required: objects without a value get the default \(fill)")
        return "coalesce(\(value), \(fill))"
    }

    /// Checks the matched `relationship` against `old`; false when its old targets have no place in it.
    private mutating func inferRelationship(
        _ relationship: Relationship, from old: Relationship, of entity: String
    ) -> Bool {
        if old.name != relationship.name { note(entity, relationship.name, .renamed, "from '\(old.name)'") }
        if old.isToMany && !relationship.isToMany {
            refuse(entity, relationship.name, .toManyToToOne, "Can not map from a to-many to a to-one relationship")
        } else if old.isToMany != relationship.isToMany || old.isOrdered != relationship.isOrdered {
            note(entity, relationship.name, .reshaped, "\(Self.shape(old)) → \(Self.shape(relationship))")
        }
        var kept = true
        if let target = destinationOf[old.destination] {
            if !destination.entity(target, isKindOf: relationship.destination)
                && !destination.entity(relationship.destination, isKindOf: target)
            {
                kept = false
                note(
                    entity, relationship.name, .dataLoss,
                    "its objects become '\(target)' objects, which it no longer holds (it holds "
                        + "'\(relationship.destination)'): it comes out empty")
            }
        } else {
            kept = false
            note(
                entity, relationship.name, .dataLoss,
                "its objects, of entity '\(old.destination)', have no counterpart in '\(destination.name)' "
                    + "(no shared renaming identifier): it comes out empty")
        }
        if relationship.isMandatoryForInference && (!kept || !old.isMandatoryForInference) {
            note(
                entity, relationship.name, .needsValue,
                "made required: the step fails on the first object that holds no object in it")
        }
        return kept
    }

    private mutating func addNew(_ property: StoredProperty, of entity: String) {
        switch property {
        case .attribute(let attribute):
            let start = attribute.defaultValue.map {
                "the default \(ExpressionText.literal($0) ?? "value")"
            }
            note(entity, attribute.name, .added, "new: existing objects get \(start ?? "nil")")
            if !attribute.isOptional && attribute.defaultValue == nil {
                note(
                    entity, attribute.name, .needsValue,
                    "new, required and without a default value: the step fails on the first existing object")
            }
        case .relationship(let relationship):
            if let inverse = destination.inverse(of: relationship), let old = sourceCounterpart(of: inverse) {
                // The edges of the kept inverse are this relationship's too (Core Data keeps both sides), but a
                // to-one where the kept one had no inverse is narrowed, as a to-many inverse made to-one is: an
                // object several held holds one now.
                let narrowed = !relationship.isToMany && source.inverse(of: old) == nil
                note(
                    entity, relationship.name, .added,
                    "new, the inverse of '\(relationship.destination).\(inverse.name)'"
                        + (old.name == inverse.name ? "" : " (was '\(old.name)')")
                        + (narrowed
                            ? ": each existing object keeps one that held it" : ": existing objects keep its edges")
                )
                if narrowed {
                    note(
                        entity, relationship.name, .dataLoss,
                        "a to-one inverse of '\(relationship.destination).\(inverse.name)', which had none: of the "
                            + "objects that held the same '\(entity)', only one keeps it, the last by key; the others "
                            + "lose their link")
                }
            } else {
                note(entity, relationship.name, .added, "new: existing objects start with it empty")
            }
            if relationship.isMandatoryForInference {
                note(
                    entity, relationship.name, .needsValue,
                    "new and required: the step fails on the first existing object that holds no object in it")
            }
        }
    }

    /// The destination relationship of `entity` that holds the edges of removed source relationship `old`: the
    /// new inverse of the relationship its old inverse is paired with, when that one is kept.
    private func newInverse(replacing old: Relationship, in entity: String) -> String? {
        guard let oldInverse = source.inverse(of: old),
            let owner = destinationOf[old.destination].flatMap({ destination.entity(named: $0) }),
            let kept = destination.relationships(of: owner.name).first(where: {
                !$0.isTransient && $0.renamingKey == oldInverse.renamingKey
            }),
            let holder = destination.inverse(of: kept), destination.entity(entity, isKindOf: kept.destination)
        else { return nil }
        return holder.name
    }

    /// The source relationship destination relationship `relationship` is paired with through a shared renaming
    /// identifier, in the source counterpart of the entity that declares it.
    private func sourceCounterpart(of relationship: Relationship) -> Relationship? {
        guard let owner = destination.inverse(of: relationship)?.destination,
            let sourceEntity = destinationOf.first(where: { destination.entity($0.value, isKindOf: owner) })?.key
        else { return nil }
        return source.relationships(of: sourceEntity).first {
            !$0.isTransient && $0.renamingKey == relationship.renamingKey
        }
    }

    private static func shape(_ relationship: Relationship) -> String {
        relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    }
}

extension StoredProperty {
    var isAttribute: Bool {
        if case .attribute = self { return true }
        return false
    }
}
