public import MappingModel
public import ObjectModel

/// The correspondence a lightweight migration follows: for every destination entity and property, the
/// source one it comes from, if any. Both the inferred mapping model and the in-place SQL migration
/// are derived from it.
public struct LightweightPlan: Sendable {
    /// One destination entity that has a source counterpart.
    public struct EntityCorrespondence: Sendable, Hashable {
        /// The destination entity.
        public let destination: String
        /// The source entity its objects come from.
        public let source: String
        /// Destination attribute → source attribute; nil for an added attribute (filled with its default).
        /// A source attribute of another (numeric or Boolean) type is converted.
        public let attributes: [String: String?]
        /// Destination relationship → source relationship; nil for an added one, or one whose old objects have
        /// no counterpart it can hold (left empty).
        public let relationships: [String: String?]
    }

    /// The source version.
    public let source: ModelVersion
    /// The destination version.
    public let destination: ModelVersion
    /// The concrete destination entities with a source counterpart, in order of name.
    public let entities: [EntityCorrespondence]
    /// Concrete destination entities without a source: they start empty.
    public let addedEntities: [String]
    /// Concrete source entities without a destination: their objects are dropped.
    public let removedEntities: [String]
    /// Every change the step makes, entity by entity; ``LightweightChange/Kind/needsValue`` ones are checked
    /// when the step runs, ``LightweightChange/Kind/dataLoss`` ones are what Core Data drops without an error.
    public let changes: [LightweightChange]
    /// The same correspondence as a mapping model, as Core Data's inferred mapping model would hold it.
    public let mappingModel: MappingModel

    /// The correspondence of destination entity `name`.
    public func correspondence(forDestination name: String) -> EntityCorrespondence? {
        entities.first { $0.destination == name }
    }
}
