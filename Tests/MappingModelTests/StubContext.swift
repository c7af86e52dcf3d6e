import Foundation
import MappingModel
import ObjectModel

/// Two versions of a small library model, built in code: every attribute type the language reads, a to-one,
/// a to-many and a policy.
enum Library {
    static func version(_ name: String) throws -> ModelVersion {
        try ModelVersion(
            name: name,
            entities: [
                Entity(
                    name: "Author",
                    attributes: [
                        Attribute(name: "name", type: .string),
                        Attribute(name: "age", type: .integer16, isOptional: true),
                        Attribute(name: "rating", type: .double, isOptional: true),
                        Attribute(name: "price", type: .decimal, isOptional: true),
                        Attribute(name: "born", type: .date, isOptional: true),
                        Attribute(name: "active", type: .boolean),
                        Attribute(name: "identifier", type: .uuid, isOptional: true),
                        Attribute(name: "photo", type: .binary, isOptional: true),
                        Attribute(name: "site", type: .uri, isOptional: true),
                        Attribute(name: "nickname", type: .string, isOptional: true),
                        Attribute(name: "cached", type: .string, isOptional: true, isTransient: true),
                    ],
                    relationships: [
                        Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true),
                        Relationship(name: "editor", destination: "Author"),
                    ]),
                Entity(
                    name: "Book",
                    attributes: [
                        Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32),
                    ],
                    relationships: [Relationship(name: "author", destination: "Author", inverse: "books")]),
            ])
    }

    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    static let authorMapping = EntityMapping(
        name: "AuthorToAuthor", kind: .transform, sourceEntity: "Author", destinationEntity: "Author",
        attributeMappings: [PropertyMapping(name: "name", userInfo: ["hint": "full name"])],
        policy: "Shouting", userInfo: ["origin": "tests"])
    static let bookMapping = EntityMapping(
        name: "BookToBook", kind: .transform, sourceEntity: "Book", destinationEntity: "Book")

    /// Compiles `text` as an expression of the author mapping.
    static func compile(
        _ text: String,
        purpose: ExpressionScope.Purpose = .value,
        property: String? = "name",
        mapping: EntityMapping = authorMapping
    ) throws -> CompiledExpression {
        let scope = ExpressionScope(
            source: try version("V1"), destination: try version("V2"), entityMapping: mapping,
            entityMappings: [mapping, bookMapping], property: property, purpose: purpose)
        return try ExpressionCompiler(scope: scope).compile(text)
    }
}

/// An ``EvaluationContext`` over a handful of objects held in dictionaries.
final class StubContext: EvaluationContext {
    static let ada = ObjectID(side: .source, entity: 1, primaryKey: 1)
    static let charles = ObjectID(side: .source, entity: 1, primaryKey: 2)
    static let books = [
        ObjectID(side: .source, entity: 2, primaryKey: 10), ObjectID(side: .source, entity: 2, primaryKey: 11),
    ]
    static let newAda = ObjectID(side: .destination, entity: 1, primaryKey: 7)

    var objects: [ObjectID: [String: ExpressionValue]] = [
        ada: [
            "name": .string("Ada"), "age": .integer(36), "rating": .double(4.5), "price": .decimal("2.5"),
            "born": .date(-5_000_000_000), "active": .boolean(true), "identifier": .uuid(Library.uuid),
            "photo": .binary([1, 2, 3]), "site": .uri("https://example.org"), "nickname": .null,
            "books": .objects(books), "editor": .object(charles),
        ],
        charles: ["name": .string("Charles"), "editor": .null, "books": .objects([])],
        newAda: ["name": .string("Ada L.")],
    ]
    private let slots: [Int: String]
    let now = 700_000_000.0
    private(set) var policyCalls: [String] = []

    init() throws {
        let environment = StoredAttributeSlots(model: try Library.version("V1"))
        var slots: [Int: String] = [:]
        for attribute in try Library.version("V1").attributes(of: "Author") {
            if let slot = environment.attributeSlot(entity: "Author", attribute: attribute.name) {
                slots[slot] = attribute.name
            }
        }
        self.slots = slots
    }

    func sourceValue(slot: Int) -> ExpressionValue { objects[Self.ada]?[slots[slot] ?? ""] ?? .null }

    func sourceObject() -> ObjectID? { Self.ada }

    func destinationObject() -> ObjectID? { Self.newAda }

    func value(of object: ObjectID, keyPath: [String]) throws -> ExpressionValue {
        var current = ExpressionValue.object(object)
        for key in keyPath {
            guard case .object(let id) = current else { return .null }
            current = objects[id]?[key] ?? .null
        }
        return current
    }

    /// Destination instances have the source's primary key plus 100.
    private func destinations(_ sources: ExpressionValue) -> ExpressionValue {
        func destination(_ id: ObjectID) -> ObjectID {
            ObjectID(side: .destination, entity: id.entity, primaryKey: id.primaryKey + 100)
        }
        switch sources {
        case .object(let id): return .objects([destination(id)])
        case .objects(let ids): return .objects(ids.map(destination))
        default: return .null
        }
    }

    func destinationInstances(entityMapping: String, sources: ExpressionValue) throws -> ExpressionValue {
        destinations(sources)
    }

    func destinationInstances(sourceRelationship: String, sources: ExpressionValue) throws -> ExpressionValue {
        destinations(sources)
    }

    func callPolicy(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        policyCalls.append(selector)
        guard case .string(let text) = arguments.first else { return .null }
        return .string(text.uppercased() + "!")
    }

    func makeUUID() -> UUID { Library.uuid }
}
