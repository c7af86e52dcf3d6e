import Foundation

/// The checks of one verification shared out between two threads, each stepping its own run (and with it its
/// own connection): whichever thread is free takes the next check, the long ones first, so that neither waits
/// while the other still has several to do.
///
/// Every check records what it finds in a collector of its own, and the result puts them together in the
/// order the checks are listed, so it is exactly what one thread running them in that order would find.
final class SharedChecks: @unchecked Sendable {
    // @unchecked Sendable is sound: `next` and `found` are only touched under `lock`; each run is only touched
    // by the one thread that works on it, and its findings are read after that thread has finished.

    /// One check: what it does to the run that takes it.
    struct Check {
        /// Whether the check reads whole stores and is taken before the short ones.
        let isLong: Bool
        let run: (VerificationRun) -> Void

        init(long: Bool = false, _ run: @escaping (VerificationRun) -> Void) {
            isLong = long
            self.run = run
        }
    }

    /// The checks, in the order their findings are listed.
    private let checks: [Check]
    /// The order in which the checks are taken: indexes into `checks`.
    private let takingOrder: [Int]
    private let lock = NSLock()
    private var next = 0
    private var found: [ViolationCollector?]

    /// - Parameter checks: in the order their findings are listed. The long ones are taken first, then the
    ///   others, each in that order.
    init(_ checks: [Check]) {
        self.checks = checks
        takingOrder = checks.indices.filter { checks[$0].isLong } + checks.indices.filter { !checks[$0].isLong }
        found = Array(repeating: nil, count: checks.count)
    }

    /// Runs every check, on `runs.0` on the calling thread and `runs.1` on a new one, and returns what they
    /// found.
    func run(on runs: (VerificationRun, VerificationRun)) -> ViolationCollector {
        let finished = DispatchSemaphore(value: 0)
        let other = UncheckedHandOver(runs.1)
        Thread.detachNewThread { [self] in
            work(other.run)
            finished.signal()
        }
        work(runs.0)
        finished.wait()
        let result = ViolationCollector()
        for collector in found { result.append(collector!) }
        return result
    }

    /// Takes and runs checks on `run` until none is left.
    private func work(_ run: VerificationRun) {
        while let index = take() {
            run.collector = ViolationCollector()
            checks[index].run(run)
            lock.withLock { found[index] = run.collector }
        }
    }

    private func take() -> Int? {
        lock.withLock {
            guard next < takingOrder.count else { return nil }
            defer { next += 1 }
            return takingOrder[next]
        }
    }
}

/// A run handed to the thread that will be the only one to use it until it finishes.
private struct UncheckedHandOver: @unchecked Sendable {
    let run: VerificationRun

    init(_ run: VerificationRun) {
        self.run = run
    }
}
