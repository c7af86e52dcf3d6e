public import MappingModel

/// One step of a migration: from one model version to the next, lightweight or with mapping models.
public struct MigrationStepPlan: Sendable, Hashable {
    /// How a step runs.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// An inferred mapping, run as SQL inside the store (Core Data's lightweight migration).
        case lightweight
        /// Mapping models run by the migration manager into a new store, one pass per model.
        case heavyweight
    }

    /// The version the step starts from.
    public let from: String
    /// The version the step ends at.
    public let to: String
    /// Versions a direct step skips over, oldest first. Inference does not look at them: Core Data pairs
    /// the two ends by shared renaming identifiers.
    public let through: [String]
    /// How the step runs.
    public let kind: Kind
    /// The passes of a heavyweight step, in order; the inferred mapping model of a lightweight one.
    public let mappingModels: [MappingModel]
    /// What a lightweight step changes, data loss included; empty for a heavyweight step.
    public var changes: [LightweightChange] = []

    /// `V1 → V2`.
    public var name: String { "\(from) → \(to)" }
}

/// What a migration will do, worked out before anything runs: Core Data's `requiredMigrations`.
public struct MigrationPlan: Sendable, Hashable {
    /// The version the store is at.
    public let from: String
    /// The version the store will be at.
    public let to: String
    /// The steps, in order; empty when the store is already at the target version (or at a version whose
    /// entity hashes equal the target's, which Core Data sees as the same).
    public let steps: [MigrationStepPlan]
    /// The path the steps take.
    public var path = MigrationPath.direct
    /// Why that path, in words.
    public var pathReason = ""

    /// Whether the store needs no migration.
    public var isEmpty: Bool { steps.isEmpty }
}

/// Which path a migration takes through the chain.
public enum MigrationPath: String, Sendable, Hashable, CaseIterable, Codable {
    /// One step per link of the chain, `V1 → V2 → V3`: a progressive migration (one mapping model per step,
    /// as CoreStore's chains and apps with their own step-by-step migrator run).
    case chained
    /// Core Data's own path: one step from the store's version straight to the target, with the mapping model
    /// whose entity hashes match both ends, else the inferred mapping. Links with stage handlers run as their
    /// own steps.
    case direct
}

/// How a heavyweight step's mapping model is split into passes.
public enum PassMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// One pass per mapping model given for the step.
    case single
    /// One pass per entity mapping, so that each pass holds one entity's objects at most.
    case perEntity = "per-entity"
}
