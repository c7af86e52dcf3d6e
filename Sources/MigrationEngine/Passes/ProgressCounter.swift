/// Counts work across the passes of a migration and reports it, never going backwards.
final class ProgressCounter {
    private let total: Int
    private let passes: Int
    private let report: ((MigrationProgress) -> Void)?
    private let shouldCancel: () -> Bool
    private var completed = 0
    private var pass = 1
    /// The stage being worked on.
    private(set) var stage = MigrationProgress.Stage.createInstances
    /// The entity mapping being worked on, if any.
    private(set) var mapping: String?

    /// `total` units: each source object counts once when its instances are made and once for its relationships.
    init(total: Int, passes: Int, report: ((MigrationProgress) -> Void)?, shouldCancel: @escaping () -> Bool) {
        self.total = max(total, 1)
        self.passes = passes
        self.report = report
        self.shouldCancel = shouldCancel
    }

    func startPass(_ number: Int) {
        pass = number
    }

    func enter(_ stage: MigrationProgress.Stage, mapping: String?) {
        self.stage = stage
        self.mapping = mapping
        send()
    }

    /// One unit done; checks for cancellation every 4,096 units.
    func advance() throws {
        completed += 1
        if completed & 0xfff == 0 {
            if shouldCancel() { throw MigrationError.cancelled }
            send()
        }
    }

    /// `count` units done at once; checks for cancellation.
    func advance(by count: Int) throws {
        completed += count
        if shouldCancel() { throw MigrationError.cancelled }
        send()
    }

    /// `count` units done at once (work that turned out not to be needed).
    func skip(_ count: Int) throws {
        try advance(by: count)
    }

    func finish() {
        completed = total
        send()
    }

    private func send() {
        report?(
            MigrationProgress(
                completed: min(completed, total), total: total, pass: pass, passes: passes, stage: stage,
                entityMapping: mapping))
    }
}
