import Foundation
import PersistentStore
import SQLiteDatabase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations behind a safe store replacement: checkpoints, working copies, syncs and the swap.
///
/// A store in WAL mode is three files: the database, its `-wal` log, whose frames SQLite applies to the
/// database when it opens it, and the `-shm` index of that log. A `-wal` left beside a database it does not
/// belong to is applied to it all the same, which corrupts it — the way apps have lost stores. So the original
/// is checkpointed first (every frame folded into the database, the log truncated to zero bytes), the new
/// store is closed with its own log empty, and the original's sidecars are removed before the new database
/// is renamed over the old one. At every moment the folder holds one complete store.
enum StoreFiles {
    static let sidecars = ["-wal", "-shm", "-journal"]
    /// The sidecars that may hold rows: the write-ahead log and the rollback journal (`-shm` only indexes the log).
    static let logs = sidecars.filter { $0 != "-shm" }

    /// Folds the store's write-ahead log into the database and truncates it, so that the database file alone
    /// holds every row (a store whose rows sit only in its `-wal` keeps them). A store with neither a `-wal` nor
    /// a `-journal` beside it holds every row in its database file already, and is not opened (opening it would
    /// make a `-wal` and a `-shm` only to remove them again).
    static func checkpoint(_ path: String) throws(MigrationError) {
        guard logs.contains(where: { FileStamp.size(of: path + $0) != nil }) else { return }
        try fileOperation("checkpoint the store's write-ahead log", path) {
            let connection = try Connection(path: path, mode: .readWrite)
            // Reading the schema makes SQLite recover the log before the checkpoint.
            _ = try connection.scalar("SELECT COUNT(*) FROM sqlite_master")
            try connection.checkpoint(.truncate)
        }
    }

    /// What the original's files looked like after its checkpoint, to notice a write during the migration.
    struct Snapshot: Equatable {
        let database: FileStamp?
        let logSize: Int
    }

    static func snapshot(_ path: String) -> Snapshot {
        Snapshot(database: FileStamp(of: path), logSize: FileStamp.size(of: path + "-wal") ?? 0)
    }

    /// Copies the database file (checkpointed, so complete on its own). The copy is not synced: a working
    /// store need not survive a crash, and ``seal(_:)`` syncs the one that replaces the original.
    static func copy(_ source: String, to destination: String) throws(MigrationError) {
        try fileOperation("copy the store to '\(destination)'", source) {
            try FaultInjection.check("copy", destination)
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        }
    }

    /// Makes a finished store a single, durable file: its log checkpointed and gone, its data synced.
    static func seal(_ path: String) throws(MigrationError) {
        try checkpoint(path)
        for suffix in sidecars {
            if let length = FileStamp.size(of: path + suffix), length > 0, logs.contains(suffix) {
                throw MigrationError(
                    .fileSystem, "\(path + suffix) still holds \(length) bytes after the checkpoint; not swapping",
                    path: path + suffix, underlying: nil)
            }
            unlink(path + suffix)
        }
        try fileOperation("sync the migrated store", path) { try sync(path) }
    }

    /// Swaps `replacement` in for `original`: removes the original's (empty) sidecars, renames the new
    /// database over the old one in one atomic step, and syncs the folder.
    ///
    /// - Parameter event: told after the sidecars are gone and after the rename, for tests that kill there.
    static func replace(
        _ original: String, with replacement: String, expecting snapshot: Snapshot,
        event: (SafeReplacementEvent) -> Void
    ) throws(MigrationError) {
        guard self.snapshot(original) == snapshot else {
            throw MigrationError(
                .fileSystem,
                "\(original) changed while it was being migrated (another process wrote to it); it was left as it "
                    + "is and the migrated copy was discarded", path: original, underlying: nil)
        }
        try fileOperation("remove the store's sidecar files", original) {
            for suffix in sidecars where FileManager.default.fileExists(atPath: original + suffix) {
                try FaultInjection.check("remove", original + suffix)
                try FileManager.default.removeItem(atPath: original + suffix)
            }
        }
        event(.sidecarsRemoved)
        let failure = "cannot rename '\(replacement)' to '\(original)'"
        do {
            try FaultInjection.check("rename", original)
        } catch {
            throw MigrationError(
                .fileSystem, "\(failure): \(error); the original store is intact", path: original, underlying: error)
        }
        guard rename(replacement, original) == 0 else {
            throw MigrationError(
                .fileSystem, "\(failure): \(String(cString: strerror(errno))); the original store is intact",
                path: original, underlying: nil)
        }
        event(.renamed)
        try fileOperation("sync the store's folder (the store was migrated and replaced)", original) {
            try sync(FileSync.folder(of: original), directory: true)
        }
    }

    /// Working stores beside `original` (`<name>.migrating-<pid>-<n>` and their sidecars): a killed
    /// migration's, or with `process`, that process's.
    static func leftovers(of original: String, process: Int32? = nil) -> [String] {
        let folder = FileSync.folder(of: original)
        let prefix = (original as NSString).lastPathComponent + ".migrating-" + (process.map { "\($0)-" } ?? "")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    private static func sync(_ path: String, directory: Bool = false) throws {
        try FaultInjection.check("fsync", path)
        try FileSync.sync(path, directory: directory)
    }

    /// Whether `error` says that another process keeps a store busy (`SQLITE_BUSY`, as such or inside a store
    /// error, or a ``MigrationError/Code/inUse`` made of one).
    static func isBusy(_ error: any Error) -> Bool {
        switch error {
        case let error as SQLiteError: error.isBusy
        case let error as StoreError: error.underlying.map(isBusy) ?? false
        case let error as MigrationError: error.code == .inUse
        default: false
        }
    }

    /// The error for a store found busy while doing `what`; retried, and then reported, by the migrator.
    static func busy(_ path: String, _ what: String) -> MigrationError {
        MigrationError(
            .inUse, "\(path): the store is in use by another process (busy while trying to \(what))", path: path,
            underlying: nil)
    }

    /// Runs a file operation, turning any failure into a ``MigrationError`` that names the file and what
    /// was being done.
    private static func fileOperation(_ what: String, _ path: String, _ body: () throws -> Void) throws(MigrationError)
    {
        do {
            try body()
        } catch let error as MigrationError {
            throw error
        } catch  where isBusy(error) {
            throw busy(path, what)
        } catch {
            throw MigrationError(.fileSystem, "\(path): cannot \(what): \(error)", path: path, underlying: error)
        }
    }
}

/// Moments of a safe replacement, reported to ``StoreMigrator/onEvent`` (tests kill the process there).
public enum SafeReplacementEvent: Sendable, Hashable, CustomStringConvertible {
    /// The original store's write-ahead log is folded into its database file.
    case sourceCheckpointed
    /// A step finished; its result is a complete working store beside the original.
    case stepFinished(Int)
    /// The migrated store is sealed (one synced file); the original is untouched.
    case sealed
    /// The original's empty sidecar files are gone; the original database is still in place.
    case sidecarsRemoved
    /// The migrated store has replaced the original.
    case renamed

    /// `step-finished-1`, `sidecars-removed`, …: the names the command line's hidden `--pause-at` takes.
    public var description: String {
        switch self {
        case .sourceCheckpointed: "source-checkpointed"
        case .stepFinished(let step): "step-finished-\(step)"
        case .sealed: "sealed"
        case .sidecarsRemoved: "sidecars-removed"
        case .renamed: "renamed"
        }
    }
}
