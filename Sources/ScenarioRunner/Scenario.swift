public import DataGeneration
import Foundation
public import MappingModel
public import MigrationEngine
import ObjectModel
public import ReportModel

/// A scenario file: a model history, the chain to migrate across, the dataset, the sizes, the modes to
/// compare and what must hold. See the README's "Scenarios" section for the format.
public struct Scenario: Sendable, Hashable {
    /// Unique within the catalog; the report's key.
    public let name: String
    /// A short title for reports.
    public let title: String
    /// What the scenario shows.
    public let description: String
    /// The scenario file.
    public let file: String
    /// The model file or `.xcdatamodeld` bundle, resolved against the scenario's folder.
    public let model: String
    /// The versions migrated across, oldest first; the source store is generated at the first.
    public let chain: [String]
    /// Mapping files for heavyweight steps, resolved.
    public let mappings: [String]
    /// The registered policies that the policy classes named by its Xcode mapping models are bound to.
    public let policies: PolicyBindings
    /// The dataset file, resolved; nil for the generator's defaults (or ``datasetValue``).
    public let dataset: String?
    /// The dataset of a scenario built in Swift, used instead of a file.
    public var datasetValue: Dataset? = nil
    /// A store whose shape is the dataset (`dataset: { like: store }`), resolved: read with `shape` when the
    /// scenario runs.
    public var datasetLike: String? = nil
    /// A store to copy and migrate instead of generating one (`profile` uses this for the user's own store).
    public let store: String?
    /// Store sizes (objects) for a quick run and a full run.
    public let quickSizes: [Int]
    /// Store sizes for a full run.
    public let fullSizes: [Int]
    /// The modes crossed with each other.
    public internal(set) var modes: ModeMatrix
    /// How relationships across passes are treated.
    public let crossPass: CrossPassRelationships
    /// Runs per cell in a quick run.
    public let quickRepetitions: Int
    /// Runs per cell in a full run.
    public let fullRepetitions: Int
    /// What the verifier must find.
    public let integrity: IntegrityExpectation
    /// Limits that fail the run with exit code 3 when a cell exceeds them.
    public let budgets: [Budget]
    /// What runs an entity mapping whose policy class is bound to no registered policy (`unboundPolicies`).
    public internal(set) var unboundPolicies = UnboundPolicies.error
    /// The relative threshold of each count that differs from the default 1 %, keyed by metric (`thresholds`).
    public var countThresholds: [String: Double] = [:]
    /// Whether its cells count instructions under valgrind (`instructions: true`), as `run --instructions` asks.
    public var instructions = false

    /// The sizes of a quick or full run.
    public func sizes(quick: Bool) -> [Int] { quick ? quickSizes : fullSizes }

    /// The repetitions of a quick or full run.
    public func repetitions(quick: Bool) -> Int { quick ? quickRepetitions : fullRepetitions }
}

/// The lists of modes a scenario compares; every combination is a cell.
public struct ModeMatrix: Sendable, Hashable {
    /// Single-pass, or one pass per entity mapping.
    public var passes: [PassMode] = [.single]
    /// In-memory (Core Data's behaviour) or streaming.
    public var storage: [StorageMode] = [.streaming]
    /// Core Data's single step (`direct`) or one step per version (`chained`); when the scenario names none,
    /// chosen as `StoreMigrator.automaticPath(given:chain:)` chooses from the scenario's mapping models.
    public var path: [MigrationPath] = [.direct]

    /// Every combination, in a stable order.
    public var all: [CellMode] {
        path.flatMap { path in
            passes.flatMap { passes in storage.map { CellMode(passes: passes, storage: $0, path: path) } }
        }
    }
}

/// One combination of modes.
public struct CellMode: Sendable, Hashable, Codable {
    /// How heavyweight steps split into passes.
    public let passes: PassMode
    /// Where heavyweight passes keep their objects.
    public let storage: StorageMode
    /// Which path the migration takes.
    public let path: MigrationPath

    /// Creates a mode.
    public init(passes: PassMode, storage: StorageMode, path: MigrationPath) {
        self.passes = passes
        self.storage = storage
        self.path = path
    }

    /// `single+streaming+chained`, for cell ids.
    public var slug: String { "\(passes.rawValue)+\(storage.rawValue)+\(path.rawValue)" }
}

/// What the verifier must find in every cell of a scenario.
public enum IntegrityExpectation: String, Sendable, Hashable, Codable {
    /// No violation at all.
    case clean
    /// At least one violation: the scenario shows a behaviour that loses data (Core Data's cross-pass one).
    case violations
}

/// A limit on one measured figure, for the cells its condition selects.
public struct Budget: Sendable, Hashable {
    /// The figures a budget can limit (any ``MetricDefinition``), all taken as medians over the repetitions.
    public typealias Metric = MetricDefinition

    /// A name for reports.
    public let name: String
    /// What is limited.
    public let metric: Metric
    /// The highest acceptable value.
    public let max: Double
    /// Which cells the budget applies to.
    public let condition: Condition

    /// Selects cells by mode and size; nil fields select everything.
    public struct Condition: Sendable, Hashable {
        /// Only cells with this storage mode.
        public var storage: StorageMode?
        /// Only cells with this pass mode.
        public var passes: PassMode?
        /// Only cells with this path.
        public var path: MigrationPath?
        /// Only cells at least this large.
        public var minSize: Int?
        /// Only cells at most this large.
        public var maxSize: Int?

        /// Whether a cell of `mode` at `size` is selected.
        public func selects(_ mode: CellMode, size: Int) -> Bool {
            (storage.map { $0 == mode.storage } ?? true) && (passes.map { $0 == mode.passes } ?? true)
                && (path.map { $0 == mode.path } ?? true) && (minSize.map { size >= $0 } ?? true)
                && (maxSize.map { size <= $0 } ?? true)
        }
    }
}

extension Scenario {
    /// A scenario built in Swift, as a scenario file would say it, with its dataset made in Swift (one dataset for
    /// the whole chain: ``Dataset/applying(to:in:)`` leaves out what the first version lacks). Paths are used as
    /// given. Run it in this process with ``CellExecution`` or check it with ``check(sizes:)``; `run`'s child
    /// processes read scenarios from files.
    ///
    /// ```swift
    /// let scenario = try Scenario(
    ///     name: "posts", model: "Model.xcdatamodeld", chain: ["Model", "Model 2"],
    ///     dataset: Dataset(seed: 3).attribute("Post.color", nullRatio: 0), sizes: [1_000])
    /// ```
    ///
    /// - Parameters:
    ///   - modes: the modes compared; nil chooses the path as a file without `modes.path` does
    ///     (``StoreMigrator/automaticPath(given:chain:)`` over `mappings`).
    ///   - sizes: the store sizes, for quick and full runs alike.
    ///   - repetitions: runs per cell, for quick and full runs alike.
    /// - Throws: ``ScenarioError`` for a name that is not lowercase letters, digits and dashes, or a chain
    ///   shorter than two versions.
    public init(
        name: String, title: String? = nil, description: String = "", model: String, chain: [String],
        mappings: [String] = [], policies: PolicyBindings = PolicyBindings(), dataset: Dataset = Dataset(),
        sizes: [Int], repetitions: Int = 1, modes: ModeMatrix? = nil,
        crossPass: CrossPassRelationships = .resolve, integrity: IntegrityExpectation = .clean,
        budgets: [Budget] = []
    ) throws(ScenarioError) {
        let file = "scenario '\(name)' (built in Swift)"
        guard !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
            throw ScenarioError(
                file: file, line: nil, message: "'name' must be lowercase letters, digits and dashes, not '\(name)'")
        }
        guard chain.count >= 2 else {
            throw ScenarioError(file: file, line: nil, message: "'chain' must list at least two versions, oldest first")
        }
        guard (1...InputLimits.sizesPerList).contains(sizes.count), sizes.allSatisfy({ (1...InputLimits.size) ~= $0 })
        else {
            throw ScenarioError(
                file: file, line: nil,
                message: "'sizes' must list 1 to \(InputLimits.sizesPerList) sizes from 1 to \(InputLimits.size)")
        }
        guard (1...InputLimits.repetitions).contains(repetitions) else {
            throw ScenarioError(
                file: file, line: nil, message: "'repetitions' must be from 1 to \(InputLimits.repetitions)")
        }
        self.init(
            name: name, title: title ?? name, description: description, file: file, model: model, chain: chain,
            mappings: mappings, policies: policies, dataset: nil, datasetLike: nil, store: nil,
            quickSizes: sizes, fullSizes: sizes, modes: modes ?? ModeMatrix(), crossPass: crossPass,
            quickRepetitions: repetitions, fullRepetitions: repetitions, integrity: integrity, budgets: budgets)
        datasetValue = dataset
        if modes?.path == nil { choosePathFromMappings() }
    }

    /// Chooses the path compared, for a scenario that names none, as ``StoreMigrator/automaticPath(given:chain:)``
    /// chooses it from the mapping files the scenario lists (not those found beside a bundle: Core Data's to pick).
    /// A scenario whose files do not load keeps its path; ``check(sizes:)`` names the problem.
    mutating func choosePathFromMappings() {
        guard let setup = try? ScenarioSetup(scenario: self), let chain = try? MigrationChain(self.chain) else {
            return
        }
        let given = Array(setup.mappingModels.prefix(mappings.count))
        modes.path = [StoreMigrator.automaticPath(given: given, chain: chain).0]
    }

    /// Where the dataset's shape came from, for reports: the store of `dataset: { like: … }`, or a dataset file
    /// that `shape` wrote (its first line says so); nil for hand-written datasets.
    public var shapeOrigin: String? {
        if let store = datasetLike { return "Dataset: shaped like \(DisplayPath.of(store))." }
        guard let file = dataset, let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 400)) ?? Data(), as: UTF8.self)
        guard let first = head.split(separator: "\n").first, first.hasPrefix("# The shape of a store") else {
            return nil
        }
        let what = first.dropFirst(2).split(separator: ",").first.map(String.init) ?? ""
        return "Dataset: \(DisplayPath.of(file)), \(what.prefix(1).lowercased() + what.dropFirst())."
    }
}
