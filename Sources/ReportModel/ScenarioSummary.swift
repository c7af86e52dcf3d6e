/// A scenario as the report describes it: where it came from and the steps of its migration chain.
public struct ScenarioSummary: Sendable, Hashable, Codable {
    /// One step of a migration chain: from one model version to the next.
    public struct Step: Sendable, Hashable, Codable {
        /// The source model version.
        public var from: String
        /// The destination model version.
        public var to: String
        /// `lightweight` (an inferred mapping) or `heavyweight` (a mapping model).
        public var kind: String
        /// The mapping model file, or nil for an inferred mapping.
        public var mapping: String?

        /// Creates a step.
        public init(from: String, to: String, kind: String, mapping: String?) {
            self.from = from
            self.to = to
            self.kind = kind
            self.mapping = mapping
        }
    }

    /// The scenario's name, as cells refer to it.
    public var name: String
    /// A title for people.
    public var title: String
    /// What the scenario shows.
    public var description: String
    /// The scenario file, relative to the repository.
    public var file: String
    /// The model versions the chain crosses, in order.
    public var chain: [String]
    /// The steps between consecutive versions of ``chain``.
    public var steps: [Step]
    /// What the scenario's files raise before any cell runs, such as a `policyNotSimulated` warning for an entity
    /// mapping whose policy class runs as the base policy (`unboundPolicies: base`); nil when nothing (and in older
    /// reports).
    public var findings: [Finding]?

    /// Creates a scenario summary.
    public init(
        name: String, title: String, description: String, file: String, chain: [String], steps: [Step],
        findings: [Finding]? = nil
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.file = file
        self.chain = chain
        self.steps = steps
        self.findings = findings
    }
}
