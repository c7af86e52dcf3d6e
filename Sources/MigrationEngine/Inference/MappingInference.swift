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
}
