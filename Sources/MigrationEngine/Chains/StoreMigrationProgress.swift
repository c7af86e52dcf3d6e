/// Where a whole migration is, across all its steps, for a progress display.
public struct StoreMigrationProgress: Sendable, Hashable {
    /// What the migration is doing.
    public enum Phase: String, Sendable, Hashable {
        /// Checkpointing the store's write-ahead log and making a working copy.
        case preparing
        /// Running a step.
        case migrating
        /// Swapping the migrated store in for the original.
        case replacing
        /// Done.
        case finished
    }

    /// The fraction of the whole migration done, from 0 to 1; never goes backwards.
    public let fractionCompleted: Double
    /// The step being run, from 1; 0 while preparing.
    public let step: Int
    /// The number of steps.
    public let steps: Int
    /// The step being run, if any.
    public let stepPlan: MigrationStepPlan.Summary?
    /// What the migration is doing.
    public let phase: Phase
    /// Where a heavyweight step is: its pass, stage and entity mapping.
    public let stepProgress: MigrationProgress?

    /// `50% completed`, as Foundation's `Progress` says it.
    public var localizedDescription: String { "\(Int(fractionCompleted * 100))% completed" }

    /// `1 of 2`: the step being run.
    public var stepDescription: String { "\(max(step, 1)) of \(steps)" }

    /// `step 1 of 2 (V1 → V2, heavyweight): pass 1 of 2: creating objects (PostToPost)`.
    public var localizedAdditionalDescription: String {
        switch phase {
        case .preparing: return "preparing"
        case .replacing: return "replacing the store"
        case .finished: return "finished"
        case .migrating:
            var text = "step \(stepDescription)"
            if let stepPlan { text += " (\(stepPlan.from) → \(stepPlan.to), \(stepPlan.kind.rawValue))" }
            if let stepProgress { text += ": " + stepProgress.localizedAdditionalDescription }
            return text
        }
    }
}

extension MigrationStepPlan {
    /// A step without its mapping models.
    public struct Summary: Sendable, Hashable, Codable {
        /// The version the step starts from.
        public let from: String
        /// The version the step ends at.
        public let to: String
        /// How the step runs.
        public let kind: Kind
    }

    /// The step without its mapping models.
    public var summary: Summary { Summary(from: from, to: to, kind: kind) }
}

/// Folds the progress of each step into one value for the whole migration that never goes backwards.
final class OverallProgress {
    private let steps: [MigrationStepPlan.Summary]
    private let report: ((StoreMigrationProgress) -> Void)?
    private var fraction = 0.0
    private var lastSent = -1.0
    private var lastStage: MigrationProgress.Stage?

    /// Preparation and the swap each weigh this much of the whole; the steps share the rest equally.
    static let overheadShare = 0.02

    init(steps: [MigrationStepPlan], report: ((StoreMigrationProgress) -> Void)?) {
        self.steps = steps.map(\.summary)
        self.report = report
    }

    func preparing() {
        send(0, step: 0, phase: .preparing, detail: nil)
    }

    /// `stepFraction` of step `index` (from 0) is done.
    func step(_ index: Int, fraction stepFraction: Double, detail: MigrationProgress? = nil) {
        let share = (1 - 2 * Self.overheadShare) / Double(max(steps.count, 1))
        let value = Self.overheadShare + share * (Double(index) + min(max(stepFraction, 0), 1))
        send(value, step: index + 1, phase: .migrating, detail: detail)
    }

    func replacing() {
        send(1 - Self.overheadShare, step: steps.count, phase: .replacing, detail: nil)
    }

    func finished() {
        send(1, step: steps.count, phase: .finished, detail: nil)
    }

    private func send(_ value: Double, step: Int, phase: StoreMigrationProgress.Phase, detail: MigrationProgress?) {
        fraction = max(fraction, value)
        // Skip reports that change nothing a display would show.
        guard fraction - lastSent >= 0.0005 || phase != .migrating || detail?.stage != lastStage else { return }
        lastSent = fraction
        lastStage = detail?.stage
        report?(
            StoreMigrationProgress(
                fractionCompleted: fraction, step: step, steps: steps.count,
                stepPlan: step > 0 && step <= steps.count ? steps[step - 1] : nil, phase: phase,
                stepProgress: detail))
    }
}
