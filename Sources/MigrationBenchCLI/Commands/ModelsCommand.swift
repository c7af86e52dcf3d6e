import ArgumentParser
import Foundation
import ObjectModel

/// `migration-bench models`: the versions of a model and each entity's shape and version hash.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List a model's versions in order, the current one, and each entity's version hash.",
        discussion: """
            The model is an Xcode .xcdatamodeld bundle, a single .xcdatamodel folder, or a YAML/JSON model file \
            (see the README). Version hashes are computed exactly as Core Data computes them, so they can be \
            compared with the NSStoreModelVersionHashes of a real store.
            """)

    @Argument(help: ArgumentHelp("The model to read.", valueName: "model path"))
    var model: String

    @Option(name: .long, parsing: .upToNextOption, help: "The order of the versions, oldest first.")
    var order: [String] = []

    @Option(name: .long, help: "Treat this version as the current one.")
    var current: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingInputErrors {
            let history = try ModelLoader.load(path: model, currentVersion: current, order: order.isEmpty ? nil : order)
            let listing = ModelListing(history: history)
            if json {
                try printJSON(listing)
                return
            }
            for version in listing.versions {
                let marker = version.name == listing.currentVersion ? "  (current)" : ""
                print("\(version.name)\(marker)")
                for entity in version.entities {
                    var shape = "\(entity.attributes) attributes, \(entity.relationships) relationships"
                    if let parent = entity.parent { shape += ", parent \(parent)" }
                    if entity.abstract { shape += ", abstract" }
                    print(
                        "  \(entity.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(entity.versionHash)  \(shape)"
                    )
                }
            }
            for version in history.versions {
                for warning in version.warnings { printError("warning: version '\(version.name)': \(warning)") }
            }
        }
    }
}

/// The JSON of `models --json`.
struct ModelListing: Encodable {
    struct Version: Encodable {
        let name: String
        let entities: [Entity]
    }

    struct Entity: Encodable {
        let name: String
        let parent: String?
        let abstract: Bool
        let attributes: Int
        let relationships: Int
        let versionHash: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(parent, forKey: .parent)  // null for a root, not left out
            try container.encode(abstract, forKey: .abstract)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(relationships, forKey: .relationships)
            try container.encode(versionHash, forKey: .versionHash)
        }

        enum CodingKeys: String, CodingKey {
            case name, parent, abstract, attributes, relationships, versionHash
        }
    }

    let currentVersion: String
    let versions: [Version]

    init(history: ModelHistory) {
        currentVersion = history.currentVersionName
        versions = history.versions.map { version in
            Version(
                name: version.name,
                entities: version.entities.map { entity in
                    Entity(
                        name: entity.name,
                        parent: entity.parent,
                        abstract: entity.isAbstract,
                        attributes: version.attributes(of: entity.name).count,
                        relationships: version.relationships(of: entity.name).count,
                        versionHash: version.versionHashes[entity.name]!.hex)
                })
        }
    }
}
