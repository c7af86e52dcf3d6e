import Foundation
import Instrumentation
public import MappingModel
public import ObjectModel
public import PersistentStore

/// Migrates a store across a chain of model versions, safely: Core Data's `NSStagedMigrationManager` with
/// CoreStore's `MigrationChain`, and a file swap that cannot lose the store.
///
/// ```swift
/// let migrator = try StoreMigrator(history: history, mappingModels: [v1ToV2])
/// let plan = try migrator.requiredMigrations(forStoreAt: "Library.sqlite")   // V1 → V2 heavyweight, V2 → V3 lightweight
/// let outcome = try migrator.migrateStore(at: "Library.sqlite") { print($0.localizedDescription) }
/// ```
///
/// How the store is kept safe: the original's write-ahead log is checkpointed into its database file first;
/// every step runs on working stores beside the original (`<name>.migrating-<pid>-<n>`), never on the original;
/// the finished store is sealed into one synced file; then the original's empty sidecars are removed and the
/// new database renamed over the old one, atomically. A failure, a cancellation or a kill at any moment
/// leaves the original store complete at its old version, or the new store complete at the new one.
/// Working stores a killed migration left behind are removed by the next migration of the same store.
/// One migration of a store runs at a time: the migrator holds the store's migration lock (`<name>.migration-lock`,
/// an advisory `flock`, removed at the end) from before it reads the store until after the swap; another
/// migration of the same store waits up to ``lockWait`` seconds, then fails with ``MigrationError/Code/inUse``.
public struct StoreMigrator: Sendable {
    /// The model versions.
    public let history: ModelHistory
    /// The versions a store may pass through; by default the history's versions in order.
    public let chain: MigrationChain
    /// Mapping models for heavyweight steps, each naming the versions it migrates between. Several for one
    /// step run as passes, in the order given.
    public let mappingModels: [MappingModel]
    /// Handlers around steps (custom stages).
    public let stages: [MigrationStage]
    /// The policies mapping models may name.
    public var policies: PolicyRegistry = .builtIn()
    /// How heavyweight steps run.
    public var options = MigrationOptions()
    /// How a heavyweight step's mapping model is split into passes.
    public var passes = PassMode.single
    /// Which path the migration takes through the chain; nil chooses as ``automaticPath(given:chain:)`` does
    /// with every mapping model of the migrator.
    public var path: MigrationPath?
    /// Why `path` was chosen, when the caller chose it automatically (as ``automaticPath(given:chain:)`` does
    /// with the mapping models a user gave); nil says it was asked for.
    public var pathReason: String?
    /// Told at each moment of the safe replacement; for tests that kill the process there.
    public var onEvent: (@Sendable (SafeReplacementEvent) -> Void)?
    /// Seconds to wait for another migration of the same store to end before giving up (0: give up at once).
    public var lockWait: Double = 0
    /// Measures where each step's time and memory go when set (see ``MigrationProfiler``); nil by default, and
    /// then nothing is measured.
    public var profiler: MigrationProfiler?
    /// Seconds to retry a store another process keeps busy (writing, or reading through the checkpoint)
    /// before giving up with ``MigrationError/Code/inUse``.
    public var busyTimeout: Double = 5

    /// A migrator over `history`.
    ///
    /// - Throws: ``MigrationError/Code/chain`` when the chain names a version the history lacks;
    ///   ``MigrationError/Code/plan`` when a mapping model does not name its versions, names unknown ones, or
    ///   a stage names a step the chain lacks.
    public init(
        history: ModelHistory,
        chain: MigrationChain? = nil,
        mappingModels: [MappingModel] = [],
        stages: [MigrationStage] = []
    ) throws(MigrationError) {
        self.history = history
        if let chain {
            self.chain = chain
        } else {
            self.chain = try MigrationChain(history.versions.map(\.name))
        }
        self.mappingModels = mappingModels
        self.stages = stages
        for version in self.chain.versions where history.version(named: version) == nil {
            throw .chainNamesUnknownVersion(version, model: history.source)
        }
        for model in mappingModels {
            guard let from = model.sourceVersion, let to = model.destinationVersion else {
                throw .mappingModelNamesNoVersions(model)
            }
            for version in [from, to] where history.version(named: version) == nil {
                throw .mappingModel(model, namesUnknownVersion: version)
            }
            // A mapping that fits no step (backwards, or between versions Core Data cannot tell apart) would
            // never run, and the step it was meant for would be inferred instead: refuse it. One that skips
            // versions runs on Core Data's path, for a store at its source version.
            guard self.chain.leads(from: from, to: to), !history.areIdentical(from, to) else {
                throw .mappingModel(
                    model, isNoStepOf: self.chain, identicalVersions: history.areIdentical(from, to))
            }
        }
        for stage in stages where self.chain.successors[stage.from] != stage.to {
            throw .stageIsNoStep(stage)
        }
    }

    // MARK: - Planning

    /// The version a store is at, detected from the hashes in its metadata.
    ///
    /// - Throws: ``MigrationError/Code/plan`` naming the entities whose hashes match no version.
    public func version(ofStoreAt path: String) throws -> ModelVersion {
        let metadata = try Store.metadata(at: path)
        guard let version = history.version(matching: metadata.versionHashes) else {
            throw MigrationError.storeMatchesNoVersion(path, metadata: metadata, current: history.currentVersion)
        }
        return version
    }

    /// Every step from the store's version to `target` (the current version by default), worked out before
    /// anything runs; empty when the store is already at the target.
    public func requiredMigrations(forStoreAt path: String, to target: String? = nil) throws -> MigrationPlan {
        try plan(from: try version(ofStoreAt: path).name, to: target ?? history.currentVersionName)
    }

    /// The path a migration takes when none is asked for: progressive (`chained`) when `given` mapping models
    /// cover consecutive steps of `chain` only, one model per step as a progressive migration's are, and
    /// Core Data's single step (`direct`) otherwise; with the reason, in words.
    public static func automaticPath(given: [MappingModel], chain: MigrationChain) -> (MigrationPath, String) {
        if !given.isEmpty,
            given.allSatisfy({ model in
                model.sourceVersion.map { chain.successors[$0] } == model.destinationVersion
            })
        {
            return (
                .chained,
                "the mapping models given each cover one consecutive step, as a progressive migration's do: one "
                    + "step per version (--path direct for Core Data's single step)"
            )
        }
        return (
            .direct,
            "Core Data's path: a store opened with the target model migrates in one step, with the mapping model "
                + "whose entity hashes match both ends, else the inferred mapping (--path chained walks every "
                + "version)"
        )
    }

    /// The path this migrator takes, and why.
    public var chosenPath: (path: MigrationPath, reason: String) {
        if let path, let pathReason { return (path, pathReason) }
        return switch path {
        case nil: Self.automaticPath(given: mappingModels, chain: chain)
        case .direct?:
            (
                .direct,
                "--path direct: Core Data's path, one step with the mapping model whose entity hashes match both "
                    + "ends, else the inferred mapping"
            )
        case .chained?: (.chained, "--path chained: one step per consecutive version, as a progressive migration")
        }
    }

    /// The steps from version `source` to version `destination`.
    ///
    /// Versions with identical entity hashes are one version to Core Data: no step runs between them.
    ///
    /// - Throws: ``MigrationError/Code/chain`` for a version outside the chain, a backwards step or no path;
    ///   ``MigrationError/Code/plan`` for a step with no mapping model whose mapping cannot be inferred.
    public func plan(from source: String, to destination: String) throws(MigrationError) -> MigrationPlan {
        let versions = try chain.path(from: source, to: destination)
        let (path, reason) = chosenPath
        var steps: [MigrationStepPlan] = []
        switch path {
        case .chained:
            for (from, to) in zip(versions, versions.dropFirst()) where !history.areIdentical(from, to) {
                steps.append(try link(from: from, to: to))
            }
        case .direct:
            // Links with stage handlers run as their own steps (a stage is a step of a staged migration);
            // between them, one step each.
            var start = source
            for (from, to) in zip(versions, versions.dropFirst())
            where stages.contains(where: { $0.from == from && $0.to == to }) {
                if let step = try direct(from: start, to: from) { steps.append(step) }
                steps.append(try link(from: from, to: to))
                start = to
            }
            if let step = try direct(from: start, to: destination) { steps.append(step) }
        }
        var plan = MigrationPlan(from: source, to: destination, steps: steps)
        plan.path = path
        plan.pathReason = reason
        return plan
    }

    /// One step of a progressive migration: the mapping models given for it, else the inferred mapping.
    private func link(from: String, to: String) throws(MigrationError) -> MigrationStepPlan {
        let models = mappingModels.filter { $0.sourceVersion == from && $0.destinationVersion == to }
        if !models.isEmpty { return heavyweight(from: from, to: to, models: models) }
        return try inferred(from: from, to: to, through: [], onCoreDataPath: false)
    }

    /// Core Data's single step from `source` to `destination`, or nil when their entity hashes are identical:
    /// the mapping models whose source and destination entity hashes equal those of the two ends (whichever of
    /// hash-identical versions they name), else the mapping inferred from the source version lightweight.md (g)
    /// picks among the versions with the store's hashes.
    private func direct(from source: String, to destination: String) throws(MigrationError) -> MigrationStepPlan? {
        guard source != destination, !history.areIdentical(source, destination) else { return nil }
        let models = Self.mappingModels(mappingModels, from: source, to: destination, in: history)
        if !models.isEmpty { return heavyweight(from: source, to: destination, models: models) }
        let through = (try chain.path(from: source, to: destination)).dropFirst().dropLast()
        return try inferred(
            from: try inferenceSource(for: source, to: destination), to: destination, through: Array(through),
            onCoreDataPath: true)
    }

    /// The mapping models of `models` for a step from `source` to `destination`: those whose source and
    /// destination versions have the entity hashes of the two ends, as Core Data finds a mapping model, named
    /// after the two ends (whose hashes they were made for; validation compares the names).
    public static func mappingModels(
        _ models: [MappingModel], from source: String, to destination: String, in history: ModelHistory
    ) -> [MappingModel] {
        models.compactMap { model in
            guard let from = model.sourceVersion, let to = model.destinationVersion,
                history.areIdentical(from, source), history.areIdentical(to, destination)
            else { return nil }
            var model = model
            model.sourceVersion = source
            model.destinationVersion = destination
            return model
        }
    }

    /// Among the versions with the entity hashes of `source`, the one Core Data's inference starts from
    /// (lightweight.md (g)): the oldest whose renaming identifiers lose no data on the way to `destination`,
    /// else the oldest. A store made with any of them is one version to Core Data.
    public func inferenceSource(for source: String, to destination: String) throws(MigrationError) -> String {
        let target = try version(destination)
        let twins = history.identicalVersions(to: try version(source))
        guard twins.count > 1 else { return source }
        let keeping = twins.first { twin in
            guard let plan = try? MappingInference.plan(from: twin, to: target) else { return false }
            return !plan.changes.contains { $0.change == .dataLoss }
        }
        return (keeping ?? twins[0]).name
    }

    private func heavyweight(from: String, to: String, models: [MappingModel]) -> MigrationStepPlan {
        let split = passes == .perEntity ? models.flatMap(PassSplit.perEntity) : models
        return MigrationStepPlan(from: from, to: to, through: [], kind: .heavyweight, mappingModels: split)
    }

    private func inferred(
        from: String, to: String, through: [String], onCoreDataPath: Bool
    ) throws(MigrationError) -> MigrationStepPlan {
        do {
            let inferred = try MappingInference.plan(from: try version(from), to: try version(to))
            return MigrationStepPlan(
                from: from, to: to, through: through, kind: .lightweight, mappingModels: [inferred.mappingModel],
                changes: inferred.changes)
        } catch let error as InferenceError {
            let hint =
                onCoreDataPath
                ? " (Core Data's path takes one step; --path chained walks the versions one by one, with a mapping "
                    + "model per step)" : ""
            throw .cannotInfer(from: from, to: to, error, hint: hint)
        } catch {
            throw error as? MigrationError ?? MigrationError(.plan, "\(error)", underlying: error)
        }
    }

    /// Checks that `step` can run as `migrateStore` runs it — for a heavyweight step, every mapping model's
    /// policies and their selectors bound and its expressions compiled —, without touching any store.
    ///
    /// - Throws: the error `migrateStore` would throw before migrating the first object.
    public func check(_ step: MigrationStepPlan) throws {
        _ = try compile(step)
    }

    /// `step`'s mapping models compiled, as ``check(_:)`` checks them; none for a lightweight step.
    private func compile(_ step: MigrationStepPlan) throws -> [CompiledMappingModel] {
        guard step.kind == .heavyweight else { return [] }
        let manager = MigrationManager(
            source: try version(step.from), destination: try version(step.to), policies: policies, options: options)
        return try manager.compile(step.mappingModels)
    }

    private func version(_ name: String) throws(MigrationError) -> ModelVersion {
        guard let version = history.version(named: name) else {
            throw .noSuchVersion(name)
        }
        return version
    }

    private func stage(for step: MigrationStepPlan) -> MigrationStage? {
        stages.first { $0.from == step.from && $0.to == step.to }
    }

    // MARK: - Migrating

    /// What a migration did.
    public struct Outcome: Sendable, Hashable {
        /// The plan it followed.
        public let plan: MigrationPlan
        /// Each step run, in order.
        public let steps: [StepOutcome]
    }

    /// What one step did.
    public struct StepOutcome: Sendable, Hashable, Codable {
        /// The step.
        public let step: MigrationStepPlan.Summary
        /// Wall-clock seconds the step took, handlers included.
        public let seconds: Double
        /// Passes run (1 for a lightweight step).
        public let passes: Int
        /// Objects in the store after the step.
        public let objects: Int
    }

    /// Migrates the store at `path` to `target` (the current version by default), in place and safely.
    ///
    /// - Parameters:
    ///   - progress: one value for the whole migration, whose fraction never goes backwards.
    ///   - shouldCancel: asked often; returning true stops the migration, removes every working file, and
    ///     throws ``MigrationError/Code/cancelled`` with the original store untouched.
    /// - Returns: what was done; no steps when the store was already at the target.
    @discardableResult
    public func migrateStore(
        at path: String,
        to target: String? = nil,
        progress: ((StoreMigrationProgress) -> Void)? = nil,
        shouldCancel: @escaping () -> Bool = { false }
    ) throws -> Outcome {
        // One migration of a store at a time, from before anything of it is read to after the swap.
        let lock = try StoreLock.acquire(forStoreAt: path, wait: lockWait)
        defer { lock?.release() }
        // Reading a store in WAL mode makes SQLite create an empty -wal and its -shm index; a store that is
        // refused, or needs no migration, keeps its folder as it was.
        let (plan, compiled) = try retryingWhileBusy(path) {
            try WriteAheadLog.leavingNoSidecars(of: [path]) {
                try StoreContentCheck.checkLog(storeAt: path)
                let plan = try requiredMigrations(forStoreAt: path, to: target)
                try StoreContentCheck.check(storeAt: path, version: try version(plan.from))
                // Every step's mapping models are checked — policies and their selectors bound, expressions
                // compiled — before the first object of the first step is touched, and run as compiled here.
                return (plan, try plan.steps.map(compile))
            }
        }
        guard !plan.isEmpty else { return Outcome(plan: plan, steps: []) }
        let overall = OverallProgress(steps: plan.steps, report: progress)
        overall.preparing()
        // A migration that fails or is cancelled leaves the folder as it was: no -wal or -shm of the original's
        // that reading it made (a -wal that holds frames, written by another process meanwhile, stays).
        return try WriteAheadLog.leavingNoSidecars(of: [path]) {
            // Under the lock, every working store beside the original is a killed migration's.
            for leftover in StoreFiles.leftovers(of: path) { try? FileManager.default.removeItem(atPath: leftover) }
            try retryingWhileBusy(path) { try StoreFiles.checkpoint(path) }
            onEvent?(.sourceCheckpointed)
            let snapshot = StoreFiles.snapshot(path)

            var working = WorkingStores(original: path)
            do {
                var outcomes: [StepOutcome] = []
                for (index, step) in plan.steps.enumerated() {
                    try checkCancellation(shouldCancel)
                    outcomes.append(
                        try run(
                            step, compiled: compiled[index], index: index, working: &working, overall: overall,
                            shouldCancel: shouldCancel))
                    onEvent?(.stepFinished(index + 1))
                }
                try checkCancellation(shouldCancel)
                overall.replacing()
                try StoreFiles.seal(working.current)
                onEvent?(.sealed)
                try StoreFiles.replace(path, with: working.current, expecting: snapshot) { onEvent?($0) }
                overall.finished()
                return Outcome(plan: plan, steps: outcomes)
            } catch {
                working.removeAll()
                throw error
            }
        }
    }

    /// The same migration on a background task, its progress as an asynchronous sequence.
    ///
    /// ```swift
    /// let (updates, result) = migrator.migrateStoreInBackground(at: "Library.sqlite")
    /// for await update in updates { print(update.localizedDescription) }
    /// let outcome = try await result.value
    /// ```
    /// Cancelling `result` cancels the migration.
    public func migrateStoreInBackground(
        at path: String, to target: String? = nil
    ) -> (progress: AsyncStream<StoreMigrationProgress>, result: Task<Outcome, any Error>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: StoreMigrationProgress.self, bufferingPolicy: .bufferingNewest(64))
        let task = Task.detached { [self] in
            defer { continuation.finish() }
            return try migrateStore(
                at: path, to: target, progress: { continuation.yield($0) }, shouldCancel: { Task.isCancelled })
        }
        return (stream, task)
    }

    /// Runs `body` again while another process keeps the store busy, for up to ``busyTimeout`` seconds.
    ///
    /// - Throws: ``MigrationError/Code/inUse`` when the store is still busy then; `body`'s other errors.
    private func retryingWhileBusy<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, min(busyTimeout, 86_400)) * 1000))
        while true {
            do {
                return try body()
            } catch  where StoreFiles.isBusy(error) {
                guard ContinuousClock.now < deadline else {
                    throw MigrationError.stillBusy(path, after: busyTimeout, underlying: error)
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// Removes what a migration of the store at `path` by this process has beside it — its working stores, and
    /// its lock file if this process holds it — for a command that ends at once on a second interruption.
    public static func removeWorkingFiles(ofStoreAt path: String) {
        let own = StoreFiles.leftovers(of: path, process: ProcessInfo.processInfo.processIdentifier)
        for file in own { try? FileManager.default.removeItem(atPath: file) }
        StoreLock.removeIfHeld(forStoreAt: path)
    }

    /// `body` as a segment of the profile at `place`, or just `body` when the migration is not profiled.
    private func measured<T>(_ place: MigrationProfiler.Place, _ body: () throws -> T) throws -> T {
        guard let profiler else { return try body() }
        return try profiler.measure(place, body)
    }

    private func checkCancellation(_ shouldCancel: () -> Bool) throws(MigrationError) {
        if shouldCancel() { throw MigrationError.cancelled }
    }

    private func run(
        _ step: MigrationStepPlan, compiled: [CompiledMappingModel], index: Int, working: inout WorkingStores,
        overall: OverallProgress,
        shouldCancel: @escaping () -> Bool
    ) throws -> StepOutcome {
        let start = ContinuousClock.now
        let source = try version(step.from)
        let destination = try version(step.to)
        let handlers = stage(for: step)
        // The original is only ever read: work that writes in place needs a working copy first.
        if step.kind == .lightweight || handlers?.willMigrate != nil { try working.makeWritable() }
        if let willMigrate = handlers?.willMigrate {
            try willMigrate(
                StageContext(step: step.summary, store: try Store.open(at: working.current, version: source)))
        }
        overall.step(index, fraction: 0)
        profiler?.enterStep(index + 1)
        let passes: Int
        var counted: Int?
        // Where the step's own work after the migration falls: the last stage run.
        var lastStage = MigrationProfiler.Place(pass: nil, stage: InPlaceMigration.stage)
        switch step.kind {
        case .lightweight:
            let lightweight = try MappingInference.plan(from: source, to: destination)
            var inPlace = InPlaceMigration(plan: lightweight)
            inPlace.profiler = profiler
            _ = try inPlace.run(
                storeAt: working.current,
                progress: { done, total in overall.step(index, fraction: total > 0 ? Double(done) / Double(total) : 1)
                },
                shouldCancel: shouldCancel)
            passes = 1
        case .heavyweight:
            var manager = MigrationManager(
                source: source, destination: destination, policies: policies, options: options)
            manager.profiler = profiler
            let target = working.next()
            let report = try manager.migrate(
                storeAt: working.current, to: target, compiled: compiled,
                progress: { overall.step(index, fraction: $0.fractionCompleted, detail: $0) },
                shouldCancel: shouldCancel)
            passes = report.passes
            counted = report.objects.values.reduce(0, +)
            lastStage = MigrationProfiler.Place(pass: passes, stage: MigrationProgress.Stage.validate.rawValue)
            lastStage.work = "removing the working store"
            try measured(lastStage) { working.advance(to: target) }
        }
        let objects: Int
        if let didMigrate = handlers?.didMigrate {
            let store = try Store.open(at: working.current, version: destination)
            try didMigrate(StageContext(step: step.summary, store: store))
            objects = try store.objectCounts().values.reduce(0, +)
        } else if let counted {
            // The manager counted the new store's objects as it closed it: no second opening.
            objects = counted
        } else {
            // Opened, counted and closed again inside the part, so that closing it (a checkpoint) is counted too.
            lastStage.work = "counting objects in the new store"
            objects = try measured(lastStage) {
                try Store.open(at: working.current, version: destination).objectCounts().values.reduce(0, +)
            }
        }
        overall.step(index, fraction: 1)
        return StepOutcome(
            step: step.summary, seconds: (ContinuousClock.now - start).seconds, passes: passes, objects: objects)
    }
}

/// The working stores of one migration, beside the original: `<name>.migrating-<pid>-1`, `-2`, …, named
/// after the process so that no two processes ever share one.
private struct WorkingStores {
    let original: String
    private(set) var current: String
    private var made: [String] = []

    init(original: String) {
        self.original = original
        self.current = original
    }

    /// A new working store's path.
    mutating func next() -> String {
        let path = "\(original).migrating-\(ProcessInfo.processInfo.processIdentifier)-\(made.count + 1)"
        made.append(path)
        return path
    }

    /// Makes `path` the current store, removing the working store it replaces.
    mutating func advance(to path: String) {
        if current != original { Store.remove(at: current) }
        current = path
    }

    /// Makes the current store a working copy if it is still the original.
    mutating func makeWritable() throws(MigrationError) {
        guard current == original else { return }
        let copy = next()
        try StoreFiles.copy(original, to: copy)
        current = copy
    }

    /// Removes every working store made (after a rename, the last one is the original's new content and is
    /// no longer at its working path).
    func removeAll() {
        for path in made { Store.remove(at: path) }
    }
}

/// Handlers run around one step of the chain: Core Data's `NSCustomMigrationStage`.
public struct MigrationStage: Sendable {
    /// A handler; it may read and write the store it is given.
    public typealias Handler = @Sendable (StageContext) throws -> Void

    /// The version the step starts from.
    public let from: String
    /// The version the step ends at.
    public let to: String
    /// Runs on the working store at `from` before the step.
    public let willMigrate: Handler?
    /// Runs on the working store at `to` after the step.
    public let didMigrate: Handler?

    /// Handlers for the step `from` → `to`.
    public init(from: String, to: String, willMigrate: Handler? = nil, didMigrate: Handler? = nil) {
        self.from = from
        self.to = to
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
    }
}

/// What a stage handler is given: the step, and the working store at that point (never the original).
public struct StageContext {
    /// The step the handler runs around.
    public let step: MigrationStepPlan.Summary
    /// The working store, open at the step's source version (will-migrate) or destination version
    /// (did-migrate).
    public let store: Store
}

extension MigrationError {
    static func chainNamesUnknownVersion(_ version: String, model: String?) -> MigrationError {
        MigrationError(.chain, "the chain names version '\(version)', which the model \(model ?? "") lacks")
    }

    static func noSuchVersion(_ name: String) -> MigrationError {
        MigrationError(.chain, "the model has no version '\(name)'")
    }

    static func mappingModelNamesNoVersions(_ model: MappingModel) -> MigrationError {
        MigrationError(
            .plan,
            "mapping model '\(model.name)'\(model.fileSuffix) does not say which versions it migrates between: give "
                + "it sourceVersion and destinationVersion", path: model.file, underlying: nil)
    }

    static func mappingModel(_ model: MappingModel, namesUnknownVersion version: String) -> MigrationError {
        MigrationError(
            .plan, "mapping model '\(model.name)'\(model.fileSuffix) names version '\(version)', which the model lacks",
            path: model.file, underlying: nil)
    }

    static func mappingModel(
        _ model: MappingModel, isNoStepOf chain: MigrationChain, identicalVersions: Bool
    ) -> MigrationError {
        MigrationError(
            .plan,
            "mapping model '\(model.name)'\(model.fileSuffix) migrates \(model.sourceVersion ?? "") → "
                + "\(model.destinationVersion ?? ""), which is not a step of the chain "
                + "(\(chain.versions.joined(separator: ", ")))"
                + (identicalVersions ? ": the two versions have identical entity hashes" : ""),
            path: model.file, underlying: nil)
    }

    static func stageIsNoStep(_ stage: MigrationStage) -> MigrationError {
        MigrationError(.plan, "a stage is given for \(stage.from) → \(stage.to), which is not a step of the chain")
    }

    static func storeMatchesNoVersion(
        _ path: String, metadata: StoreMetadata, current: ModelVersion
    ) -> MigrationError {
        MigrationError(
            .plan,
            "\(path): the store matches no version of the model; against the current version '\(current.name)' "
                + "these entities differ: \(metadata.mismatchedEntities(against: current).joined(separator: ", "))",
            path: path, underlying: nil)
    }

    /// The step has no mapping model and `error` says why none can be inferred; `error` is kept whole, every
    /// problem in it.
    static func cannotInfer(from: String, to: String, _ error: InferenceError, hint: String) -> MigrationError {
        MigrationError(
            .plan, "step \(from) → \(to) has no mapping model, and its mapping cannot be inferred: \(error)\(hint)",
            underlying: error)
    }

    static func stillBusy(_ path: String, after seconds: Double, underlying: any Error) -> MigrationError {
        MigrationError(
            .inUse,
            "\(path): the store is in use by another process (still busy after \(seconds) s); it was not migrated",
            path: path, underlying: underlying)
    }
}

extension MappingModel {
    /// ` (file)` after the mapping model's name in a message, when it was read from a file.
    fileprivate var fileSuffix: String { file.map { " (\($0))" } ?? "" }
}
