import ObjectModel

/// Which source entity and property each destination entity and property corresponds to, following
/// renaming identifiers one version step at a time, so that renames in several steps compose.
///
/// In each step, a destination element corresponds to the source element named by its renaming identifier,
/// or else to the one with the same name — Core Data's rule for one step.
struct RenameChain {
    /// Destination entity → source entity.
    private(set) var entities: [String: String] = [:]
    /// (destination entity, destination property) → source property name, in the entity's source counterpart.
    private(set) var properties: [PropertyKey: String] = [:]

    struct PropertyKey: Hashable {
        let entity: String
        let property: String
    }

    init(versions: [ModelVersion]) {
        guard let first = versions.first else { return }
        // Start with the identity on the first version.
        for entity in first.entities {
            entities[entity.name] = entity.name
            for property in Self.propertyNames(of: entity.name, in: first) {
                properties[PropertyKey(entity: entity.name, property: property)] = property
            }
        }
        for (older, newer) in zip(versions, versions.dropFirst()) {
            var nextEntities: [String: String] = [:]
            var nextProperties: [PropertyKey: String] = [:]
            for entity in newer.entities {
                guard let previous = Self.counterpart(of: entity, in: older), let original = entities[previous] else {
                    continue
                }
                nextEntities[entity.name] = original
                for attribute in newer.attributes(of: entity.name) {
                    let key =
                        attribute.renamingIdentifier.flatMap { older.attribute($0, of: previous) != nil ? $0 : nil }
                        ?? (older.attribute(attribute.name, of: previous) != nil ? attribute.name : nil)
                    if let key, let source = properties[PropertyKey(entity: previous, property: key)] {
                        nextProperties[PropertyKey(entity: entity.name, property: attribute.name)] = source
                    }
                }
                for relationship in newer.relationships(of: entity.name) {
                    let key =
                        relationship.renamingIdentifier.flatMap {
                            older.relationship($0, of: previous) != nil ? $0 : nil
                        } ?? (older.relationship(relationship.name, of: previous) != nil ? relationship.name : nil)
                    if let key, let source = properties[PropertyKey(entity: previous, property: key)] {
                        nextProperties[PropertyKey(entity: entity.name, property: relationship.name)] = source
                    }
                }
            }
            entities = nextEntities
            properties = nextProperties
        }
    }

    /// The source property that destination `property` of destination `entity` corresponds to.
    func sourceProperty(_ property: String, of entity: String) -> String? {
        properties[PropertyKey(entity: entity, property: property)]
    }

    private static func counterpart(of entity: Entity, in older: ModelVersion) -> String? {
        if let identifier = entity.renamingIdentifier, older.entity(named: identifier) != nil { return identifier }
        return older.entity(named: entity.name) != nil ? entity.name : nil
    }

    private static func propertyNames(of entity: String, in version: ModelVersion) -> [String] {
        version.attributes(of: entity).map(\.name) + version.relationships(of: entity).map(\.name)
    }
}
