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
    // @unchecked Sendable is sound: `next`, `found` and `costs` are only touched under `lock`; each run
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
    /// Each check's own CPU seconds, on whichever thread ran it; nil where the thread's clock could not be read.
    private var costs: [Double?]
    /// The CPU clock each check is timed by (the running thread's); a test's way to give checks fixed costs.
    private let clock: () -> Double?

    /// - Parameter checks: in the order their findings are listed. In each round the long ones are taken
    ///   first, then the others, each in that order.
    init(_ checks: [Check], clock: @escaping () -> Double? = SharedChecks.threadCPUSeconds) {
        self.checks = checks
        self.clock = clock
        rounds = [false, true].map { later in
            let round = checks.indices.filter { checks[$0].isAfterComparisons == later }
            return round.filter { checks[$0].isLong } + round.filter { !checks[$0].isLong }
        }
        found = Array(repeating: nil, count: checks.count)
        costs = Array(repeating: nil, count: checks.count)
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
                work(other.run)
                finished.signal()
            }
            work(run)
            finished.wait()
        }
        let result = ViolationCollector()
        for collector in found { result.append(collector!) }
        return result
    }

    /// Takes and runs checks of the current round on `run` until none is left.
    private func work(_ run: VerificationRun) {
        while let index = take() {
            run.collector = ViolationCollector()
            let start = clock()
            checks[index].run(run)
            let cost = clock().flatMap { end in start.map { end - $0 } }
            lock.withLock {
                found[index] = run.collector
                costs[index] = cost
            }
        }
    }

    /// The checks' CPU seconds along their critical path, once they have run: each check's own CPU time, laid
    /// out as two idle cores would take them (``criticalPath(ofRounds:)``), whatever the threads actually got.
    /// Nil when a check's clock could not be read.
    var criticalPathSeconds: Double? {
        let costs = lock.withLock { self.costs }
        var rounds: [[Double]] = []
        for round in self.rounds {
            let known = round.compactMap { costs[$0] }
            guard known.count == round.count else { return nil }
            rounds.append(known)
        }
        return Self.criticalPath(ofRounds: rounds)
    }

    /// The time `rounds` of checks with these CPU costs (each round in the order its checks are taken) take on two
    /// workers that start each round together, each taking the next check as soon as it is free (the first worker
    /// on a tie), as the two threads take them: the sum over the rounds of the later worker's finish. It depends
    /// only on the costs and the order, not on how the machine's load delayed either thread.
    static func criticalPath(ofRounds rounds: [[Double]]) -> Double {
        rounds.reduce(0) { total, costs in
            var workers = (0.0, 0.0)
            for cost in costs {
                if workers.0 <= workers.1 { workers.0 += cost } else { workers.1 += cost }
            }
            return total + max(workers.0, workers.1)
        }
    }

    /// The calling thread's CPU time (user and system) so far, in seconds; nil when it cannot be read.
    static func threadCPUSeconds() -> Double? {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return nil }
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
