public import ObjectModel

/// The entity version hashes of the two model copies an Xcode mapping model embeds, and the version names its
/// recorded model paths give (`shared/formats/xcmappingmodel.md` §4).
struct EmbeddedModels: Sendable, Hashable {
    var source: [String: VersionHash]
    var destination: [String: VersionHash]
    var sourceName: String?
    var destinationName: String?
}

/// Which versions of a model history a mapping model belongs to, found by entity version hashes.
public struct VersionMatch: Sendable, Hashable {
    /// One side of the mapping.
    public struct Side: Sendable, Hashable {
        /// The version whose entity hashes equal the mapping's, or nil when none does.
        public var version: String?
        /// The version the mapping names (its recorded path), if any.
        public var named: String?
        /// When no version matches: the entities whose hashes differ from the named version's (or, when it
        /// names none the history has, from the closest version's).
        public var differingEntities: [String]
    }

    /// The source side.
    public var source: Side
    /// The destination side.
    public var destination: Side

    /// Whether a side matches no version: Core Data would not find this mapping model and fall back to inference.
    public var isStale: Bool { source.version == nil || destination.version == nil }
}

extension MappingModel {
    /// Whether the mapping carries entity hashes (an Xcode `.xcmappingmodel` or `.cdm`) to identify its versions by.
    public var identifiesVersionsByHash: Bool {
        embedded != nil || entityMappings.contains { $0.sourceEntityVersionHash != nil }
    }

    /// The versions of `history` whose entity hashes equal those the mapping was made with — the whole
    /// embedded model for an `.xcmappingmodel`, each entity mapping's hashes for a `.cdm` — as Core Data
    /// matches mapping models at run time; the recorded names break ties between identical versions.
    public func versionMatch(in history: ModelHistory) -> VersionMatch {
        var sourceHashes: [String: VersionHash] = [:]
        var destinationHashes: [String: VersionHash] = [:]
        for mapping in entityMappings {
            if let entity = mapping.sourceEntity { sourceHashes[entity] = mapping.sourceEntityVersionHash }
            if let entity = mapping.destinationEntity {
                destinationHashes[entity] = mapping.destinationEntityVersionHash
            }
        }
        let whole = embedded != nil
        return VersionMatch(
            source: Self.side(embedded?.source ?? sourceHashes, whole: whole, named: sourceVersion, in: history),
            destination: Self.side(
                embedded?.destination ?? destinationHashes, whole: whole, named: destinationVersion, in: history))
    }

    private static func side(
        _ hashes: [String: VersionHash],
        whole: Bool,
        named: String?,
        in history: ModelHistory
    ) -> VersionMatch.Side {
        func differences(_ version: ModelVersion) -> [String] {
            let names = whole ? Set(hashes.keys).union(version.versionHashes.keys) : Set(hashes.keys)
            return names.filter { hashes[$0] != version.versionHashes[$0] }.sorted()
        }
        let matching = history.versions.filter { differences($0).isEmpty }
        if let version = matching.first(where: { $0.name == named }) ?? matching.first {
            return VersionMatch.Side(version: version.name, named: named, differingEntities: [])
        }
        let compared =
            named.flatMap { history.version(named: $0) }
            ?? history.versions.min { differences($0).count < differences($1).count }
        return VersionMatch.Side(version: nil, named: named, differingEntities: compared.map(differences) ?? [])
    }

    /// The mapping with its source and destination versions set to those of `history` that its entity hashes
    /// identify; a mapping without hashes is returned as it is.
    ///
    /// - Throws: ``MappingError/Code/staleMapping`` when a side matches no version, naming the version the
    ///   mapping names and the entities whose hashes differ.
    public func identifyingVersions(in history: ModelHistory) throws(MappingError) -> MappingModel {
        guard identifiesVersionsByHash else { return self }
        let match = versionMatch(in: history)
        for (side, result) in [("source", match.source), ("destination", match.destination)] where result.version == nil
        {
            let named = result.named.map { "names version '\($0)'" } ?? "names no version"
            throw MappingError(
                .staleMapping,
                "the mapping model is stale: its \(side) model matches no version of \(history.source ?? "the model") "
                    + "by entity hashes (it \(named); entities that differ: "
                    + "\(result.differingEntities.joined(separator: ", "))); Core Data would skip it and infer the step",
                file: file)
        }
        var identified = self
        identified.sourceVersion = match.source.version
        identified.destinationVersion = match.destination.version
        return identified
    }
}
