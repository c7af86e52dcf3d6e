/// What `migration-bench check` found about one model: its findings, and every step it ran.
///
/// Added to schema version 1 as an optional field of ``Report``: a report of `run` has none, so older readers
/// and older reports are unaffected.
public struct ModelCheck: Sendable, Hashable, Codable {
    /// The model file checked.
    public var model: String
    /// The version every store is migrated to.
    public var current: String
    /// The store sizes: objects per entity.
    public var sizes: [Int]
    /// Every step run: each version's store migrated step by step to ``current``, at each size.
    public var steps: [CheckStep]
    /// What is wrong or risky, errors first.
    public var findings: [Finding]
    /// With the progressive strategy, the walk of each store that Core Data's single step takes straight to
    /// ``current`` past an intermediate version: the consecutive steps an app that migrates step by step runs
    /// instead, each a step of ``steps``. Nil without the progressive strategy (and in older reports).
    public var walks: [Walk]?

    /// Creates a check result.
    public init(
        model: String, current: String, sizes: [Int], steps: [CheckStep], findings: [Finding], walks: [Walk]? = nil
    ) {
        self.model = model
        self.current = current
        self.sizes = sizes
        self.steps = steps
        self.findings = findings
        self.walks = walks
    }

    /// The findings that fail CI.
    public var errors: [Finding] { findings.filter { $0.severity == .error } }

    /// The findings that are reported but do not fail CI.
    public var warnings: [Finding] { findings.filter { $0.severity == .warning } }

    /// What the check assumed (``Finding/Severity/note``).
    public var notes: [Finding] { findings.filter { $0.severity == .note } }

    /// The report's scenario name of the chain from `origin`: each store a check generates at `origin` is a cell
    /// of it.
    package static func scenarioName(origin: String) -> String { "from \(origin)" }

    /// Errors first, then warnings, then notes, each in the order found; one finding per code, steps, entity and property.
    package static func sorted(_ findings: [Finding]) -> [Finding] {
        var seen: Set<[String?]> = []
        let unique = findings.filter { seen.insert([$0.code, $0.from, $0.to, $0.entity, $0.property]).inserted }
        return unique.enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)
    }
}

/// One thing a check found, as a lint reports it: a stable code, a severity, and where.
public struct Finding: Sendable, Hashable, Codable {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// Fails CI.
        case error
        /// Reported; does not fail CI.
        case warning
        /// What the check assumed, for the reader (such as attributes a shape has no entry for, generated with the
        /// defaults); neither wrong nor risky.
        case note

        /// Errors first, then warnings, then notes.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
    }

    /// The kind of finding, stable across releases, such as `needsMappingModel`.
    public var code: String
    /// How bad it is.
    public var severity: Severity
    /// The version the step starts from (or the earlier version of a pair), if the finding is about one.
    public var from: String?
    /// The version the step ends at (or the later version of a pair), if the finding is about one.
    public var to: String?
    /// The entity, if the finding is about one.
    public var entity: String?
    /// The property, if the finding is about one.
    public var property: String?
    /// What is wrong and what to do, in words.
    public var message: String

    /// Creates a finding.
    public init(
        code: String, severity: Severity, from: String?, to: String?, entity: String?, property: String?,
        message: String
    ) {
        self.code = code
        self.severity = severity
        self.from = from
        self.to = to
        self.entity = entity
        self.property = property
        self.message = message
    }

    /// Whether the finding is an exceeded time or memory budget (exit code 3 rather than 2).
    public var isBudget: Bool { code == Self.timeBudgetCode || code == Self.memoryBudgetCode }

    /// The code of a step over its time budget.
    public static let timeBudgetCode = "overTimeBudget"
    /// The code of a step over its memory budget.
    public static let memoryBudgetCode = "overMemoryBudget"

    /// `V1 → V2`, `V1`, or nothing.
    public var steps: String {
        switch (from, to) {
        case (let from?, let to?): "\(from) → \(to)"
        case (let version?, nil), (nil, let version?): version
        case (nil, nil): ""
        }
    }

    /// `Post.title`, `Post`, or nothing.
    public var subject: String {
        [entity, property].compactMap { $0 }.joined(separator: ".")
    }
}

/// One step a check ran: a store generated at ``origin`` on its way to the current version.
public struct CheckStep: Sendable, Hashable, Codable {
    /// How a step ended.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Migrated and verified clean.
        case passed
        /// Migrated, but the verifier found violations.
        case integrityFailure = "integrity-failure"
        /// The migration failed (an error, such as Core Data's 134110).
        case failed
        /// Core Data refuses the step: no mapping model, and none can be inferred.
        case refused
    }

    /// The version the store was generated at.
    public var origin: String
    /// Objects per entity in the generated store.
    public var size: Int
    /// The version the step starts from.
    public var from: String
    /// The version the step ends at.
    public var to: String
    /// `lightweight`, `heavyweight`, or `none` between versions with identical entity hashes (Core Data runs
    /// nothing).
    public var kind: String
    /// The mapping models the step ran (names, joined), or nil for an inferred mapping.
    public var mapping: String?
    /// How the step ended.
    public var outcome: Outcome
    /// The migration's wall time, or nil when it did not run.
    public var seconds: Double?
    /// The heap's peak during the migration, or nil when unavailable or not run.
    public var peakHeapBytes: Int?
    /// The verification's wall time, or nil when it did not run.
    public var verifySeconds: Double?
    /// Why the step failed, when it did.
    public var failure: String?
    /// The migration's instructions (`check --instructions`, counted under callgrind), or nil when not counted
    /// (the step's cell says why in ``Cell/unavailable``).
    public var instructions: Int?

    /// Creates a step.
    public init(
        origin: String, size: Int, from: String, to: String, kind: String, mapping: String?, outcome: Outcome,
        seconds: Double?, peakHeapBytes: Int?, verifySeconds: Double?, failure: String?
    ) {
        self.origin = origin
        self.size = size
        self.from = from
        self.to = to
        self.kind = kind
        self.mapping = mapping
        self.outcome = outcome
        self.seconds = seconds
        self.peakHeapBytes = peakHeapBytes
        self.verifySeconds = verifySeconds
        self.failure = failure
    }
}
