import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What SIGINT and SIGTERM do to any command: stop its child processes and remove its working files, so that
/// nothing outlives the run and nothing is left behind.
///
/// The two signals are blocked in every thread and taken by one thread that waits for them, where locks and
/// file removal are allowed (a signal handler may do neither). A command that cancels cooperatively (`migrate`,
/// which must finish its own clean-up) asks for a flag instead; a second signal ends it all the same. A child
/// this executable starts is told its parent (``parentVariable``) and asks the kernel for SIGTERM when that
/// parent dies, so that even a parent killed with SIGKILL leaves no orphan writing on.
enum Interruption {
    /// The environment variable that tells a child process its parent's process id.
    static let parentVariable = "MIGRATION_BENCH_PARENT_PID"

    private struct State {
        var children: Set<Int32> = []
        var paths: [String] = []
        var cleanups: [@Sendable () -> Void] = []
        var cooperative: InterruptFlag?
        var signalled = false
        /// Set once a signal ends the command: its children are being stopped and its files removed.
        var ending = false
    }

    private static let state = Mutex(State())

    /// Takes SIGINT and SIGTERM over; call once, before any other thread starts.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let blocked = signals
        // The command goes on once the waiter runs: the runtime's caches (Swift's type metadata among them) that
        // starting a thread fills are then filled at the same point of every run, not when the scheduler happens
        // to let the waiter start. Under callgrind, which counts one thread, the order in which two threads fill
        // a shared hash table decides how long the measured thread's later lookups take: with the waiter starting
        // at a time of its own, a floor child of `benchmark generator --instructions` counted 7,003,819 or
        // 7,098,338-7,100,066 instructions for the same work.
        let running = DispatchSemaphore(value: 0)
        let waiter = Thread {
            var waited = blocked
            running.signal()
            while true {
                var received: Int32 = 0
                guard sigwait(&waited, &received) == 0 else { continue }
                handle(received)
            }
        }
        waiter.start()
        running.wait()
        if let parent = ProcessInfo.processInfo.environment[parentVariable].flatMap(Int32.init) {
            _ = setParentDeathSignal(1, UInt(SIGTERM), 0, 0, 0)  // prctl(PR_SET_PDEATHSIG, SIGTERM)
            // The parent may have died before the request was made.
            if getppid() != parent { handle(SIGTERM) }
        }
    }

    /// The environment for a child process of this executable.
    static var childEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging([parentVariable: "\(getpid())"]) { $1 }
    }

    /// Runs `body` with `process` counted as a child to stop on interruption, from its start to its end.
    ///
    /// Should the command be ending when `body` returns, the child was stopped for it: this thread then waits for
    /// the end rather than go on to write files (a report, say) that the ending has already removed or will miss.
    static func whileRunning<R>(_ process: Process, _ body: () throws -> R) throws -> R {
        process.environment = childEnvironment
        try process.run()
        let pid = process.processIdentifier
        state.withLock { _ = $0.children.insert(pid) }
        defer {
            state.withLock { _ = $0.children.remove(pid) }
            while state.withLock({ $0.ending }) { sleep(1) }
        }
        return try body()
    }

    /// Runs `body` with `paths` (files or folders) removed should the command be interrupted meanwhile.
    static func removing<R>(_ paths: [String], _ body: () throws -> R) rethrows -> R {
        for path in paths { remove(onInterruption: path) }
        defer { for path in paths { keep(path) } }
        return try body()
    }

    /// Has `path` (a file or folder) removed should the command be interrupted, until ``keep(_:)``.
    static func remove(onInterruption path: String) {
        state.withLock { $0.paths.append(path) }
    }

    /// Undoes one ``remove(onInterruption:)`` of `path`.
    static func keep(_ path: String) {
        state.withLock { state in
            if let index = state.paths.firstIndex(of: path) { state.paths.remove(at: index) }
        }
    }

    /// Runs `cleanup` should the command be ended by an interruption (for working files whose names are not
    /// known in advance).
    static func onForcedEnd(_ cleanup: @escaping @Sendable () -> Void) {
        state.withLock { $0.cleanups.append(cleanup) }
    }

    /// Makes the first interruption set `flag` instead of ending the command.
    static func cancelling(_ flag: InterruptFlag) {
        state.withLock { $0.cooperative = flag }
    }

    private static func handle(_ signal: Int32) {
        let (children, paths, cleanups, flag) = state.withLock { state in
            let flag = state.signalled ? nil : state.cooperative
            state.signalled = true
            state.ending = flag == nil
            return (state.children, state.paths, state.cleanups, flag)
        }
        if let flag {
            flag.set()
            return
        }
        for child in children { kill(child, SIGTERM) }
        // Give each child a moment to clean up after itself, then end it.
        let deadline = Date().addingTimeInterval(3)
        while children.contains(where: { kill($0, 0) == 0 && !isZombie($0) }) && Date() < deadline {
            usleep(20_000)
        }
        for child in children { kill(child, SIGKILL) }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
        for cleanup in cleanups { cleanup() }
        FileHandle.standardError.write(Data("interrupted; working files removed\n".utf8))
        _exit(128 + signal)
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return status.split(separator: ")").last?.split(separator: " ").first == "Z"
    }
}

/// Set by the first SIGINT or SIGTERM, so that a migration stops at its next check and cleans up.
final class InterruptFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    init() { Interruption.cancelling(self) }

    func set() { flag.store(true, ordering: .relaxed) }

    var isSet: Bool { flag.load(ordering: .relaxed) }
}

/// `prctl(2)`, which Swift cannot import (it is variadic); integer arguments pass alike either way.
@_silgen_name("prctl")
private func setParentDeathSignal(_ option: Int32, _ arg2: UInt, _ arg3: UInt, _ arg4: UInt, _ arg5: UInt) -> Int32
