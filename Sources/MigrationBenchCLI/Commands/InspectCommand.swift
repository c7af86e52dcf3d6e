import ArgumentParser
import Foundation
import ObjectModel
import PersistentStore

/// `migration-bench inspect`: what a store holds and which model version it is at.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's entity version hashes and row counts, and the model version it matches.",
        discussion: """
            Reads the store without changing it; works on stores written by Core Data and by this tool. \
            With --model, the store's hashes are compared with every version of the model, exactly as Core Data \
            decides compatibility; when none matches, the entities that differ are listed per version.
            """)

    @Argument(help: ArgumentHelp("The store file.", valueName: "store"))
    var store: String

    @Option(name: .long, help: ArgumentHelp("A model to place the store in.", valueName: "path"))
    var model: String?

    @Option(name: .long, parsing: .upToNextOption, help: "The order of the model's versions, oldest first.")
    var order: [String] = []

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingInputErrors {
            let history = try model.map { path throws(ModelError) in
                try ModelLoader.load(path: path, order: order.isEmpty ? nil : order)
            }
            let inspection = try WriteAheadLog.leavingNoSidecars(of: [store]) {
                try StoreInspection.inspect(path: store)
            }
            let match = history.flatMap { inspection.matchingVersion(in: $0) }
            let report = InspectReport(inspection: inspection, matchingVersion: match?.name, history: history)
            if json {
                try printJSON(report)
                return
            }
            print("\(store)")
            if let frameworkVersion = inspection.metadata.frameworkVersion {
                print("  written by Core Data (framework version \(frameworkVersion))")
            }
            for entity in inspection.entities {
                let hash = inspection.metadata.versionHashes[entity.name]?.hex ?? "(no hash)"
                print(
                    "  \(entity.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(hash)  "
                        + "\(ProgressBar.grouped(entity.rowCount)) rows")
            }
            guard history != nil else { return }
            if let match {
                print("  matches model version '\(match.name)'")
            } else {
                print("  matches no version of the model:")
                for mismatch in report.mismatches ?? [] {
                    print("    \(mismatch.version): entities that differ: \(mismatch.entities.joined(separator: ", "))")
                }
            }
        }
    }
}

/// The JSON of `inspect --json`.
struct InspectReport: Encodable {
    struct Mismatch: Encodable {
        let version: String
        let entities: [String]
    }

    let entityVersionHashes: [String: String]
    let entities: [String: Int]
    let matchingVersion: String?
    /// Present when a model was given and no version matched: per version, the entities whose hashes differ.
    let mismatches: [Mismatch]?

    init(inspection: StoreInspection, matchingVersion: String?, history: ModelHistory?) {
        entityVersionHashes = inspection.metadata.versionHashes.mapValues(\.hex)
        entities = Dictionary(uniqueKeysWithValues: inspection.entities.map { ($0.name, $0.rowCount) })
        self.matchingVersion = matchingVersion
        if let history, matchingVersion == nil {
            mismatches = inspection.mismatches(in: history).map { Mismatch(version: $0.version, entities: $0.entities) }
        } else {
            mismatches = nil
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entityVersionHashes, forKey: .entityVersionHashes)
        try container.encode(entities, forKey: .entities)
        try container.encode(matchingVersion, forKey: .matchingVersion)  // null when none matches
        try container.encodeIfPresent(mismatches, forKey: .mismatches)
    }

    enum CodingKeys: String, CodingKey {
        case entityVersionHashes, entities, matchingVersion, mismatches
    }
}
