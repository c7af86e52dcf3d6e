import ObjectModel

/// A mapping model, like Core Data's `NSMappingModel`: the ordered entity mappings that migrate a store from
/// one model version to another.
///
/// Read one from a YAML or JSON file with ``MappingModelLoader``, then check it against the two versions with
/// ``validated(source:destination:policies:environment:)`` before anything runs.
public struct MappingModel: Sendable, Hashable {
    /// The mapping model's name (by default, the file name without its extension).
    public var name: String
    /// The name of the model version this mapping migrates from; checked when given.
    public var sourceVersion: String?
    /// The name of the model version this mapping migrates to; checked when given.
    public var destinationVersion: String?
    /// The entity mappings, in the order in which they run.
    public var entityMappings: [EntityMapping]
    /// Where the mapping was read from, so that validation errors can name the file and line.
    var lines = MappingFileLines()
    /// For an Xcode mapping model, the entity hashes of the model copies it embeds, which identify its versions.
    var embedded: EmbeddedModels?

    /// Creates a mapping model.
    public init(
        name: String,
        sourceVersion: String? = nil,
        destinationVersion: String? = nil,
        entityMappings: [EntityMapping]
    ) {
        self.name = name
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.entityMappings = entityMappings
    }

    /// The file the mapping was read from, if any.
    public var file: String? { lines.file }

    /// The entity mapping named `name`.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }
}
