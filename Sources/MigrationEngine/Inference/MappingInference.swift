import Foundation
public import MappingModel
public import ObjectModel

/// Infers the mapping of a lightweight migration exactly as Core Data's
/// `inferredMappingModel(forSourceModel:destinationModel:)` decides it (`formats/lightweight.md`).
///
/// Entities, and properties inside each pair of entities, correspond when they share a renaming identifier
/// (an unset one being the name), whatever versions lie between. Refused, with entity, property and reason
/// (Core Data's 134190): incompatible attribute types, a to-many made to-one, external binary data moved into
/// the store, renaming identifiers shared within one side — and, by Apple's rule for lightweight migration,
/// entities of several inheritance trees moved into one. Everything else is inferred: a required value that
/// existing objects cannot have is flagged (``LightweightChange/Kind/needsValue``) and checked when the step
/// runs, and what Core Data drops without an error is listed as ``LightweightChange/Kind/dataLoss``.
public enum MappingInference {
    /// The mapping from `source` to `destination`.
    public static func infer(
        from source: ModelVersion, to destination: ModelVersion
    ) throws(InferenceError)
        -> MappingModel
    {
        try plan(from: source, to: destination).mappingModel
    }

    /// The correspondence of a lightweight migration from `source` to `destination`, with its changes.
    public static func plan(
        from source: ModelVersion, to destination: ModelVersion
    ) throws(InferenceError)
        -> LightweightPlan
    {
        var run = LightweightInference(source: source, destination: destination)
        run.inferEntities()
        guard run.problems.isEmpty else {
            throw InferenceError(source: source.name, destination: destination.name, problems: run.problems)
        }
        let model = MappingModel(
            name: "Inferred \(source.name) → \(destination.name)", sourceVersion: source.name,
            destinationVersion: destination.name, entityMappings: run.mappings)
        return LightweightPlan(
            source: source, destination: destination, entities: run.correspondences, addedEntities: run.added,
            removedEntities: run.removed, changes: run.changes, mappingModel: model)
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
}

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

    init(source: ModelVersion, destination: ModelVersion) {
        self.source = source
        self.destination = destination
    }

    mutating func inferEntities() {
        let match = RenamingMatch(
            source: source.entities, destination: destination.entities, key: \.renamingKey, name: \.name)
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
            } else if let newcomer = addedConcrete.first {
                note(
                    entity.name, nil, .dataLoss,
                    "removed while '\(newcomer.name)' is added, and no renaming identifier pairs them: "
                        + "its objects are dropped")
            } else {
                note(entity.name, nil, .removed, "its objects are dropped")
            }
            mappings.append(
                EntityMapping(
                    name: "Remove\(entity.name)", kind: .remove, sourceEntity: entity.name, destinationEntity: nil,
                    sourceEntityVersionHash: source.versionHashes[entity.name]))
        }
    }

    mutating func refuse(_ entity: String, _ property: String?, _ rule: InferenceError.Rule, _ detail: String) {
        problems.append(.init(entity: entity, property: property, rule: rule, detail: detail))
    }

    mutating func note(_ entity: String, _ property: String?, _ kind: LightweightChange.Kind, _ detail: String) {
        changes.append(LightweightChange(entity: entity, property: property, change: kind, detail: detail))
    }
}
