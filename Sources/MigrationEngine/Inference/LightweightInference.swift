import MappingModel
import ObjectModel

/// One inference in progress: the entity mappings, correspondences, changes and problems found so far.
struct LightweightInference {
    let source: ModelVersion
    let destination: ModelVersion
    var problems: [InferenceError.Problem] = []
    var changes: [LightweightChange] = []
    var mappings: [EntityMapping] = []
    var correspondences: [LightweightPlan.EntityCorrespondence] = []
    var added: [String] = []
    var removed: [String] = []
    /// Source entity → the destination entity it corresponds to.
    private(set) var destinationOf: [String: String] = [:]

    /// Whether the two versions have equal entity hashes. Core Data then migrates nothing (the store is
    /// compatible as it is), so a renaming identifier that only one of them sets is never looked at
    /// (lightweight.md §2.1): entities and properties pair by name.
    let pairsByName: Bool

    init(source: ModelVersion, destination: ModelVersion) {
        self.source = source
        self.destination = destination
        pairsByName = source.versionHashes == destination.versionHashes
    }

    mutating func inferEntities() {
        let match = RenamingMatch(
            source: source.entities, destination: destination.entities,
            key: pairsByName ? \.name : \.renamingKey, name: \.name)
        for key in match.duplicateSourceKeys {
            refuse(key, nil, .duplicateRenamingIdentifier, "Each source entity must have a unique renaming identifier")
        }
        for key in match.duplicateDestinationKeys {
            refuse(
                key, nil, .duplicateRenamingIdentifier, "Each destination entity must have a unique renaming identifier"
            )
        }
        for entity in destination.entities {
            if let counterpart = match.sources[entity.name] { destinationOf[counterpart.name] = entity.name }
        }
        let addedConcrete = destination.entities.filter { !$0.isAbstract && match.sources[$0.name] == nil }
        var sourceRootsByDestinationRoot: [String: Set<String>] = [:]
        for entity in destination.entities where !entity.isAbstract {
            guard let sourceEntity = match.sources[entity.name] else {
                added.append(entity.name)
                note(entity.name, nil, .added, "a new entity: it starts without objects")
                mappings.append(
                    EntityMapping(
                        name: "Add\(entity.name)", kind: .add, sourceEntity: nil, destinationEntity: entity.name,
                        destinationEntityVersionHash: destination.versionHashes[entity.name]))
                continue
            }
            if sourceEntity.name != entity.name {
                note(
                    entity.name, nil, .renamed,
                    "from '\(sourceEntity.name)' (renaming identifier '\(entity.renamingKey)')")
            }
            sourceRootsByDestinationRoot[destination.root(of: entity.name), default: []].insert(
                source.root(of: sourceEntity.name))
            inferProperties(from: sourceEntity, to: entity)
        }
        for (root, sourceRoots) in sourceRootsByDestinationRoot.sorted(by: { $0.key < $1.key })
        where sourceRoots.count > 1 {
            // Apple: "if two existing entities do not share a common parent in the source, they cannot share a
            // common parent in the destination" (the lightweight migration guide).
            refuse(
                root, nil, .mergedHierarchies,
                "entities of the source trees \(sourceRoots.sorted().joined(separator: ", ")) end up under '\(root)'")
        }
        for entity in source.entities where !entity.isAbstract {
            let counterpart = destinationOf[entity.name].flatMap { destination.entity(named: $0) }
            if counterpart?.isAbstract == false { continue }
            removed.append(entity.name)
            if let counterpart {
                note(entity.name, nil, .removed, "made abstract as '\(counterpart.name)': its own objects are dropped")
            } else if let namesake = addedConcrete.first(where: {
                $0.name == entity.name || $0.renamingKey == entity.name
            }) {
                note(
                    entity.name, nil, .dataLoss,
                    "its renaming identifier '\(entity.renamingKey)' pairs it with nothing, while '\(namesake.name)' "
                        + "(renaming identifier '\(namesake.renamingKey)') is added: its objects are dropped")
            } else if let newcomer = addedConcrete.first(where: { sameAttributes(entity, $0) }) {
                note(
                    entity.name, nil, .dataLoss,
                    "removed while '\(newcomer.name)', with the same attributes, is added, and no renaming "
                        + "identifier pairs them: its objects are dropped")
            } else {
                note(entity.name, nil, .removed, "its objects are dropped")
            }
            mappings.append(
                EntityMapping(
                    name: "Remove\(entity.name)", kind: .remove, sourceEntity: entity.name, destinationEntity: nil,
                    sourceEntityVersionHash: source.versionHashes[entity.name]))
        }
    }

    /// Whether the source entity `old` and the destination entity `new` have the same stored attributes (names
    /// and types): a likely rename of an entity without a renaming identifier.
    func sameAttributes(_ old: Entity, _ new: Entity) -> Bool {
        func attributes(_ entity: String, _ version: ModelVersion) -> [String: AttributeType] {
            Dictionary(
                version.storedAttributes(of: entity).map { ($0.name, $0.type) },
                uniquingKeysWith: { first, _ in first })
        }
        let before = attributes(old.name, source)
        return !before.isEmpty && before == attributes(new.name, destination)
    }

    mutating func refuse(_ entity: String, _ property: String?, _ rule: InferenceError.Rule, _ detail: String) {
        problems.append(.init(entity: entity, property: property, rule: rule, detail: detail))
    }

    mutating func note(_ entity: String, _ property: String?, _ kind: LightweightChange.Kind, _ detail: String) {
        changes.append(LightweightChange(entity: entity, property: property, change: kind, detail: detail))
    }
}
