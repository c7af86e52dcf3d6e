public import ArgumentParser
import Foundation
import MappingModel
public import MigrationEngine
import ObjectModel
public import ScenarioRunner

extension PassMode: ExpressibleByArgument {}
extension StorageMode: ExpressibleByArgument {}
extension MigrationPath: ExpressibleByArgument {}
extension BenchmarkMigrationMode: ExpressibleByArgument {}

/// The options that say where a store migrates to and how: `plan` and `migrate` share them.
struct ChainOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The store (an SQLite file in Core Data's layout).", valueName: "store"))
    var store: String

    @OptionGroup var model: ModelOptions

    @Option(
        name: .long,
        help: ArgumentHelp("The version to migrate to (default: the model's current version).", valueName: "version"))
    var to: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The migration chain, as versions oldest first separated by commas (V1,V2,V3). Repeat it for a tree: "
                + "paths that join and lead to one version. Default: the model's versions in order.",
            valueName: "versions"))
    var chain: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A mapping model for a heavyweight step: a YAML/JSON file naming its versions, or an Xcode "
                + ".xcmappingmodel or .cdm placed by its entity hashes. Several for one step run as passes, in "
                + "order. Steps without one use a mapping model found beside an Xcode bundle, or are inferred.",
            valueName: "file"))
    var mapping: [String] = []

    @OptionGroup var policies: PolicyOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "direct: Core Data's path, one step from the store's version to the target (the mapping model whose "
                + "hashes match both ends, else inferred); chained: one step per version, as a progressive "
                + "migration. Default: chained when the --mapping files given each cover one consecutive step, "
                + "else direct.",
            valueName: "direct|chained"))
    var path: MigrationPath?

    @Option(name: .long, help: "How a heavyweight step's mapping model is split into passes: single or per-entity.")
    var passes: PassMode = .single

    /// The model history and a migrator set up from these options.
    func migrator() throws -> StoreMigrator {
        let history = try model.load()
        let chain = try chain.isEmpty ? nil : MigrationChain(paths: self.chain.map(Self.versions))
        let walk = try chain ?? MigrationChain(history.versions.map(\.name))
        let loaded = try MappingModelLoader.load(
            paths: mapping, for: history, modelPath: model.model, bindings: try policies.bindings(),
            takesStep: { walk.leads(from: $0, to: $1) && !history.areIdentical($0, $1) },
            stale: { printError("warning: \($0)") })
        let (mappings, unbound) = policies.unboundPolicies.apply(to: loaded, registered: PolicyRegistry.builtIn().names)
        for policy in unbound { printError("warning: policyNotSimulated: \(policy.message)") }
        var migrator = try StoreMigrator(history: history, chain: chain, mappingModels: mappings)
        if let path {
            migrator.path = path
        } else {
            // Chosen from the files given: mapping models found beside a bundle are Core Data's to pick.
            (migrator.path, migrator.pathReason) = StoreMigrator.automaticPath(
                given: Array(mappings.prefix(mapping.count)), chain: walk)
        }
        migrator.passes = passes
        return migrator
    }

    private static func versions(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
