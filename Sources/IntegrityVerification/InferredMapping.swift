import Foundation
import MappingModel
import ObjectModel

/// The lightweight mapping between two versions, re-derived from renaming identifiers alone.
///
/// Deliberately simple and independent of the engine's inference: a destination entity corresponds to the
/// source entity that shares its renaming identifier (an unset one being the name), and so does each stored
/// property inside a pair, an attribute only to an attribute and a relationship only to a relationship. An
/// attribute whose numeric or Boolean type changed gets its source value converted. A relationship keeps its
/// objects only when their entity's counterpart is one the relationship can hold; otherwise it is expected
/// empty. Source entities without a counterpart are dropped; destination entities without one get no objects.
enum InferredMapping {
    /// The inferred mapping model from `source` to `destination`.
    static func model(from source: ModelVersion, to destination: ModelVersion) -> MappingModel {
        // Versions with equal hashes need no migration: Core Data never looks at their renaming identifiers, so
        // everything keeps its name.
        let byName = source.versionHashes == destination.versionHashes
        func key(_ entity: Entity) -> String { byName ? entity.name : entity.renamingKey }
        func key(_ attribute: Attribute) -> String { byName ? attribute.name : attribute.renamingKey }
        func key(_ relationship: Relationship) -> String { byName ? relationship.name : relationship.renamingKey }
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            guard let counterpart = source.entities.first(where: { key($0) == key(entity) }) else {
                continue
            }
            var attributes: [PropertyMapping] = []
            for attribute in destination.storedAttributes(of: entity.name) {
                let match = source.attributes(of: counterpart.name).first {
                    !$0.isTransient && key($0) == key(attribute)
                        && (Self.numeric.contains($0.type) && Self.numeric.contains(attribute.type)
                            || $0.type == attribute.type)
                }
                attributes.append(
                    PropertyMapping(
                        name: attribute.name, valueExpression: match.map { expression($0, into: attribute) }))
            }
            var relationships: [PropertyMapping] = []
            for relationship in destination.relationships(of: entity.name) where !relationship.isTransient {
                guard
                    let match = source.relationships(of: counterpart.name).first(where: {
                        !$0.isTransient && key($0) == key(relationship)
                    }),
                    let targets = source.entity(named: match.destination).flatMap({ old in
                        destination.entities.first { key($0) == key(old) }
                    }),
                    destination.entity(targets.name, isKindOf: relationship.destination)
                        || destination.entity(relationship.destination, isKindOf: targets.name)
                else { continue }
                relationships.append(
                    PropertyMapping(
                        name: relationship.name, valueExpression: ExpressionText.relationshipCopy(match.name)))
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

    /// The types whose values a lightweight migration converts into one another.
    private static let numeric: Set<AttributeType> = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean,
    ]

    /// The source value; when an optional attribute became required with a default, the default stands in
    /// for a missing value (Core Data's lightweight rule for that change).
    private static func expression(_ source: Attribute, into attribute: Attribute) -> String {
        let value = "$source.\(source.name)"
        guard source.isOptional, !attribute.isOptional,
            let fill = attribute.defaultValue.flatMap(ExpressionText.literal)
        else {
            return value
        }
        return "coalesce(\(value), \(fill))"
    }
}
