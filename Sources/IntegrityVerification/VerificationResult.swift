/// What a verified store breaks: one kind of violation, named in the result and in `verify --json`.
public enum ViolationKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A table or column the destination model needs is missing, or one it does not have is present.
    case schema
    /// The metadata's entity version hashes are not the destination model's.
    case metadata
    /// `Z_PRIMARYKEY` does not number the entities as the destination model does, or a row has a wrong `Z_ENT`.
    case entityNumber
    /// A source object that its mapping migrates has no destination object.
    case missingObject
    /// A destination object has no source object, and no mapping adds it.
    case unexpectedObject
    /// An entity holds another number of objects than its mappings make.
    case objectCount
    /// An attribute's value is not what its mapping gives.
    case attributeValue
    /// A source relationship edge is missing between the corresponding destination objects.
    case missingEdge
    /// A destination relationship edge has no source edge.
    case unexpectedEdge
    /// An ordered relationship holds its objects in another order than the source.
    case edgeOrder
    /// The two sides of a one-to-one relationship do not point at each other.
    case inverseMismatch
    /// A foreign key or join-table row points at no object of the relationship's destination entity.
    case danglingForeignKey
    /// A required attribute or to-one relationship is empty.
    case optionality
    /// A to-many relationship holds fewer or more objects than its minimum or maximum count.
    case relationshipCount
    /// Two objects share the values of a uniqueness constraint.
    case uniqueness
    /// `PRAGMA integrity_check` found damage.
    case integrityCheck
    /// A check could not run (an SQL error on a damaged store): what it would have found is unknown, so the
    /// verification fails. The example names the check and the error.
    case checkFailed
}

/// One instance of a violation: the object's primary key, when there is one, and what is wrong with it.
public struct ViolationExample: Sendable, Hashable, Codable {
    /// The primary key (`Z_PK`) of the object at fault, if the violation is about one object.
    public let primaryKey: Int64?
    /// What was expected and what was found.
    public let detail: String

    /// Creates an example.
    public init(primaryKey: Int64?, detail: String) {
        self.primaryKey = primaryKey
        self.detail = detail
    }
}

/// All violations of one kind on one entity and property: how many, and the first few.
public struct ViolationGroup: Sendable, Hashable, Encodable {
    /// The kind of violation.
    public let kind: ViolationKind
    /// The destination entity (or source entity, for a missing object), when the violation concerns one.
    public let entity: String?
    /// The property, when the violation concerns one.
    public let property: String?
    /// How many times the violation occurs.
    public let count: Int
    /// The first occurrences, at most ``ViolationCollector/exampleLimit``.
    public let examples: [ViolationExample]

    /// Creates a group.
    public init(kind: ViolationKind, entity: String?, property: String?, count: Int, examples: [ViolationExample]) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.count = count
        self.examples = examples
    }

    /// Encodes `entity` and `property` as `null` when absent, so that every group has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(entity, forKey: .entity)
        try container.encode(property, forKey: .property)
        try container.encode(count, forKey: .count)
        try container.encode(examples, forKey: .examples)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, entity, property, count, examples
    }
}

/// A check the verifier did not perform, and why: never counted as passed.
public struct SkippedCheck: Sendable, Hashable, Codable {
    /// The kind of violation the check would have found.
    public let kind: ViolationKind
    /// The entity concerned, if any.
    public let entity: String?
    /// The property concerned, if any.
    public let property: String?
    /// Why the check could not be made.
    public let reason: String

    /// Creates a skipped check.
    public init(kind: ViolationKind, entity: String?, property: String?, reason: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.reason = reason
    }
}

/// The verdict on a migrated store: every violation, grouped, and the checks that could not be made.
public struct VerificationResult: Sendable, Hashable, Encodable {
    /// The violations, grouped by kind, entity and property, in the order they were first found.
    public let violations: [ViolationGroup]
    /// The checks that were not performed, with their reasons.
    public let notChecked: [SkippedCheck]

    /// Creates a result.
    public init(violations: [ViolationGroup], notChecked: [SkippedCheck]) {
        self.violations = violations
        self.notChecked = notChecked
    }

    /// Whether no check found a violation.
    public var passed: Bool { violations.isEmpty }

    /// The groups of `kind`.
    public func violations(of kind: ViolationKind) -> [ViolationGroup] {
        violations.filter { $0.kind == kind }
    }

    /// Encodes `passed` along with the groups and skipped checks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(passed, forKey: .passed)
        try container.encode(violations, forKey: .violations)
        try container.encode(notChecked, forKey: .notChecked)
    }

    private enum CodingKeys: String, CodingKey {
        case passed, violations, notChecked
    }
}
