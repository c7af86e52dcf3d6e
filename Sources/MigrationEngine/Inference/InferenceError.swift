/// Why a lightweight (inferred) mapping cannot be made between two model versions.
///
/// Lists every problem, not just the first, each naming the entity, the property and the rule it breaks.
public struct InferenceError: Error, Sendable, CustomStringConvertible {
    /// A lightweight-migration rule.
    public enum Rule: String, Sendable, Hashable {
        /// An attribute's type changed.
        case typeChange = "type change"
        /// A required property was added, or made required, without a default value to fill it.
        case requiredWithoutDefault = "required without default"
        /// A to-many relationship became to-one.
        case toManyToToOne = "to-many to to-one"
        /// Entities of several source inheritance trees end up in one destination tree.
        case mergedHierarchies = "merged hierarchies"
        /// A relationship now points at an entity that does not correspond to its old destination.
        case destinationChange = "destination change"
        /// Two destination entities or properties claim the same source one.
        case ambiguousRename = "ambiguous rename"
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

        /// `entity 'Post', property 'title': type change: String → Integer 32`.
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
