import MappingModel
import ObjectModel

/// The lightweight mapping between two versions, re-derived from names and renaming identifiers alone.
///
/// Deliberately simple and independent of the engine's inference: a destination entity or property
/// corresponds to the source one of the same name, or to the one its renaming identifier names, or to the
/// one that shares its renaming identifier. Source entities without a counterpart are dropped; destination
/// entities without one get no objects.
enum InferredMapping {
    /// The inferred mapping model from `source` to `destination`.
    static func model(from source: ModelVersion, to destination: ModelVersion) -> MappingModel {
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            guard let counterpart = counterpart(of: entity, in: source) else { continue }
            var attributes: [PropertyMapping] = []
            for attribute in destination.attributes(of: entity.name) where !attribute.isTransient {
                let match = source.attributes(of: counterpart.name).first {
                    !$0.isTransient && $0.type == attribute.type && corresponds($0.name, $0.renamingKey, attribute)
                }
                attributes.append(
                    PropertyMapping(
                        name: attribute.name, valueExpression: match.map { expression($0, into: attribute) }))
            }
            var relationships: [PropertyMapping] = []
            for relationship in destination.relationships(of: entity.name) where !relationship.isTransient {
                guard
                    let match = source.relationships(of: counterpart.name).first(where: {
                        !$0.isTransient && corresponds($0.name, $0.renamingKey, relationship)
                    })
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

    private static func counterpart(of entity: Entity, in source: ModelVersion) -> Entity? {
        source.entity(named: entity.renamingKey)
            ?? source.entities.first { $0.renamingKey == entity.renamingKey }
            ?? source.entity(named: entity.name)
    }

    private static func corresponds(_ name: String, _ renamingKey: String, _ attribute: Attribute) -> Bool {
        name == attribute.renamingKey || renamingKey == attribute.renamingKey || name == attribute.name
    }

    private static func corresponds(_ name: String, _ renamingKey: String, _ relationship: Relationship) -> Bool {
        name == relationship.renamingKey || renamingKey == relationship.renamingKey || name == relationship.name
    }
}
