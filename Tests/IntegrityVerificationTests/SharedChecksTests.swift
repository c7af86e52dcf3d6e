import Foundation
import Testing

@testable import IntegrityVerification

@Suite("Shared checks: the critical path")
struct SharedChecksTests {
    /// Two workers start each round together and take the checks in order, the next going to whichever is free
    /// first: {3, 5} then {4, 1} is 5 + 4. The calling thread's share alone (3 + 4) would undercount, both threads'
    /// work (13) overcount.
    @Test func roundsAreLaidOutOnTwoWorkers() {
        #expect(SharedChecks.criticalPath(ofRounds: [[3, 5], [4, 1]]) == 9)
        // 1 and 1 start together, 2 goes to the first worker when both are free: 3, not 2 (and not 4).
        #expect(SharedChecks.criticalPath(ofRounds: [[1, 1, 2]]) == 3)
        // The long check first keeps the other worker busy with the short ones: 4, where 5 in the other order
        // (1 | 1, then 2 to the first, 4 to the second).
        #expect(SharedChecks.criticalPath(ofRounds: [[4, 1, 1, 2]]) == 4)
        #expect(SharedChecks.criticalPath(ofRounds: [[1, 1, 2, 4]]) == 5)
        #expect(SharedChecks.criticalPath(ofRounds: [[], [7]]) == 7)
    }

    /// Checks whose costs are fixed (each adds its cost to a clock of its own thread) give the same critical path
    /// whichever thread takes which check, on two threads or on one: it depends on the work, not on scheduling.
    @Test(arguments: [true, false])
    func theCriticalPathIsTheCostsReplayed(companion: Bool) throws {
        try Shelf.withMigratedStores { source, destination in
            let verifier = try IntegrityVerifier(source: try Shelf.v1(), destination: try Shelf.v2())
            let run = try VerificationRun(verifier: verifier, sourcePath: source, destinationPath: destination)
            let checks = SharedChecks(
                [
                    .init { _ in FakeClock.spend(3) },
                    .init(afterComparisons: true) { _ in FakeClock.spend(4) },
                    .init { _ in FakeClock.spend(5) },
                    .init(afterComparisons: true) { _ in FakeClock.spend(1) },
                ],
                clock: FakeClock.now)
            _ = checks.run(on: run, companion: companion ? try VerificationRun(companionOf: run) : nil)
            #expect(checks.criticalPathSeconds == 9)
        }
    }

    /// A clock that cannot be read gives no critical path, never zero.
    @Test func anUnreadableClockGivesNone() throws {
        try Shelf.withMigratedStores { source, destination in
            let verifier = try IntegrityVerifier(source: try Shelf.v1(), destination: try Shelf.v2())
            let run = try VerificationRun(verifier: verifier, sourcePath: source, destinationPath: destination)
            let checks = SharedChecks([.init { _ in }], clock: { nil })
            _ = checks.run(on: run, companion: nil)
            #expect(checks.criticalPathSeconds == nil)
        }
    }
}

/// Seconds that each thread spends by saying so, kept in the thread's own dictionary.
private enum FakeClock {
    static func now() -> Double? {
        Thread.current.threadDictionary["fakeCPUSeconds"] as? Double ?? 0
    }

    static func spend(_ seconds: Double) {
        Thread.current.threadDictionary["fakeCPUSeconds"] = (now() ?? 0) + seconds
    }
}
