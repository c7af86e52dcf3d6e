import ArgumentParser
import Foundation
import MappingModel
import ObjectModel

/// `migration-bench mappings`: a mapping model as MigrationBench reads it.
struct MappingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mappings",
        abstract: "Print a mapping model as read: its versions, entity mappings, kinds, policies and expressions.",
        discussion: """
            The file is an Xcode .xcmappingmodel (or its xcmapping.xml), a compiled .cdm, or a YAML/JSON mapping \
            file. With --model, the source and destination versions are those whose entity version hashes equal \
            the ones the mapping was made with, as Core Data matches them; a mapping that matches no version is \
            reported as stale, with the entities whose hashes differ.
            """)

    @Argument(help: ArgumentHelp("The mapping model to read.", valueName: "file"))
    var file: String

    @Option(
        name: .long,
        help: ArgumentHelp("The model whose versions the mapping is matched against by hash.", valueName: "path"))
    var model: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingInputErrors {
            let mapping = try MappingModelLoader.load(path: file)
            var listing = MappingListing(mapping)
            if let model {
                let match = mapping.versionMatch(in: try ModelLoader.load(path: model))
                listing.sourceVersion = match.source.version ?? match.source.named
                listing.destinationVersion = match.destination.version ?? match.destination.named
                listing.stale = match.isStale
                listing.staleEntities =
                    match.isStale
                    ? Array(Set(match.source.differingEntities + match.destination.differingEntities)).sorted() : nil
            }
            if json {
                try printJSON(listing)
                return
            }
            print("\(listing.name): \(listing.sourceVersion ?? "?") → \(listing.destinationVersion ?? "?")")
            if let entities = listing.staleEntities {
                print(
                    "stale: no version matches by entity hashes; entities that differ: \(entities.joined(separator: ", "))"
                )
            }
            for entity in listing.entityMappings {
                let policy = entity.policy.map { ", policy \($0)" } ?? ""
                print(
                    "  \(entity.name) (\(entity.kind)\(policy)): \(entity.source ?? "—") → \(entity.destination ?? "—")"
                )
                for (name, expression) in entity.attributes.sorted(by: { $0.key < $1.key }) {
                    print("    \(name) = \(expression ?? "(none)")")
                }
                for (name, expression) in entity.relationships.sorted(by: { $0.key < $1.key }) {
                    print("    \(name) = \(expression ?? "(none)")")
                }
            }
        }
    }
}

/// The JSON of `mappings --json`.
struct MappingListing: Encodable {
    struct Entity: Encodable {
        let name: String
        let kind: String
        let source: String?
        let destination: String?
        let policy: String?
        let attributes: [String: String?]
        let relationships: [String: String?]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(kind, forKey: .kind)
            try container.encode(source, forKey: .source)  // null, not left out
            try container.encode(destination, forKey: .destination)
            try container.encode(policy, forKey: .policy)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(relationships, forKey: .relationships)
        }

        enum CodingKeys: String, CodingKey {
            case name, kind, source, destination, policy, attributes, relationships
        }
    }

    let name: String
    var sourceVersion: String?
    var destinationVersion: String?
    var stale = false
    var staleEntities: [String]?
    let entityMappings: [Entity]

    init(_ model: MappingModel) {
        name = model.name
        sourceVersion = model.sourceVersion
        destinationVersion = model.destinationVersion
        entityMappings = model.entityMappings.map { mapping in
            Entity(
                name: mapping.name, kind: mapping.kind.rawValue, source: mapping.sourceEntity,
                destination: mapping.destinationEntity, policy: mapping.policy,
                attributes: Dictionary(
                    uniqueKeysWithValues: mapping.attributeMappings.map { ($0.name, $0.valueExpression) }),
                relationships: Dictionary(
                    uniqueKeysWithValues: mapping.relationshipMappings.map { ($0.name, $0.valueExpression) }))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(sourceVersion, forKey: .sourceVersion)
        try container.encode(destinationVersion, forKey: .destinationVersion)
        try container.encode(stale, forKey: .stale)
        try container.encodeIfPresent(staleEntities, forKey: .staleEntities)
        try container.encode(entityMappings, forKey: .entityMappings)
    }

    enum CodingKeys: String, CodingKey {
        case name, sourceVersion, destinationVersion, stale, staleEntities, entityMappings
    }
}
