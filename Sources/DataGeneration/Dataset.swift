/// What to generate: a seed, how many objects of each entity, how relationships fan out, how values look.
///
/// Counts are multiples of a size given at generation time, so one dataset serves every store size.
/// Keys name entities (`Post`) or properties (`Post.title`, `Author.books`).
///
/// ```yaml
/// seed: 7
/// objects: { Author: 0.1, Book: 1 }        # per size: 10,000 authors and 100,000 books at size 100,000
/// relationships:
///   Author.books: { count: [5, 15] }        # each author has 5 to 15 books
///   Book.editor: { fill: 0.5 }              # half the books have an editor
/// attributes:
///   Book.title: { length: [10, 40], nullRatio: 0 }
///   Book.genre: { distinct: 12 }            # only 12 different values
/// stringLength: [8, 24]
/// nullRatio: 0.1
/// ```
public struct Dataset: Sendable, Hashable, Codable {
    /// The seed: the same seed, model version and size give the same store content, byte for byte.
    public var seed: UInt64
    /// Objects per entity as a multiple of the size; concrete entities not listed get 1, abstract ones 0.
    public var objects: [String: Double]
    /// Fan-outs per relationship, keyed `Entity.relationship`.
    public var relationships: [String: RelationshipFill]
    /// Value shapes per attribute, keyed `Entity.attribute`.
    public var attributes: [String: AttributeFill]
    /// The default length of strings, in characters.
    public var stringLength: IntRange
    /// The default length of binary values, in bytes.
    public var binaryLength: IntRange
    /// The default share of nil values in optional attributes.
    public var nullRatio: Double
    /// The file and lines it was read from, for errors; not part of the dataset's value.
    var source = DatasetSource()

    enum CodingKeys: String, CodingKey {
        case seed, objects, relationships, attributes, stringLength, binaryLength, nullRatio
    }

    /// Creates a dataset; every field has a default.
    public init(
        seed: UInt64 = 1,
        objects: [String: Double] = [:],
        relationships: [String: RelationshipFill] = [:],
        attributes: [String: AttributeFill] = [:],
        stringLength: IntRange = IntRange(8, 24),
        binaryLength: IntRange = IntRange(16, 64),
        nullRatio: Double = 0.1
    ) {
        self.seed = seed
        self.objects = objects
        self.relationships = relationships
        self.attributes = attributes
        self.stringLength = stringLength
        self.binaryLength = binaryLength
        self.nullRatio = nullRatio
    }

    /// Decodes a dataset; every key is optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Dataset()
        self.seed = try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? defaults.seed
        self.objects = try container.decodeIfPresent([String: Double].self, forKey: .objects) ?? [:]
        self.relationships =
            try container.decodeIfPresent([String: RelationshipFill].self, forKey: .relationships) ?? [:]
        self.attributes = try container.decodeIfPresent([String: AttributeFill].self, forKey: .attributes) ?? [:]
        self.stringLength = try container.decodeIfPresent(IntRange.self, forKey: .stringLength) ?? defaults.stringLength
        self.binaryLength = try container.decodeIfPresent(IntRange.self, forKey: .binaryLength) ?? defaults.binaryLength
        self.nullRatio = try container.decodeIfPresent(Double.self, forKey: .nullRatio) ?? defaults.nullRatio
    }
}

/// How a relationship fans out.
public struct RelationshipFill: Sendable, Hashable, Codable {
    /// For a to-one: the share of objects that have a destination (1 for a required relationship).
    public var fill: Double?
    /// For a to-many: how many destination objects each object has, drawn evenly from the range
    /// and kept within the model's min/max counts.
    public var count: IntRange?
    /// For a to-many: the fan-out measured in a store by `shape`, which generation follows instead of `count`.
    public var shape: FanOutShape?

    /// Creates a fan-out.
    public init(fill: Double? = nil, count: IntRange? = nil, shape: FanOutShape? = nil) {
        self.fill = fill
        self.count = count
        self.shape = shape
    }
}

/// How the values of one attribute look.
public struct AttributeFill: Sendable, Hashable, Codable {
    /// The share of nil values (optional attributes only).
    public var nullRatio: Double?
    /// The length of strings (characters) or binary values (bytes).
    public var length: IntRange?
    /// Draw values from this many different ones only, to make duplicates.
    public var distinct: Int?
    /// The distribution measured in a store by `shape`, which generation follows instead of `length` and
    /// `distinct`.
    public var shape: AttributeShape?

    /// Creates a value shape.
    public init(nullRatio: Double? = nil, length: IntRange? = nil, distinct: Int? = nil, shape: AttributeShape? = nil) {
        self.nullRatio = nullRatio
        self.length = length
        self.distinct = distinct
        self.shape = shape
    }
}

/// An inclusive range of whole numbers, written `[min, max]` or as one number in files.
public struct IntRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The smallest value.
    public var min: Int
    /// The largest value.
    public var max: Int

    /// Creates `min...max`.
    public init(_ min: Int, _ max: Int) {
        self.min = min
        self.max = max
    }

    /// Decodes `[min, max]` or a single number.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let value = try? single.decode(Int.self) {
            self.init(value, value)
            return
        }
        let pair = try single.decode([Int].self)
        guard pair.count == 2, pair[0] <= pair[1], pair[0] >= 0 else {
            throw DecodingError.dataCorruptedError(
                in: single, debugDescription: "expected [min, max] with 0 ≤ min ≤ max, got \(pair)")
        }
        self.init(pair[0], pair[1])
    }

    /// Encodes `[min, max]`.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode([min, max])
    }

    /// `[min, max]`.
    public var description: String { "[\(min), \(max)]" }
}
