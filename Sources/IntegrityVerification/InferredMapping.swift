import MappingModel
import ObjectModel

/// The lightweight mapping between two versions, re-derived from names and renaming identifiers alone.
///
/// Deliberately simple and independent of the engine's inference: a destination entity or property
/// corresponds to the source one of the same name, or to the one its renaming identifier names, or to the
/// one that shares its renaming identifier. Across intermediate versions the correspondence is followed one
/// version at a time, since a renaming identifier names the property of the version just before. Source
/// entities without a counterpart are dropped; destination entities without one get no objects.
enum InferredMapping {
    /// The inferred mapping model from `source` to `destination`, through the versions between, oldest first.
    static func model(
        from source: ModelVersion, through intermediate: [ModelVersion] = [], to destination: ModelVersion
    ) -> MappingModel {
        // Newest first: the versions a destination entity is traced back through.
        let earlier = Array(([source] + intermediate).reversed())
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            guard let entities = trace(entity, back: earlier), let counterpart = entities.last else { continue }
            var attributes: [PropertyMapping] = []
            for attribute in destination.attributes(of: entity.name) where !attribute.isTransient {
                let match = trace(attribute, of: entities, back: earlier) { $0.attributes(of: $1) }
                    .flatMap { $0.type == attribute.type ? $0 : nil }
                attributes.append(
                    PropertyMapping(
                        name: attribute.name, valueExpression: match.map { expression($0, into: attribute) }))
            }
            var relationships: [PropertyMapping] = []
            for relationship in destination.relationships(of: entity.name) where !relationship.isTransient {
                guard let match = trace(relationship, of: entities, back: earlier, { $0.relationships(of: $1) })
                else { continue }
                let expression =
                    "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", "
                    + "\"\(match.name)\", $source.\(match.name))"
                relationships.append(PropertyMapping(name: relationship.name, valueExpression: expression))
            }
            mappings.append(
                EntityMapping(
                    name: "\(counterpart.name)To\(entity.name)", kind: .transform, sourceEntity: counterpart.name,
                    destinationEntity: entity.name, attributeMappings: attributes, relationshipMappings: relationships))
        }
        return MappingModel(
            name: "Inferred", sourceVersion: source.name, destinationVersion: destination.name, entityMappings: mappings
        )
    }

    /// The source value; when an optional attribute became required with a default, the default stands in
    /// for a missing value (Core Data's lightweight rule for that change).
    private static func expression(_ source: Attribute, into attribute: Attribute) -> String {
        let value = "$source.\(source.name)"
        guard source.isOptional, !attribute.isOptional, let fill = attribute.defaultValue.flatMap(literal) else {
            return value
        }
        return "coalesce(\(value), \(fill))"
    }

    /// A default value as a literal of the expression language; nil for kinds the verifier does not write.
    private static func literal(_ value: AttributeValue) -> String? {
        switch value {
        case .integer(let number): String(number)
        case .double(let number) where number.isFinite: "\(number)"
        case .decimal(let digits): digits
        case .boolean(let flag): flag ? "true" : "false"
        case .string(let text) where !text.contains(where: { $0 == "\"" || $0 == "\\" || $0.isNewline }): "\"\(text)\""
        default: nil
        }
    }

    /// The entity's counterpart in each of `versions` (newest first), or nil when the trail breaks.
    private static func trace(_ entity: Entity, back versions: [ModelVersion]) -> [Entity]? {
        var trail: [Entity] = []
        var current = entity
        for version in versions {
            guard let earlier = counterpart(of: current, in: version) else { return nil }
            trail.append(earlier)
            current = earlier
        }
        return trail
    }

    /// The property's counterpart in the oldest version, followed through each earlier entity of `trail`.
    private static func trace<Property: RenamableProperty>(
        _ property: Property, of trail: [Entity], back versions: [ModelVersion],
        _ properties: (ModelVersion, String) -> [Property]
    ) -> Property? {
        var current = property
        for (version, entity) in zip(versions, trail) {
            guard
                let earlier = properties(version, entity.name).first(where: {
                    !$0.isTransient
                        && ($0.name == current.renamingKey || $0.renamingKey == current.renamingKey
                            || $0.name == current.name)
                })
            else { return nil }
            current = earlier
        }
        return current
    }

    private static func counterpart(of entity: Entity, in source: ModelVersion) -> Entity? {
        source.entity(named: entity.renamingKey)
            ?? source.entities.first { $0.renamingKey == entity.renamingKey }
            ?? source.entity(named: entity.name)
    }
}

/// An attribute or a relationship, as far as renaming goes.
protocol RenamableProperty {
    var name: String { get }
    var renamingKey: String { get }
    var isTransient: Bool { get }
}

extension Attribute: RenamableProperty {}
extension Relationship: RenamableProperty {}
