/// Why a migration failed. The source store is never changed by a failed migration.
///
/// What went wrong is kept as fields — the entity mapping, entity, property, source object, stage, store file and
/// the underlying error, where known — and ``message`` is the one line a person reads. Each failure is made by a
/// factory beside the code that throws it (`MigrationError.chainLoops(_:)` in `MigrationChain.swift`, …).
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable {
        /// The mapping model does not fit the versions, or names an unknown policy.
        case mapping
        /// A policy failed or was asked what it cannot answer.
        case policy
        /// A value could not be evaluated or stored.
        case evaluation
        /// The destination objects break the destination model's rules (optionality, counts, uniqueness).
        case validation
        /// The migration was cancelled.
        case cancelled
        /// The stores could not be read or written.
        case store
        /// The migration chain is invalid, or has no path from the store's version to the target.
        case chain
        /// A step of the plan cannot run: no mapping model for it, and its mapping cannot be inferred.
        case plan
        /// A file could not be created, written, synced or renamed (no space, read-only folder, …).
        case fileSystem
        /// The store's content breaks its own model (a missing table or column, a row of no entity, a key out of
        /// range) or its `-wal` belongs to another database; it was refused before anything was written.
        case damagedStore
        /// Another process is migrating the store (it holds the store's migration lock), or keeps it busy —
        /// writing, or reading through a checkpoint — past the busy timeout; nothing was changed.
        case inUse
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong in one line, naming the entity mapping, entity and property where known.
    public let message: String
    /// The entity mapping that was running, when one was.
    public internal(set) var entityMapping: String?
    /// The entity concerned, when one is.
    public internal(set) var entity: String?
    /// The property concerned, when one is.
    public internal(set) var property: String?
    /// The primary key (`Z_PK`) of the source object being migrated, when one was.
    public internal(set) var sourceKey: Int64?
    /// The stage of the pass that was running, when the failure happened inside one.
    public internal(set) var stage: MigrationProgress.Stage?
    /// The store or file concerned, when one is.
    public internal(set) var path: String?
    /// The error that caused this one, as it was thrown: an ``InferenceError`` with every problem of a mapping
    /// that cannot be inferred, an `SQLiteError` with its result code, an expression's error, ….
    public let underlying: (any Error)?

    /// Creates an error of `code` that says `message`.
    public init(_ code: Code, _ message: String) {
        self.init(code, message, underlying: nil)
    }

    /// Creates an error with what is known of where it happened.
    init(
        _ code: Code, _ message: String, entityMapping: String? = nil, entity: String? = nil,
        property: String? = nil, sourceKey: Int64? = nil, path: String? = nil, underlying: (any Error)?
    ) {
        self.code = code
        self.message = message
        self.entityMapping = entityMapping
        self.entity = entity
        self.property = property
        self.sourceKey = sourceKey
        self.path = path
        self.underlying = underlying
    }

    /// The message.
    public var description: String { message }

    /// This error, with the stage and entity mapping that were running filled in where it did not say.
    func during(_ stage: MigrationProgress.Stage, entityMapping: String?) -> MigrationError {
        var copy = self
        if copy.stage == nil { copy.stage = stage }
        if copy.entityMapping == nil { copy.entityMapping = entityMapping }
        return copy
    }
}

extension MigrationError {
    /// The user, or the harness on the user's behalf, asked the migration to stop.
    static let cancelled = MigrationError(.cancelled, "the migration was cancelled")
}
