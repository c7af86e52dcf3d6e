public import MappingModel

/// Splits a mapping model into several passes, for stores too large to migrate in one.
public enum PassSplit {
    /// One mapping model per entity mapping, in order: each pass holds one entity's objects in memory at most.
    ///
    /// Relationships between objects made in different passes are resolved through the associations of the
    /// earlier passes (``CrossPassRelationships/resolve``); Core Data cannot do this, and
    /// ``CrossPassRelationships/coreData`` reproduces its behaviour, leaving such relationships empty.
    public static func perEntity(_ model: MappingModel) -> [MappingModel] {
        model.entityMappings.enumerated().map { index, mapping in
            MappingModel(
                name: "\(model.name) (pass \(index + 1): \(mapping.name))", sourceVersion: model.sourceVersion,
                destinationVersion: model.destinationVersion, entityMappings: [mapping])
        }
    }
}
