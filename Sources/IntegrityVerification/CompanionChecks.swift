import Foundation

/// The checks that neither depend on the object and edge checks nor feed them, run on a thread of their own
/// over a companion run's connection while the calling thread checks objects and edges.
///
/// Their findings are kept in two collectors, those of the checks listed before the object checks and those
/// of the checks listed after them, so that the result can be put together in the order the checks are
/// listed in, exactly as if everything had run on one thread.
final class CompanionChecks: @unchecked Sendable {
    // @unchecked Sendable is sound: `run` and the collectors are only touched by the thread that `start()`
    // makes until it signals `finished`, and only by the caller of `wait()` after that.
    private let run: VerificationRun
    private let finished = DispatchSemaphore(value: 0)
    /// The findings of the checks listed before the object checks.
    let earlier: ViolationCollector
    /// The findings of the checks listed after the edge checks.
    let later = ViolationCollector()

    init(_ run: VerificationRun) {
        self.run = run
        earlier = run.collector
    }

    /// Starts the checks on a new thread.
    func start() {
        Thread.detachNewThread { [self] in
            run.checkSourceStore()
            run.checkIntegrity()
            run.checkMetadata()
            run.checkSchema()
            run.checkEntityNumbers()
            run.collector = later
            run.checkForeignKeys()
            run.checkConstraints()
            finished.signal()
        }
    }

    /// Waits until every check has run.
    func wait() {
        finished.wait()
    }
}
