import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock that lets one migration at a time work on a store: an exclusive `flock(2)` on
/// `<store>.migration-lock`, a file beside the store that holds the migrating process's id and is removed when
/// the migration ends.
///
/// Why a file of its own, and not the store: SQLite's locks are POSIX record locks, which a process loses on
/// every descriptor of the file the moment it closes any one of them, so a descriptor of our own on the
/// database could drop the locks of a connection the same process holds; a lock on the folder would keep
/// stores that share it from migrating at once. `flock` locks belong to an open file, so two migrators in one
/// process exclude each other as two processes do, and the kernel lets go of them when the process ends, even
/// by `kill -9`: a lock file a killed process left behind locks nothing and is reused, then removed, by the
/// next migration.
///
/// Removing the file while others may wait on it is safe because a lock counts only while the file it was
/// taken on is still the one at the path: a migrator that wins the lock on a file already removed (or replaced)
/// lets it go and tries again.
final class StoreLock {
    /// The lock file's path.
    let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { release() }

    /// The lock file of the store at `store`.
    static func path(ofStoreAt store: String) -> String { store + ".migration-lock" }

    /// Takes the lock of the store at `store`, waiting up to `wait` seconds for another migration to end.
    ///
    /// - Returns: the lock, held until ``release()``; nil when the store's folder cannot be written (no lock
    ///   file can be made there, and no migration could make its working stores there either).
    /// - Throws: ``MigrationError/Code/inUse`` naming the other process when the wait ends first.
    static func acquire(forStoreAt store: String, wait: Double) throws(MigrationError) -> StoreLock? {
        let path = path(ofStoreAt: store)
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, min(wait, 86_400)) * 1000))
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                if errno == EACCES || errno == EROFS || errno == EPERM { return nil }
                throw MigrationError(
                    .fileSystem, "\(path): cannot create the migration lock file: \(String(cString: strerror(errno)))",
                    path: path, underlying: nil)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                // The file may have been removed (or replaced) by the migration that held it: start again.
                if isStill(descriptor, at: path) {
                    let lock = StoreLock(path: path, descriptor: descriptor)
                    lock.record(getpid())
                    return lock
                }
                close(descriptor)
                continue
            }
            // The holder may have finished and removed the file meanwhile: then the lock is free, try again.
            guard isStill(descriptor, at: path) else {
                close(descriptor)
                continue
            }
            close(descriptor)
            guard ContinuousClock.now < deadline else {
                // A holder that has just taken the lock writes its pid a moment later.
                var pid = holder(of: path)
                for _ in 0..<40 where pid == nil && FileManager.default.fileExists(atPath: path) {
                    usleep(5_000)
                    pid = holder(of: path)
                }
                let holder = pid.map { " (pid \($0))" } ?? ""
                let waited = wait > 0 ? "; waited \(Self.seconds(wait)) s" : ""
                throw MigrationError(
                    .inUse,
                    "\(store): the store is being migrated by another process\(holder)\(waited); it was not migrated",
                    path: store, underlying: nil)
            }
            usleep(25_000)
        }
    }

    /// Removes the lock file and lets go of the lock (in that order, so that a waiting migrator sees the file
    /// gone and starts again on a new one).
    func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    /// Writes the process id into the lock file, for the message a second migrator prints.
    private func record(_ pid: pid_t) {
        let text = Array("\(pid)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    private static func isStill(_ descriptor: Int32, at path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// The process id written in the lock file, when there is one.
    fileprivate static func holder(of path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
            let pid = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
        else { return nil }
        return pid
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension StoreLock {
    /// Removes the lock file of the store at `store` if this process's id is the one in it: for a process that
    /// ends at once, while it holds the lock, without going through ``release()``.
    static func removeIfHeld(forStoreAt store: String) {
        let path = path(ofStoreAt: store)
        if holder(of: path) == Int(getpid()) { unlink(path) }
    }
}
