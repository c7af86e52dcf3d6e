extension ModelCheck {
    /// The progressive walk of a store from ``origin`` to the check's current version.
    public struct Walk: Sendable, Hashable, Codable {
        /// One consecutive step of the walk.
        public struct Step: Sendable, Hashable, Codable {
            /// The version the step starts from.
            public var from: String
            /// The version the step ends at.
            public var to: String

            /// Creates a step.
            public init(from: String, to: String) {
                self.from = from
                self.to = to
            }
        }

        /// The version the store starts at.
        public var origin: String
        /// The consecutive steps, in order (none between versions with identical entity hashes).
        public var steps: [Step]

        /// Creates a walk.
        public init(origin: String, steps: [Step]) {
            self.origin = origin
            self.steps = steps
        }
    }

    /// The code of a finding that says where a store's two paths end differently.
    package static let pathsDifferCode = "pathsDiffer"

    /// Where a store's two paths end differently, at each size: Core Data's single step from its version to
    /// ``current``, and the progressive walk from it (``walks``: the consecutive steps, each run on a store
    /// generated at its source version). Decided from ``steps`` alone, so that a check run in shards and merged
    /// finds what the whole check finds; a walk some of whose steps did not run (another shard's) is left out.
    package func pathDifferences() -> [Finding] {
        guard let walks else { return [] }
        var findings: [Finding] = []
        for size in sizes {
            let ran = Dictionary(
                steps.filter { $0.size == size }.map { ([$0.from, $0.to], $0) }, uniquingKeysWith: { first, _ in first }
            )
            for walk in walks {
                guard let direct = ran[[walk.origin, current]] else { continue }
                let walked = walk.steps.compactMap { ran[[$0.from, $0.to]] }
                guard walked.count == walk.steps.count else { continue }
                // The walk stops at its first step that does not pass.
                let broken = walked.first { $0.outcome != .passed }
                guard (direct.outcome == .passed) != (broken == nil) else { continue }
                let message =
                    broken.map { step in
                        "a store at \(direct.from): Core Data's single step to \(current) passes, but the progressive "
                            + "walk fails at \(step.from) → \(step.to) (\(step.outcome.rawValue)): an app that "
                            + "migrates step by step loses what Core Data keeps"
                    }
                    ?? ("a store at \(direct.from): Core Data's single step to \(current) ends "
                        + "\(direct.outcome.rawValue), while every step of the progressive walk passes")
                findings.append(
                    Finding(
                        code: Self.pathsDifferCode, severity: .warning, from: direct.from, to: current, entity: nil,
                        property: nil, message: message + " (\(size) objects per entity)"))
            }
        }
        return findings
    }
}
