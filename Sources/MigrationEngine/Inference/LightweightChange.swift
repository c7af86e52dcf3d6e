/// One change a lightweight step makes, as `plan` lists it: what happens to an entity or a property.
public struct LightweightChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of change it is.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A new entity or property: objects start without it (its default value, or empty).
        case added
        /// An entity or property that is gone, with its values.
        case removed
        /// Matched through a shared renaming identifier under another name; its values are kept.
        case renamed
        /// An attribute whose numeric or Boolean type changed; its values are converted.
        case converted
        /// An attribute made required with a default value: objects without a value get the default.
        case filled
        /// A to-one relationship made to-many, or the reverse of ordered; its objects are kept.
        case reshaped
        /// A required value that existing objects cannot have: the step fails on the first object without
        /// one (Core Data's 134110); a store without such objects migrates.
        case needsValue
        /// Data Core Data's inferred mapping drops without an error.
        case dataLoss
    }

    /// The destination entity (the source one for a removed entity or property).
    public let entity: String
    /// The property, or nil for a change of the whole entity.
    public let property: String?
    /// What kind of change it is.
    public let change: Kind
    /// What changes, in words.
    public let detail: String

    /// Creates a change.
    public init(entity: String, property: String?, change: Kind, detail: String) {
        self.entity = entity
        self.property = property
        self.change = change
        self.detail = detail
    }

    private enum CodingKeys: String, CodingKey {
        case entity, property, change, detail
    }

    /// Encodes every key, `property` as null for a change of the whole entity.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entity, forKey: .entity)
        try container.encode(property, forKey: .property)
        try container.encode(change, forKey: .change)
        try container.encode(detail, forKey: .detail)
    }

    /// `Post.title: dataLoss: …`.
    public var description: String {
        "\(property.map { "\(entity).\($0)" } ?? entity): \(change.rawValue): \(detail)"
    }
}
