import Foundation
public import MappingModel
public import ObjectModel

/// Infers the mapping of a lightweight migration, as Core Data's `inferredMappingModel(forSourceModel:…)` does.
///
/// Handles every documented lightweight change: attributes and relationships added or removed, optionality
/// changes with a default, renames through renaming identifiers (followed across the intermediate versions,
/// so that V1 → V3 works when V2 and V3 each renamed), to-one → to-many, ordered ↔ unordered, entities added,
/// removed or renamed, and entities moved inside their inheritance tree. Anything else is refused with an
/// ``InferenceError`` listing every problem.
public enum MappingInference {
    /// The mapping from `source` to `destination`; `intermediate` are the versions in between, oldest first.
    public static func infer(
        from source: ModelVersion,
        to destination: ModelVersion,
        through intermediate: [ModelVersion] = []
    ) throws(InferenceError) -> MappingModel {
        try plan(from: source, to: destination, through: intermediate).mappingModel
    }

    /// The correspondence of a lightweight migration from `source` to `destination`.
    public static func plan(
        from source: ModelVersion,
        to destination: ModelVersion,
        through intermediate: [ModelVersion] = []
    ) throws(InferenceError) -> LightweightPlan {
        let chain = RenameChain(versions: [source] + intermediate + [destination])
        var problems: [InferenceError.Problem] = []
        var mappings: [EntityMapping] = []
        var correspondences: [LightweightPlan.EntityCorrespondence] = []
        var added: [String] = []
        var removed: [String] = []
        var claimed: [String: String] = [:]
        var sourceRootsByDestinationRoot: [String: Set<String>] = [:]

        for entity in destination.entities where !entity.isAbstract {
            guard let sourceName = chain.entities[entity.name], let sourceEntity = source.entity(named: sourceName)
            else {
                added.append(entity.name)
                mappings.append(
                    EntityMapping(
                        name: "Add\(entity.name)", kind: .add, sourceEntity: nil, destinationEntity: entity.name,
                        destinationEntityVersionHash: destination.versionHashes[entity.name]))
                continue
            }
            if let other = claimed.updateValue(entity.name, forKey: sourceName) {
                problems.append(
                    .init(
                        entity: entity.name, property: nil, rule: .ambiguousRename,
                        detail: "both '\(other)' and '\(entity.name)' correspond to source entity '\(sourceName)'"))
            }
            sourceRootsByDestinationRoot[destination.root(of: entity.name), default: []].insert(
                source.root(of: sourceName))
            let (mapping, correspondence) = entityMapping(
                from: sourceEntity, in: source, to: entity, in: destination, chain: chain, problems: &problems)
            mappings.append(mapping)
            correspondences.append(correspondence)
        }
        for (root, sourceRoots) in sourceRootsByDestinationRoot.sorted(by: { $0.key < $1.key })
        where sourceRoots.count > 1 {
            problems.append(
                .init(
                    entity: root, property: nil, rule: .mergedHierarchies,
                    detail:
                        "entities of the source trees \(sourceRoots.sorted().joined(separator: ", ")) end up under '\(root)'"
                ))
        }
        for entity in source.entities where !entity.isAbstract && claimed[entity.name] == nil {
            removed.append(entity.name)
            mappings.append(
                EntityMapping(
                    name: "Remove\(entity.name)", kind: .remove, sourceEntity: entity.name, destinationEntity: nil,
                    sourceEntityVersionHash: source.versionHashes[entity.name]))
        }
        guard problems.isEmpty else {
            throw InferenceError(source: source.name, destination: destination.name, problems: problems)
        }
        let model = MappingModel(
            name: "Inferred \(source.name) → \(destination.name)", sourceVersion: source.name,
            destinationVersion: destination.name, entityMappings: mappings)
        return LightweightPlan(
            source: source, destination: destination, entities: correspondences, addedEntities: added,
            removedEntities: removed, mappingModel: model)
    }

    /// `value` written in the expression language, when it can be.
    static func expressionLiteral(_ value: AttributeValue) -> String? {
        func text(_ string: String) -> String {
            "\""
                + string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        switch value {
        case .integer(let number): return String(number)
        case .double(let number): return number.isFinite ? "\(number)" : nil
        case .decimal(let digits): return digits
        case .boolean(let flag): return flag ? "true" : "false"
        case .string(let string), .uri(let string): return text(string)
        case .date(let seconds): return "date(\(seconds))"
        case .uuid(let uuid): return "uuid(\(text(uuid.uuidString)))"
        case .binary: return nil
        }
    }

    private static func entityMapping(
        from sourceEntity: Entity,
        in source: ModelVersion,
        to entity: Entity,
        in destination: ModelVersion,
        chain: RenameChain,
        problems: inout [InferenceError.Problem]
    ) -> (EntityMapping, LightweightPlan.EntityCorrespondence) {
        var attributeSources: [String: String?] = [:]
        var relationshipSources: [String: String?] = [:]
        var isCopy = sourceEntity.name == entity.name
        var attributes: [PropertyMapping] = []
        for attribute in destination.attributes(of: entity.name) where !attribute.isTransient {
            let sourceAttribute = chain.sourceProperty(attribute.name, of: entity.name)
                .flatMap { source.attribute($0, of: sourceEntity.name) }
            guard let sourceAttribute, !sourceAttribute.isTransient else {
                isCopy = false
                if !attribute.isOptional && attribute.defaultValue == nil {
                    problems.append(
                        .init(
                            entity: entity.name, property: attribute.name, rule: .requiredWithoutDefault,
                            detail: "a new required attribute needs a default value"))
                }
                attributes.append(PropertyMapping(name: attribute.name, valueExpression: nil))
                attributeSources[attribute.name] = .some(nil)
                continue
            }
            if sourceAttribute.type != attribute.type {
                problems.append(
                    .init(
                        entity: entity.name, property: attribute.name, rule: .typeChange,
                        detail: "\(sourceAttribute.type.rawValue) → \(attribute.type.rawValue)"))
            }
            if sourceAttribute.isOptional && !attribute.isOptional && attribute.defaultValue == nil {
                problems.append(
                    .init(
                        entity: entity.name, property: attribute.name, rule: .requiredWithoutDefault,
                        detail: "made required without a default value for the objects that have none"))
            }
            if sourceAttribute.name != attribute.name { isCopy = false }
            attributeSources[attribute.name] = sourceAttribute.name
            var expression = "$source.\(sourceAttribute.name)"
            if sourceAttribute.isOptional && !attribute.isOptional,
                let fill = attribute.defaultValue.flatMap(Self.expressionLiteral)
            {
                // Made required with a default: the objects that had none get the default, as Core Data does.
                expression = "coalesce(\(expression), \(fill))"
                isCopy = false
            }
            attributes.append(PropertyMapping(name: attribute.name, valueExpression: expression))
        }
        var relationships: [PropertyMapping] = []
        for relationship in destination.relationships(of: entity.name) where !relationship.isTransient {
            let sourceRelationship = chain.sourceProperty(relationship.name, of: entity.name)
                .flatMap { source.relationship($0, of: sourceEntity.name) }
            guard let sourceRelationship, !sourceRelationship.isTransient else {
                isCopy = false
                if !relationship.isOptional || relationship.minCount > 0 {
                    problems.append(
                        .init(
                            entity: entity.name, property: relationship.name, rule: .requiredWithoutDefault,
                            detail: "a new required relationship cannot be filled by a lightweight migration"))
                }
                relationships.append(PropertyMapping(name: relationship.name, valueExpression: nil))
                relationshipSources[relationship.name] = .some(nil)
                continue
            }
            if sourceRelationship.isToMany && !relationship.isToMany {
                problems.append(
                    .init(
                        entity: entity.name, property: relationship.name, rule: .toManyToToOne,
                        detail: "'\(sourceRelationship.name)' held many objects; '\(relationship.name)' holds one"))
            }
            let mappedDestination = chain.entities[relationship.destination]
            if mappedDestination.map({
                !source.entity(sourceRelationship.destination, isKindOf: $0)
                    && !source.entity($0, isKindOf: sourceRelationship.destination)
            }) ?? true {
                problems.append(
                    .init(
                        entity: entity.name, property: relationship.name, rule: .destinationChange,
                        detail: "pointed at '\(sourceRelationship.destination)', now at '\(relationship.destination)'"))
            }
            if sourceRelationship.name != relationship.name || sourceRelationship.isToMany != relationship.isToMany
                || sourceRelationship.isOrdered != relationship.isOrdered
            {
                isCopy = false
            }
            let expression =
                "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", "
                + "\"\(sourceRelationship.name)\", $source.\(sourceRelationship.name))"
            relationships.append(PropertyMapping(name: relationship.name, valueExpression: expression))
            relationshipSources[relationship.name] = sourceRelationship.name
        }
        if source.attributes(of: sourceEntity.name).filter({ !$0.isTransient }).count != attributes.count
            || source.relationships(of: sourceEntity.name).filter({ !$0.isTransient }).count != relationships.count
        {
            isCopy = false
        }
        let correspondence = LightweightPlan.EntityCorrespondence(
            destination: entity.name, source: sourceEntity.name, attributes: attributeSources,
            relationships: relationshipSources)
        let mapping = EntityMapping(
            name: "\(sourceEntity.name)To\(entity.name)",
            kind: isCopy ? .copy : .transform,
            sourceEntity: sourceEntity.name,
            destinationEntity: entity.name,
            sourceEntityVersionHash: source.versionHashes[sourceEntity.name],
            destinationEntityVersionHash: destination.versionHashes[entity.name],
            attributeMappings: attributes,
            relationshipMappings: relationships)
        return (mapping, correspondence)
    }
}
