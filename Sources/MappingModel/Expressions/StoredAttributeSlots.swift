public import ObjectModel

/// The default ``ExpressionEnvironment``: an attribute's slot is its position among the entity's stored
/// (non-transient) attributes, inherited ones first, as ``ObjectModel/ModelVersion/attributes(of:)`` lists them.
public struct StoredAttributeSlots: ExpressionEnvironment, Sendable {
    private let slots: [String: [String: Int]]

    /// The slots of every entity of `model`.
    public init(model: ModelVersion) {
        var slots: [String: [String: Int]] = [:]
        for entity in model.entities {
            let stored = model.storedAttributes(of: entity.name)
            slots[entity.name] = Dictionary(uniqueKeysWithValues: stored.enumerated().map { ($1.name, $0) })
        }
        self.slots = slots
    }

    /// The position of `attribute` among the stored attributes of `entity`.
    public func attributeSlot(entity: String, attribute: String) -> Int? {
        slots[entity]?[attribute]
    }
}
