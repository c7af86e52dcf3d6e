/// Which share of a matrix of cells one report holds: shard ``index`` of ``count``, counted from 1.
///
/// A sharded run records it so that `migration-bench merge` can tell a complete set of shards from an incomplete
/// one, and put the cells back in the order of the whole matrix. Added to schema version 1 as an optional field
/// of ``Report``: an unsharded report has none.
public struct ShardRecord: Sendable, Hashable, Codable {
    /// The shard, from 1 to ``count``.
    public var index: Int
    /// The number of shards the matrix was cut into.
    public var count: Int
    /// How the cells were shared out: ``hashed`` or ``balanced``.
    public var partition: String
    /// The run ID of the report whose times balanced the shards, or nil for a hashed partition.
    public var balancedBy: String?
    /// The number of cells in the whole matrix, every shard together.
    public var matrixCells: Int
    /// A digest of the ids of every cell of the whole matrix, in order (``ShardRecord/digest(_:)``): shards
    /// of one matrix agree on it.
    public var matrix: String
    /// The place of each of this report's cells in the whole matrix, from 0, in the order of ``Report/cells``.
    public var positions: [Int]
    /// The cells of this report that hold only some of their repetitions (a balanced partition shares out the
    /// repetitions of a long cell), or nil when every cell is whole.
    public var repetitions: [RepetitionShare]?

    /// The partition that gives each cell the shard its id hashes highest with.
    public static let hashed = "hashed"
    /// The partition that shares cells out by the times an earlier report measured, longest first.
    public static let balanced = "balanced"

    /// Creates a shard record.
    public init(
        index: Int, count: Int, partition: String, balancedBy: String?, matrixCells: Int, matrix: String,
        positions: [Int], repetitions: [RepetitionShare]? = nil
    ) {
        self.index = index
        self.count = count
        self.partition = partition
        self.balancedBy = balancedBy
        self.matrixCells = matrixCells
        self.matrix = matrix
        self.positions = positions
        self.repetitions = repetitions
    }

    /// `2/4`.
    public var label: String { "\(index)/\(count)" }

    /// A digest of cell ids in order: 64-bit FNV-1a over each id's UTF-8 bytes and a separator, as 16 hex
    /// digits. Fixed (not Swift's seeded `Hasher`), so every machine and every process gives the same digest.
    public static func digest(_ ids: [String]) -> String {
        var hash = FNV1a()
        for id in ids {
            hash.add(Array(id.utf8))
            hash.add([0])
        }
        let hex = String(hash.value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Which repetitions of one cell a shard ran, when it did not run them all.
public struct RepetitionShare: Sendable, Hashable, Codable {
    /// The cell's place in the whole matrix, from 0.
    public var position: Int
    /// The repetitions this shard ran, from 1, in order.
    public var repetitions: [Int]
    /// The cell's repetitions in all, every shard together.
    public var of: Int

    /// Creates a share of a cell's repetitions.
    public init(position: Int, repetitions: [Int], of: Int) {
        self.position = position
        self.repetitions = repetitions
        self.of = of
    }
}

/// One shard's run, kept in a merged report: when and where it ran, and what it held.
public struct ShardRun: Sendable, Hashable, Codable {
    /// The shard, from 1.
    public var index: Int
    /// The number of shards.
    public var count: Int
    /// The shard's own run ID.
    public var runID: String
    /// When the shard's run started, in ISO 8601 at UTC.
    public var startedAt: String
    /// How long the shard's run took, in seconds.
    public var durationSeconds: Double
    /// The command line that ran the shard.
    public var command: [String]
    /// The machine and the software the shard ran on.
    public var environment: Environment
    /// The ids of the shard's cells.
    public var cells: [String]

    /// Creates a shard's run.
    public init(
        index: Int, count: Int, runID: String, startedAt: String, durationSeconds: Double, command: [String],
        environment: Environment, cells: [String]
    ) {
        self.index = index
        self.count = count
        self.runID = runID
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.command = command
        self.environment = environment
        self.cells = cells
    }
}

/// The 64-bit FNV-1a hash: small, fixed and the same on every platform.
package struct FNV1a {
    /// The hash so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hash of nothing yet.
    package init() {}

    /// Adds `bytes` to the hash.
    package mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
    }
}
