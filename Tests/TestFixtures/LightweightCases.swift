public import ObjectModel

/// One rule of Core Data's lightweight migration (`formats/lightweight.md`) as a small pair of model versions,
/// with what Core Data does with it. The engine's inference, its in-place migration, a generated store and the
/// verifier all run every case of ``all`` and must agree with it.
public struct LightweightCase: Sendable, CustomStringConvertible {
    /// What Core Data does with the step.
    public enum Outcome: Sendable, Equatable {
        /// The mapping is inferred and the step migrates stores with objects.
        case infers
        /// The mapping is inferred, but a store with an object lacking `entity.property` fails (134110).
        case needsValue(entity: String, property: String)
        /// Inference refuses the step (134190) for this rule (an `InferenceError.Rule` raw value).
        case refuses(rule: String, entity: String, property: String?)
    }

    /// The rule, with the note's section.
    public let rule: String
    /// The source version's entities.
    public let source: [Entity]
    /// The destination version's entities.
    public let destination: [Entity]
    /// What Core Data does.
    public let outcome: Outcome
    /// Changes the plan must list, as `Entity.property kind` or `Entity kind`.
    public let changes: [String]
    /// Destination `Entity.property` ← source `Entity.property` whose stored values (attributes, to-one
    /// keys) must all be carried over: as many set values after the step as before, and at least one.
    public let kept: [(String, String)]
    /// How full the source store's optional to-one relationships are (`Entity.relationship` → fraction).
    public let fills: [String: Double]

    init(
        _ rule: String, _ source: [Entity], _ destination: [Entity], _ outcome: Outcome = .infers,
        changes: [String] = [], kept: [(String, String)] = [], fills: [String: Double] = [:]
    ) {
        self.rule = rule
        self.source = source
        self.destination = destination
        self.outcome = outcome
        self.changes = changes
        self.kept = kept
        self.fills = fills
    }

    /// The rule, naming the case in test output.
    public var description: String { rule }

    /// Every rule of the note, each with its model pair.
    public static let all: [LightweightCase] = matching + refusals + conversions + validation + losses + shapes
}

extension LightweightCase {
    static func item(_ attributes: [Attribute], _ relationships: [Relationship] = []) -> Entity {
        Entity(
            name: "Item", attributes: [Attribute(name: "title", type: .string)] + attributes,
            relationships: relationships)
    }

    static func optional(_ name: String, _ type: AttributeType, id: String? = nil) -> Attribute {
        Attribute(name: name, type: type, isOptional: true, renamingIdentifier: id)
    }

    /// `Item.tags` ↔ `Tag.item`, with the given shapes.
    static func tagged(
        tags: Relationship = Relationship(name: "tags", destination: "Tag", inverse: "item", isToMany: true),
        inverse: Relationship = Relationship(name: "item", destination: "Item", inverse: "tags"),
        tag: String = "Tag", tagID: String? = nil
    ) -> [Entity] {
        [
            item([], [tags]),
            Entity(
                name: tag, attributes: [Attribute(name: "name", type: .string)], relationships: [inverse],
                renamingIdentifier: tagID),
        ]
    }

    /// `Item.tag` ↔ `Tag.items`, where `Tag` has a subentity `Special` when `special` is true.
    static func subtagged(_ special: Bool) -> [Entity] {
        [
            item([], [Relationship(name: "tag", destination: "Tag", inverse: "items")]),
            Entity(
                name: "Tag", attributes: [Attribute(name: "name", type: .string)],
                relationships: [Relationship(name: "items", destination: "Item", inverse: "tag", isToMany: true)]),
        ] + (special ? [Entity(name: "Special", parent: "Tag")] : [])
    }

    static let tag = Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)])

    static let matching: [LightweightCase] = [
        .init(
            "§2.2 an attribute renamed through its renaming identifier", [item([optional("title2", .string)])],
            [item([optional("heading", .string, id: "title2")])], changes: ["Item.heading renamed"],
            kept: [("Item.heading", "Item.title2")]),
        .init(
            "§2.2 (g) a second rename sharing the identifier migrates from the middle version",
            [item([optional("fullName", .string, id: "name")])], [item([optional("displayName", .string, id: "name")])],
            changes: ["Item.displayName renamed"], kept: [("Item.displayName", "Item.fullName")]),
        .init(
            "§2.2 an entity renamed through its renaming identifier", [item([optional("note", .string)])],
            [
                Entity(
                    name: "Entry", attributes: item([optional("note", .string)]).attributes, renamingIdentifier: "Item")
            ],
            changes: ["Entry renamed"], kept: [("Entry.note", "Item.note")]),
        .init(
            "§2.2 a transient attribute made stored is a new column",
            [item([Attribute(name: "cache", type: .string, isOptional: true, isTransient: true)])],
            [item([optional("cache", .string)])], changes: ["Item.cache added"]),
        .init(
            "§2.2 an attribute and a relationship sharing an identifier are not matched",
            [item([optional("tag", .string)]), tag],
            [item([], [Relationship(name: "tag", destination: "Tag")]), tag], changes: ["Item.tag dataLoss"]),
        .init(
            "§2.2 two properties of one entity with one renaming identifier", [item([])],
            [item([optional("subtitle", .string, id: "title")])],
            .refuses(rule: "duplicate renaming identifier", entity: "Item", property: "title")),
        .init(
            "§2.2 two destination entities with one renaming identifier", [item([])],
            [item([]), Entity(name: "Entry", attributes: item([]).attributes, renamingIdentifier: "Item")],
            .refuses(rule: "duplicate renaming identifier", entity: "Item", property: nil)),
    ]

    static let refusals: [LightweightCase] = [
        .init(
            "§2.3 (d) String → Integer 16 is refused", [item([optional("count", .string)])],
            [item([optional("count", .integer16)])],
            .refuses(rule: "type change", entity: "Item", property: "count")),
        .init(
            "§2.3 Date → Double is refused", [item([optional("when", .date)])], [item([optional("when", .double)])],
            .refuses(rule: "type change", entity: "Item", property: "when")),
        .init(
            "§2.3 a to-many made to-one is refused", tagged(),
            tagged(tags: Relationship(name: "tags", destination: "Tag", inverse: "item")),
            .refuses(rule: "to-many to to-one", entity: "Item", property: "tags")),
        .init(
            "§2.3 external binary data moved into the store is refused",
            [item([Attribute(name: "photo", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true)])],
            [item([optional("photo", .binary)])],
            .refuses(rule: "external data into store", entity: "Item", property: "photo")),
    ]

    static let conversions: [LightweightCase] = [
        (AttributeType.integer16, AttributeType.integer64), (.integer16, .integer32), (.integer64, .double),
        (.integer64, .decimal), (.boolean, .integer32), (.integer32, .boolean), (.double, .integer32),
        (.double, .float), (.decimal, .double),
        // Found in review: a fraction into a Boolean, a decimal into an integer, a Boolean into a real.
        (.double, .boolean), (.float, .integer16), (.decimal, .integer32), (.boolean, .double), (.decimal, .boolean),
    ].map { from, to in
        .init(
            "§2.7 (d) \(from.rawValue) → \(to.rawValue) is inferred and converted", [item([optional("n", from)])],
            [item([optional("n", to)])], changes: ["Item.n converted"], kept: [("Item.n", "Item.n")])
    }

    static let validation: [LightweightCase] = [
        .init(
            "§2.4 (c) a new required attribute without a default", [item([])],
            [item([Attribute(name: "code", type: .string)])], .needsValue(entity: "Item", property: "code"),
            changes: ["Item.code added", "Item.code needsValue"]),
        .init(
            "§2.4 (c) a new required attribute with a default", [item([])],
            [item([Attribute(name: "code", type: .string, defaultValue: .string("none"))])],
            changes: ["Item.code added"]),
        .init(
            "§2.4 (e) an optional attribute made required without a default", [item([optional("note", .string)])],
            [item([Attribute(name: "note", type: .string)])], .needsValue(entity: "Item", property: "note"),
            changes: ["Item.note needsValue"]),
        .init(
            "§2.4 (e) an optional attribute made required with a default", [item([optional("note", .string)])],
            [item([Attribute(name: "note", type: .string, defaultValue: .string("-"))])],
            changes: ["Item.note filled"]),
        .init(
            "§2.4 (e) an optional date made required with a default", [item([optional("due", .date)])],
            [item([Attribute(name: "due", type: .date, defaultValue: .date(86_400.5))])],
            changes: ["Item.due filled"]),
        .init(
            "§2.4 (e) an optional text made required with a default that needs escaping",
            [item([optional("note", .string)])],
            [item([Attribute(name: "note", type: .string, defaultValue: .string("say \"hi\"\\n"))])],
            changes: ["Item.note filled"]),
        .init(
            "§2.4 (b) a new required to-one", [item([]), tag],
            [
                item([]),
                Entity(
                    name: "Tag", attributes: tag.attributes,
                    relationships: [
                        Relationship(name: "owner", destination: "Item", isOptional: false)
                    ]),
            ], .needsValue(entity: "Tag", property: "owner"), changes: ["Tag.owner needsValue"]),
        .init(
            "§2.6 (a) a new required to-many with minCount 0 is inferred and left empty", [item([]), tag],
            tagged(
                tags: Relationship(name: "tags", destination: "Tag", inverse: "item", isToMany: true, isOptional: false)
            ),
            changes: ["Item.tags added", "Tag.item added"]),
        .init(
            "§2.4 a new required to-many with minCount 1", [item([]), tag],
            tagged(
                tags: Relationship(
                    name: "tags", destination: "Tag", inverse: "item", isToMany: true, isOptional: false, minCount: 1)),
            .needsValue(entity: "Item", property: "tags"), changes: ["Item.tags needsValue"]),
        .init(
            "§2.4 a to-one made required", tagged(),
            tagged(inverse: Relationship(name: "item", destination: "Item", inverse: "tags", isOptional: false)),
            .needsValue(entity: "Tag", property: "item"), changes: ["Tag.item needsValue"], fills: ["Tag.item": 0.5]),
    ]

    static let losses: [LightweightCase] = [
        .init(
            "§2.5 a property removed while a likely rename is added", [item([optional("note", .string)])],
            [item([optional("notes", .string)])], changes: ["Item.note dataLoss", "Item.notes added"]),
        .init(
            "§2.5 a property removed while an unrelated one is added", [item([optional("customerID", .string)])],
            [item([optional("keyword", .string)])], changes: ["Item.customerID removed", "Item.keyword added"]),
        .init(
            "§2.5 an entity removed while one with its attributes is added", [item([]), tag],
            [item([]), Entity(name: "Label", attributes: tag.attributes)], changes: ["Tag dataLoss", "Label added"]),
        .init(
            "§2.5 an entity removed while an unrelated one is added", [item([]), tag],
            [
                item([]),
                Entity(name: "Device", attributes: [Attribute(name: "serial", type: .string, isOptional: true)]),
            ],
            changes: ["Tag removed", "Device added"]),
        .init(
            "§2.5 (f) a relationship whose destination entity was replaced comes out empty", tagged(),
            tagged(
                tags: Relationship(name: "tags", destination: "Label", inverse: "item", isToMany: true), tag: "Label"),
            changes: ["Item.tags dataLoss", "Tag dataLoss"]),
        .init(
            // With another edit that changes the hash: alone, it would migrate nothing (the case of §2.1 below).
            "§2.5 (g) a renaming identifier changed under the same name", [item([optional("muted", .boolean)])],
            [item([optional("muted", .boolean, id: "mutedStatus"), optional("level", .integer16)])],
            changes: ["Item.muted dataLoss", "Item.level added"]),
        .init(
            "a subentity removed: edges to its objects go with them, none left dangling (review)", subtagged(true),
            subtagged(false), changes: ["Special removed"], fills: ["Item.tag": 1.0]),
        .init(
            "§2.1 equal hashes migrate nothing: a renaming identifier added alone is never looked at (review)",
            [item([optional("x", .string)])], [item([optional("x", .string, id: "y")])], kept: [("Item.x", "Item.x")]),
        .init(
            "a property removed alone", [item([optional("note", .string)])], [item([])],
            changes: ["Item.note removed"]),
    ]

    static let shapes: [LightweightCase] = [
        .init(
            "§2.3 a to-one made to-many", tagged(),
            tagged(
                tags: Relationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                inverse: Relationship(
                    name: "items", destination: "Item", inverse: "tags", isToMany: true, renamingIdentifier: "item")),
            changes: ["Tag.items reshaped", "Tag.items renamed"], fills: ["Tag.item": 0.7]),
        .init(
            "§2.3 an unordered to-many made ordered", tagged(),
            tagged(
                tags: Relationship(name: "tags", destination: "Tag", inverse: "item", isToMany: true, isOrdered: true)),
            changes: ["Item.tags reshaped"], fills: ["Tag.item": 0.7]),
        .init(
            "§2.5 (f) a relationship follows its destination entity's rename", tagged(),
            tagged(
                tags: Relationship(name: "tags", destination: "Label", inverse: "item", isToMany: true), tag: "Label",
                tagID: "Tag"),
            changes: ["Label renamed"], kept: [("Label.item", "Tag.item")], fills: ["Tag.item": 0.7]),
        .init(
            "a kept to-many whose inverse is a new to-one keeps its edges (review)", tagged(),
            tagged(
                tags: Relationship(name: "tags", destination: "Tag", inverse: "owner", isToMany: true),
                inverse: Relationship(name: "owner", destination: "Item", inverse: "tags")),
            changes: ["Tag.owner added"], kept: [("Tag.owner", "Tag.item")], fills: ["Tag.item": 0.7]),
    ]
}
