import DataGeneration
package import IntegrityVerification
package import MappingModel
public import MigrationEngine
package import ObjectModel
import PersistentStore

/// A scenario's files, loaded and checked: the model history, the dataset, the mapping models.
package struct ScenarioSetup {
    let scenario: Scenario
    let history: ModelHistory
    let dataset: Dataset
    let mappingModels: [MappingModel]
    /// The entity mappings run with the base policy because their policy class is bound to nothing.
    let unboundPolicies: [UnboundPolicy]

    /// Loads everything the scenario names; every error names the file it came from.
    init(scenario: Scenario) throws {
        self.scenario = scenario
        history = try ModelLoader.load(path: scenario.model)
        if let value = scenario.datasetValue {
            dataset = value
        } else if let store = scenario.datasetLike {
            dataset = try StoreShape.read(path: store, history: history).dataset()
        } else {
            dataset =
                try scenario.dataset.map { path throws(GenerationError) in try Dataset.load(path: path) } ?? Dataset()
        }
        let chain = try MigrationChain(scenario.chain)
        let history = history
        let loaded = try MappingModelLoader.load(
            paths: scenario.mappings, for: history, modelPath: scenario.model, bindings: scenario.policies,
            takesStep: { chain.leads(from: $0, to: $1) && !history.areIdentical($0, $1) })
        (mappingModels, unboundPolicies) = scenario.unboundPolicies.apply(
            to: loaded, registered: PolicyRegistry.builtIn().names)
    }

    /// A migrator over the scenario's chain and mapping models.
    func migrator() throws -> StoreMigrator {
        try StoreMigrator(history: history, chain: try MigrationChain(scenario.chain), mappingModels: mappingModels)
    }

    /// Checks the store a step made against the store it started from, with the verifier, which re-derives
    /// its expectations on its own: from the mapping files of a heavyweight step, and from the two versions for
    /// a lightweight one.
    func verify(
        _ step: MigrationStepPlan, source: String, destination: String, onOneThread: Bool = false
    ) throws -> VerificationResult {
        try Self.verify(
            step, history: history, mappingModels: mappingModels, source: source, destination: destination,
            onOneThread: onOneThread)
    }

    /// Checks the store `step` made at `destination` against `source`, as ``verify(_:source:destination:onOneThread:)``;
    /// `onOneThread` runs every check on the calling thread (see `IntegrityVerifier.runsOnOneThread`).
    package static func verify(
        _ step: MigrationStepPlan, history: ModelHistory, mappingModels: [MappingModel], source: String,
        destination: String, onOneThread: Bool = false
    ) throws -> VerificationResult {
        let models = StoreMigrator.mappingModels(mappingModels, from: step.from, to: step.to, in: history)
        var verifier = try IntegrityVerifier(
            source: try history.requireVersion(step.from), destination: try history.requireVersion(step.to),
            mappingModels: step.kind == .heavyweight ? models : [])
        verifier.runsOnOneThread = onOneThread
        return try verifier.verify(sourceStoreAt: source, destinationStoreAt: destination)
    }
}

extension Scenario {
    /// Checks everything the scenario names, without running it: the model loads and has the chain's
    /// versions, the mapping files load and fit their versions, the dataset fits the first version at every size
    /// in `sizes` (default: the quick and full ones), and a plan exists for every path the scenario compares.
    ///
    /// - Returns: the plan of each path.
    /// - Throws: the first problem, naming its file.
    public func check(sizes: [Int]? = nil) throws -> [MigrationPath: MigrationPlan] {
        let setup = try ScenarioSetup(scenario: self)
        for version in chain where setup.history.version(named: version) == nil {
            throw ScenarioError(
                file: file, line: nil,
                message: "'chain' names version '\(version)', which \(model) lacks (it has: "
                    + setup.history.versions.map(\.name).joined(separator: ", ") + ")")
        }
        if let store {
            // Read where it is, as `inspect` reads: nothing of it changes, and no sidecar is left beside it.
            let metadata: StoreMetadata
            do {
                metadata = try WriteAheadLog.leavingNoSidecars(of: [store]) { try Store.metadata(at: store) }
            } catch {
                throw ScenarioError(
                    file: file, line: nil, message: "'store' names \(store), which is not a Core Data store: \(error)")
            }
            let version = setup.history.version(matching: metadata.versionHashes)?.name
            guard version == chain[0] else {
                let found = version.map { "version \($0)" } ?? "no version of \(model)"
                throw ScenarioError(
                    file: file, line: nil,
                    message:
                        "'store' names \(store), which is at \(found), not at the chain's first version \(chain[0])")
            }
        }
        if store == nil {
            for size in Set(sizes ?? quickSizes + fullSizes).sorted() {
                let version = try setup.history.requireVersion(chain[0])
                _ = try StoreGenerator(
                    version: version, dataset: setup.dataset.applying(to: version, in: setup.history), size: size)
            }
        }
        var plans: [MigrationPath: MigrationPlan] = [:]
        for path in modes.path {
            var migrator = try setup.migrator()
            migrator.path = path
            let plan = try migrator.plan(from: chain[0], to: chain[chain.count - 1])
            for step in plan.steps where step.kind == .heavyweight {
                let source = try setup.history.requireVersion(step.from)
                let destination = try setup.history.requireVersion(step.to)
                _ = try MigrationManager(source: source, destination: destination).compile(step.mappingModels)
            }
            plans[path] = plan
        }
        return plans
    }
}
