@_exported public import DataGeneration
import Foundation
import Instrumentation
@_exported public import IntegrityVerification
@_exported public import MappingModel
@_exported public import MigrationEngine
@_exported public import ObjectModel
@_exported public import ReportModel
import ScenarioRunner

/// An app's model with its mapping models and policies, for the app's own migration tests: make a store at
/// any version, with given or generated objects; migrate it as the app would; read objects back and verify.
///
/// ```swift
/// let model = try MigrationTestModel(model: "Sources/App/Model.xcdatamodeld", policies: bindings)
/// try model.withStore(at: "Model") { store in
///     let author = try store.insert("Author", ["name": .string("Ada")])
///     try store.insert("Book", ["title": .string("Notes")], relationships: ["author": [author]])
///     let migration = try store.migrate()            // to the current version, step by step, each step verified
///     #expect(migration.passed)
///     #expect(try store.values("Book", keyPath: "author.name") == [.string("Ada")])
/// }
/// ```
public struct MigrationTestModel: Sendable {
    /// The model file, when the model was read from one.
    public let path: String?
    /// The model's versions.
    public let history: ModelHistory
    /// The mapping models for heavyweight steps: those given and, for an Xcode bundle, those beside it.
    public let mappingModels: [MappingModel]
    /// The policies and functions the mapping models may name: the built-in ones and the app's own.
    public let policies: PolicyRegistry
    /// How the Xcode mapping models' policy classes are bound to registered policies, with the declarations of
    /// the policies registered with one (``PolicyRegistry/register(_:declaring:factory:)``).
    public let bindings: PolicyBindings

    /// Reads the model at `path` (an Xcode `.xcdatamodeld` bundle or a YAML/JSON model file) and the mapping
    /// models at `mappings` (YAML/JSON, `.xcmappingmodel` or `.cdm`); an Xcode bundle's own mapping models,
    /// beside it, are found by hash as Core Data finds them.
    ///
    /// - Parameters:
    ///   - policies: the policies the mapping models name; register the app's own with
    ///     `PolicyRegistry.register(_:declaring:factory:)` (with what the policy makes, for the verifier),
    ///     `register(_:factory:)` or `register(_:for:function:)`.
    ///   - bindings: the policy classes of Xcode mapping models bound to registered policies.
    /// - Throws: a ``ModelError`` or ``MappingError`` naming the file, line and field.
    public init(
        model path: String, mappings: [String] = [], policies: PolicyRegistry = .builtIn(),
        bindings: PolicyBindings = PolicyBindings()
    ) throws {
        let history = try ModelLoader.load(path: path)
        let bindings = bindings.declaring(policies.declarations)
        self.path = path
        self.history = history
        self.mappingModels = try MappingModelLoader.load(
            paths: mappings, for: history, modelPath: path, bindings: bindings)
        self.policies = policies
        self.bindings = bindings
    }

    /// A model built in Swift, with mapping models built or read elsewhere; the entity mappings that name a
    /// policy registered with a declaration get it.
    public init(
        history: ModelHistory, mappingModels: [MappingModel] = [], policies: PolicyRegistry = .builtIn()
    ) {
        self.path = nil
        self.history = history
        let bindings = PolicyBindings().declaring(policies.declarations)
        self.bindings = bindings
        self.mappingModels = mappingModels.map { $0.binding(bindings) }
        self.policies = policies
    }

    /// Creates an empty store at `version` at `path`, for objects to be inserted into.
    ///
    /// - Throws: ``MigrationTestError`` for an unknown version, a `StoreError` when the file cannot be made.
    public func makeStore(at path: String, version: String) throws -> TestStore {
        try TestStore(creatingAt: path, version: try requireVersion(version), model: self)
    }

    /// Generates a store at `version` at `path` with `size` objects of every concrete entity, values and
    /// relationships made from `seed`: the same seed gives the same store.
    public func generateStore(at path: String, version: String, size: Int, seed: UInt64 = 1) throws -> TestStore {
        try generateStore(at: path, version: version, size: size, dataset: Dataset(seed: seed))
    }

    /// Generates a store at `version` at `path` shaped by `dataset` (made in Swift, or read with
    /// `Dataset.load(path:)`), `size` its multiplier; the dataset's entries for entities and properties that
    /// `version` lacks but another version has are left out (``Dataset/applying(to:in:)``).
    ///
    /// - Throws: a `GenerationError` naming the dataset key for an entry no version has, or a value out of range.
    public func generateStore(at path: String, version: String, size: Int, dataset: Dataset) throws -> TestStore {
        let model = try requireVersion(version)
        let generator = try StoreGenerator(
            version: model, dataset: dataset.applying(to: model, in: history), size: size)
        _ = try generator.generate(at: path)
        return try TestStore(existingAt: path, version: model, model: self)
    }

    /// Runs `body` with an empty store at `version` in a new temporary folder, removed afterwards (also when
    /// `body` throws).
    public func withStore<R>(at version: String, _ body: (TestStore) throws -> R) throws -> R {
        try withTemporaryFolder { folder in try body(try makeStore(at: "\(folder)/test.sqlite", version: version)) }
    }

    /// Runs `body` with a generated store at `version` (see ``generateStore(at:version:size:seed:)``) in a new
    /// temporary folder, removed afterwards.
    public func withGeneratedStore<R>(
        at version: String, size: Int, seed: UInt64 = 1, _ body: (TestStore) throws -> R
    ) throws -> R {
        try withTemporaryFolder { folder in
            try body(try generateStore(at: "\(folder)/test.sqlite", version: version, size: size, seed: seed))
        }
    }

    /// Runs `body` with a store at `version` generated with `dataset` (see
    /// ``generateStore(at:version:size:dataset:)``) in a new temporary folder, removed afterwards.
    public func withGeneratedStore<R>(
        at version: String, size: Int, dataset: Dataset, _ body: (TestStore) throws -> R
    ) throws -> R {
        try withTemporaryFolder { folder in
            try body(try generateStore(at: "\(folder)/test.sqlite", version: version, size: size, dataset: dataset))
        }
    }

    /// ``check(sizes:to:mappings:dataset:)`` with a dataset made in Swift: one dataset for every version's
    /// stores, each entry applying to the versions that have its entity or property.
    public func check(
        sizes: [Int] = [100], to target: String? = nil, mappings: [String] = [], dataset: Dataset
    ) throws -> ModelCheck {
        try check(sizes: sizes, to: target, mappings: mappings, datasetFile: nil, datasetValue: dataset)
    }

    /// `migration-bench check` from a test: a generated store of every version migrated step by step to
    /// `target` (the current version by default), verified, with the findings.
    ///
    /// - Parameters:
    ///   - mappings: mapping files or folders besides those found beside an Xcode bundle.
    ///   - dataset: a dataset file that shapes the generated stores (a size is then the dataset's N); its
    ///     entries apply to the versions that have their entity or property.
    /// - Throws: ``MigrationTestError`` for a model not read from a file.
    public func check(
        sizes: [Int] = [100], to target: String? = nil, mappings: [String] = [], dataset: String? = nil
    ) throws -> ModelCheck {
        try check(sizes: sizes, to: target, mappings: mappings, datasetFile: dataset, datasetValue: nil)
    }

    private func check(
        sizes: [Int], to target: String?, mappings: [String], datasetFile: String?, datasetValue: Dataset?
    ) throws -> ModelCheck {
        guard let path else {
            throw MigrationTestError("check reads the model from its file: make the model with init(model:)")
        }
        var options = ModelChecker.Options()
        options.sizes = sizes
        options.target = target
        options.mappings = mappings
        options.dataset = datasetFile
        options.datasetValue = datasetValue
        options.bindings = bindings
        options.policies = policies
        let checker = try ModelChecker(modelPath: path, history: history, options: options)
        return try withTemporaryFolder { folder in
            try checker.run(heap: UnavailableHeapStatistics(), folder: folder).check
        }
    }

    /// A migrator over the model's versions with its mapping models and policies.
    func migrator() throws -> StoreMigrator {
        var migrator = try StoreMigrator(history: history, mappingModels: mappingModels)
        migrator.policies = policies
        return migrator
    }

    func requireVersion(_ name: String) throws -> ModelVersion {
        guard let version = history.version(named: name) else {
            throw MigrationTestError(
                "the model has no version '\(name)' (it has: \(history.versions.map(\.name).joined(separator: ", ")))")
        }
        return version
    }

    private func withTemporaryFolder<R>(_ body: (String) throws -> R) throws -> R {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("migration-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }
}

/// A misuse of a test store that names what is wrong: an unknown version, entity or property.
public struct MigrationTestError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// A value as a test author writes it: `"text"`, `42`, `true`, `date(0.0)`, `nil`.
    static func describe(_ value: AttributeValue?) -> String {
        switch value {
        case nil: "nil"
        case .integer(let number)?: String(number)
        case .double(let number)?: String(number)
        case .decimal(let text)?: "decimal(\(text))"
        case .string(let text)?: String(reflecting: text)
        case .boolean(let flag)?: String(flag)
        case .date(let seconds)?: "date(\(seconds))"
        case .binary(let bytes)?: "binary(\(bytes.count) bytes)"
        case .uuid(let uuid)?: "uuid(\(uuid.uuidString))"
        case .uri(let text)?: "uri(\(text))"
        }
    }
}
