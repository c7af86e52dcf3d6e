/// Why a migration failed. The source store is never changed by a failed migration.
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
    /// What went wrong, naming the entity mapping, entity and property where known.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
