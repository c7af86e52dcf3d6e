import Foundation

/// The checks of one verification shared out between two threads, each stepping its own run (and with it its
/// own connection): whichever thread is free takes the next check, the long ones first, so that neither waits
/// while the other still has several to do.
///
/// The checks run in two rounds: first those that need nothing from another check (the object comparisons
/// among them), then those that build on what the comparisons found (``ObjectLedger``); the second round
/// starts when both threads have finished the first.
///
/// Every check records what it finds in a collector of its own, and the result puts them together in the
/// order the checks are listed, so it is exactly what one thread running them in that order would find.
final class SharedChecks: @unchecked Sendable {
    // @unchecked Sendable is sound: `next`, `found` and `companionSeconds` are only touched under `lock`; each run
    // is only touched by the one thread that works on it, and its findings are read after that thread has finished.

    /// One check: what it does to the run that takes it.
    struct Check {
        /// Whether the check reads whole stores and is taken before the short ones of its round.
        let isLong: Bool
        /// Whether the check builds on the object comparisons, and so runs in the second round.
        let isAfterComparisons: Bool
        let run: (VerificationRun) -> Void

        init(long: Bool = false, afterComparisons: Bool = false, _ run: @escaping (VerificationRun) -> Void) {
            isLong = long
            isAfterComparisons = afterComparisons
            self.run = run
        }
    }

    /// The checks, in the order their findings are listed.
    private let checks: [Check]
    /// The order in which the checks of each round are taken: indexes into `checks`.
    private let rounds: [[Int]]
    private let lock = NSLock()
    private var round = 0
    private var next = 0
    private var found: [ViolationCollector?]
    /// CPU seconds by which the companion thread's work outlasted the calling thread's, added up over the rounds
    /// (a round in which the calling thread worked longer adds nothing): with the calling thread's own CPU time,
    /// the checks' CPU time along their critical path.
    private(set) var companionExcessSeconds = 0.0
    /// The companion thread's CPU seconds in the round that ended last.
    private var companionSeconds = 0.0

    /// - Parameter checks: in the order their findings are listed. In each round the long ones are taken
    ///   first, then the others, each in that order.
    init(_ checks: [Check]) {
        self.checks = checks
        rounds = [false, true].map { later in
            let round = checks.indices.filter { checks[$0].isAfterComparisons == later }
            return round.filter { checks[$0].isLong } + round.filter { !checks[$0].isLong }
        }
        found = Array(repeating: nil, count: checks.count)
    }

    /// Runs every check, on `run` on the calling thread and, for each round, on `companion` on a new thread (or,
    /// without a companion, every check on the calling thread), and returns what they found.
    func run(on run: VerificationRun, companion: VerificationRun?) -> ViolationCollector {
        for index in rounds.indices {
            lock.withLock {
                round = index
                next = 0
            }
            guard let companion else {
                work(run)
                continue
            }
            let finished = DispatchSemaphore(value: 0)
            let other = UncheckedHandOver(companion)
            Thread.detachNewThread { [self] in
                let start = Self.threadCPUSeconds()
                work(other.run)
                let seconds = Self.threadCPUSeconds() - start
                lock.withLock { companionSeconds = seconds }
                finished.signal()
            }
            let start = Self.threadCPUSeconds()
            work(run)
            let ownSeconds = Self.threadCPUSeconds() - start
            finished.wait()
            companionExcessSeconds += max(0, lock.withLock { companionSeconds } - ownSeconds)
        }
        let result = ViolationCollector()
        for collector in found { result.append(collector!) }
        return result
    }

    /// Takes and runs checks of the current round on `run` until none is left.
    private func work(_ run: VerificationRun) {
        while let index = take() {
            run.collector = ViolationCollector()
            checks[index].run(run)
            lock.withLock { found[index] = run.collector }
        }
    }

    /// The calling thread's CPU time (user and system) so far, in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func take() -> Int? {
        lock.withLock {
            guard next < rounds[round].count else { return nil }
            defer { next += 1 }
            return rounds[round][next]
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
