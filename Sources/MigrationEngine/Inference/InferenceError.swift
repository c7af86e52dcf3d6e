/// Why a lightweight (inferred) mapping cannot be made between two model versions: Core Data's
/// `NSInferredMappingModelError` (134190).
///
/// Lists every problem, not just the first, each naming the entity, the property and the rule it breaks.
public struct InferenceError: Error, Sendable, CustomStringConvertible {
    /// A lightweight-migration rule.
    public enum Rule: String, Sendable, Hashable {
        /// An attribute's type changed between incompatible types (Core Data: "Source and destination
        /// attribute types are incompatible").
        case typeChange = "type change"
        /// A to-many relationship became to-one ("Can not map from a to-many to a to-one relationship").
        case toManyToToOne = "to-many to to-one"
        /// Binary data kept outside the store would have to move into it ("Unable to use inferred mapping to
        /// move external reference into store").
        case externalIntoStore = "external data into store"
        /// Two entities of one version, or two properties of one entity, share a renaming identifier.
        case duplicateRenamingIdentifier = "duplicate renaming identifier"
        /// Entities of several source inheritance trees end up in one destination tree (Apple's rule for
        /// lightweight migration).
        case mergedHierarchies = "merged hierarchies"
    }

    /// One reason the mapping cannot be inferred.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The destination entity.
        public let entity: String
        /// The destination property, when the problem is in one.
        public let property: String?
        /// The rule broken.
        public let rule: Rule
        /// What changed, in words.
        public let detail: String

        /// `entity 'Post', property 'title': type change: Source and destination attribute types are incompatible: …`.
        public var description: String {
            let subject = property.map { "entity '\(entity)', property '\($0)'" } ?? "entity '\(entity)'"
            return "\(subject): \(rule.rawValue): \(detail)"
        }
    }

    /// The source version.
    public let source: String
    /// The destination version.
    public let destination: String
    /// Every problem found.
    public let problems: [Problem]

    /// All problems, one per line, after a line naming the two versions.
    public var description: String {
        (["no lightweight mapping from '\(source)' to '\(destination)':"] + problems.map { "  \($0)" })
            .joined(separator: "\n")
    }
}
