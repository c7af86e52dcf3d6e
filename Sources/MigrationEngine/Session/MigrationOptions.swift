/// Where a pass keeps the destination objects until it saves them.
public enum StorageMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Core Data's behaviour: every destination object of a pass stays in memory until the save at the end
    /// of the pass, so memory grows with the store.
    case inMemory = "in-memory"
    /// Rows are written as they are made and relationships as they are set; associations are dense arrays.
    /// Memory stays flat whatever the store's size.
    case streaming
}

/// How relationships between objects created in different passes are treated.
public enum CrossPassRelationships: String, Sendable, Hashable, Codable {
    /// Associations of earlier passes persist, so a later pass can point at their objects.
    case resolve
    /// Core Data's behaviour: each pass sees only its own associations, so such relationships stay empty.
    case coreData = "core-data"
}

/// How a migration runs.
public struct MigrationOptions: Sendable, Hashable {
    /// Where destination objects wait until they are saved.
    public var storage: StorageMode
    /// Whether relationships across passes are resolved.
    public var crossPassRelationships: CrossPassRelationships
    /// `now()` in value expressions, in seconds since 2001; fixed so that runs are reproducible.
    public var now: Double
    /// Seeds `uuid()` in value expressions and built-in policies, so that runs are reproducible.
    public var seed: UInt64
    /// Whether streaming storage may make default-policy rows with SQL (``BulkInstanceCreation``); off, every
    /// row takes the row-by-row path. For tests that hold the two renderings of one row plan side by side.
    package var rendersRowsInSQL = true

    /// Options; streaming storage and resolved cross-pass relationships by default.
    public init(
        storage: StorageMode = .streaming,
        crossPassRelationships: CrossPassRelationships = .resolve,
        now: Double = 0,
        seed: UInt64 = 1
    ) {
        self.storage = storage
        self.crossPassRelationships = crossPassRelationships
        self.now = now
        self.seed = seed
    }
}

/// Where a migration is, for a progress display.
public struct MigrationProgress: Sendable, Hashable {
    /// The stages of a pass.
    public enum Stage: String, Sendable, Hashable {
        /// Stage 1.
        case createInstances = "creating objects"
        /// Stage 2.
        case createRelationships = "creating relationships"
        /// Stage 3.
        case validate = "validating"
        /// Writing the objects an in-memory pass kept.
        case save = "saving"
    }

    /// Units of work done; never goes down.
    public let completed: Int
    /// Units of work in all.
    public let total: Int
    /// The pass, from 1.
    public let pass: Int
    /// The number of passes.
    public let passes: Int
    /// The stage within the pass.
    public let stage: Stage
    /// The entity mapping being worked on, if any.
    public let entityMapping: String?

    /// The fraction done, from 0 to 1.
    public var fractionCompleted: Double { total > 0 ? min(Double(completed) / Double(total), 1) : 1 }

    /// `50% completed`, as Foundation's `Progress` says it.
    public var localizedDescription: String { "\(Int(fractionCompleted * 100))% completed" }

    /// `pass 1 of 2: creating objects (PostToPost)`.
    public var localizedAdditionalDescription: String {
        "pass \(pass) of \(passes): \(stage.rawValue)" + (entityMapping.map { " (\($0))" } ?? "")
    }
}
