/// What the integrity verifier found in a cell's migrated store.
public struct Verification: Sendable, Hashable, Codable {
    /// All violations of one kind on one entity and property: how many, and the first few.
    public struct ViolationGroup: Sendable, Hashable, Codable {
        /// The kind of violation, such as `missing-edge`.
        public var kind: String
        /// The entity concerned, if any.
        public var entity: String?
        /// The property concerned, if any.
        public var property: String?
        /// How many times the violation occurs.
        public var count: Int
        /// The first few occurrences, each described in one line.
        public var examples: [String]

        /// Creates a violation group.
        public init(kind: String, entity: String?, property: String?, count: Int, examples: [String]) {
            self.kind = kind
            self.entity = entity
            self.property = property
            self.count = count
            self.examples = examples
        }
    }

    /// Whether the store has no violation.
    public var passed: Bool
    /// How many objects and edges were checked.
    public var checked: Int
    /// The violations, grouped by kind, entity and property.
    public var violations: [ViolationGroup]
    /// The checks that could not run, each with its reason.
    public var notChecked: [String]
    /// True when the scenario expects violations (it shows data that Core Data's behaviour loses): then a
    /// clean store is the failure. Absent means false.
    public var violationsExpected: Bool?

    /// Creates a verification result.
    public init(
        passed: Bool, checked: Int, violations: [ViolationGroup], notChecked: [String], violationsExpected: Bool? = nil
    ) {
        self.passed = passed
        self.checked = checked
        self.violations = violations
        self.notChecked = notChecked
        self.violationsExpected = violationsExpected
    }

    /// Whether the verdict is what the scenario expects: no violation, or violations where they are expected.
    public var isAsExpected: Bool { passed != (violationsExpected ?? false) }

    /// The number of violations in all groups.
    public var violationCount: Int { violations.reduce(0) { $0 + $1.count } }
}
