import CSQLite
import Synchronization

/// Test-only I/O faults: a VFS that wraps SQLite's default one and fails the n-th write, sync or truncate of a
/// file under one folder, and the same count kept for the file operations a migration makes itself (copy, sync,
/// rename, remove), so that a test can fail each of them in turn.
///
/// While armed, the VFS is SQLite's default (sqlite.org/c3ref/vfs_find.html: "The new VFS becomes the default
/// VFS if the makeDflt flag is set"); every other file passes straight through. Disarmed, SQLite's own VFS is the
/// default again, and ours stays registered, watching nothing: a connection opened while it was armed keeps
/// working, and can still attach a database, which SQLite opens through the VFS it finds under the connection's
/// VFS name (unregistered, that look-up failed with "no such vfs").
package enum FaultInjection {
    /// What fails.
    package enum Failure: Sendable {
        /// The n-th operation fails with an I/O error, later ones succeed.
        case ioError
        /// The n-th operation and every later write fail as on a full disk (`SQLITE_FULL`, `ENOSPC`).
        case fullDisk
    }

    private struct State {
        var folder: String?
        var failAt = 0
        var failure = Failure.ioError
        var operations = 0
        var failed: [String] = []
    }

    private static let state = Mutex(State())

    /// Counts the operations under `folder` and fails the `failAt`-th (1-based; 0 counts without failing).
    package static func arm(folder: String, failAt: Int, failure: Failure) {
        state.withLock { $0 = State(folder: folder, failAt: failAt, failure: failure) }
        sqlite3_vfs_register(FaultVFS.vfs, 1)
    }

    /// Stops injecting; returns how many operations were counted and what failed (`operation path`).
    @discardableResult
    package static func disarm() -> (operations: Int, failed: [String]) {
        sqlite3_vfs_register(FaultVFS.inner, 1)
        return state.withLock { state in
            defer { state = State() }
            return (state.operations, state.failed)
        }
    }

    /// Whether files at `path` are watched.
    static func watches(_ path: String) -> Bool {
        state.withLock { state in state.folder.map { path.hasPrefix($0) } ?? false }
    }

    /// Counts one operation on a watched file; true when it must fail.
    static func shouldFail(_ operation: String, _ path: String, isWrite: Bool) -> Bool {
        state.withLock { state in
            state.operations += 1
            let fails =
                state.operations == state.failAt
                || (state.failure == .fullDisk && isWrite && state.failAt > 0 && state.operations > state.failAt)
            if fails { state.failed.append("\(operation) \(path)") }
            return fails
        }
    }

    /// The result code a failing operation returns.
    static var failureCode: (write: Int32, other: Int32) {
        state.withLock {
            $0.failure == .fullDisk
                ? (SQLITE_FULL, SQLITE_FULL) : (ResultCode.ioErrorWrite.rawValue, ResultCode.ioErrorFsync.rawValue)
        }
    }

    /// For the file operations of a migration outside SQLite: throws, like the operation would, when the
    /// operation on `path` is the one to fail.
    package static func check(_ operation: String, _ path: String) throws(InjectedFault) {
        guard watches(path), shouldFail(operation, path, isWrite: operation != "remove") else { return }
        throw InjectedFault(
            operation: operation, path: path,
            reason: state.withLock { $0.failure == .fullDisk } ? "No space left on device" : "Input/output error")
    }

    /// A fault injected into a file operation.
    package struct InjectedFault: Error, CustomStringConvertible {
        package let operation: String
        package let path: String
        package let reason: String
        package var description: String { "\(operation): \(reason) (injected)" }
    }
}
