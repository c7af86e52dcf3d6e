import MappingModel
import ObjectModel
import Testing

/// The rules of the kinds, checked on mapping models built in code, and what validation compiles.
struct MappingValidationTests {
    static func validate(_ mappings: [EntityMapping], policies: Set<String>? = nil) throws -> CompiledMappingModel {
        let model = MappingModel(name: "Test", entityMappings: mappings)
        return try model.validated(
            source: try Library.version("V1"), destination: try Library.version("V2"), policies: policies)
    }

    static let kindViolations: [EntityMapping] = [
        EntityMapping(name: "AddWithSource", kind: .add, sourceEntity: "Author", destinationEntity: "Author"),
        EntityMapping(name: "AddWithoutDestination", kind: .add, sourceEntity: nil, destinationEntity: nil),
        EntityMapping(
            name: "AddWithFilter", kind: .add, sourceEntity: nil, destinationEntity: "Author", sourceFilter: "true"),
        EntityMapping(
            name: "RemoveWithDestination", kind: .remove, sourceEntity: "Author", destinationEntity: "Author"),
        EntityMapping(name: "RemoveWithoutSource", kind: .remove, sourceEntity: nil, destinationEntity: nil),
        EntityMapping(
            name: "RemoveWithProperties", kind: .remove, sourceEntity: "Author", destinationEntity: nil,
            attributeMappings: [PropertyMapping(name: "name", valueExpression: "'x'")]),
        EntityMapping(name: "TransformWithoutSource", kind: .transform, sourceEntity: nil, destinationEntity: "Author"),
        EntityMapping(name: "CopyWithoutDestination", kind: .copy, sourceEntity: "Author", destinationEntity: nil),
        EntityMapping(name: "CustomWithoutPolicy", kind: .custom, sourceEntity: "Author", destinationEntity: "Author"),
    ]

    @Test(arguments: kindViolations)
    func kindRulesAreEnforced(mapping: EntityMapping) {
        #expect {
            _ = try Self.validate([mapping])
        } throws: { error in
            let error = error as? MappingError
            return error?.code == .invalidKind && error?.mapping == mapping.name
        }
    }

    @Test func aCopyMapsEveryDestinationProperty() throws {
        let compiled = try Self.validate([
            EntityMapping(
                name: "AuthorToAuthor", kind: .copy, sourceEntity: "Author", destinationEntity: "Author",
                attributeMappings: [PropertyMapping(name: "name", valueExpression: "uppercase($source.name)")]),
            EntityMapping(name: "BookToBook", kind: .copy, sourceEntity: "Book", destinationEntity: "Book"),
        ])
        let author = try #require(compiled.entityMapping(named: "AuthorToAuthor"))
        #expect(
            author.attributes.map(\.name) == [
                "name", "age", "rating", "price", "born", "active", "identifier", "photo", "site", "nickname",
            ])
        #expect(author.attribute(named: "name")?.expression?.text == "uppercase($source.name)")
        #expect(author.attribute(named: "age")?.expression?.text == "$source.age")
        #expect(author.relationships.map(\.name) == ["books", "editor"])
        #expect(author.relationship(named: "books")?.expression?.type == .objects("Book", .destination))
        #expect(author.relationship(named: "editor")?.expression?.type == .object("Author", .destination))
    }

    @Test func addAndRemoveMappingsValidate() throws {
        let compiled = try Self.validate([
            EntityMapping(
                name: "AddAuthor", kind: .add, sourceEntity: nil, destinationEntity: "Author",
                attributeMappings: [
                    PropertyMapping(name: "name", valueExpression: "'Anonymous'"),
                    PropertyMapping(name: "identifier", valueExpression: "uuid()"),
                ]),
            EntityMapping(
                name: "RemoveBook", kind: .remove, sourceEntity: "Book", destinationEntity: nil,
                sourceFilter: "$source.pages < 10"),
        ])
        #expect(compiled.entityMappings.map(\.name) == ["AddAuthor", "RemoveBook"])
        #expect(
            compiled.entityMapping(named: "AddAuthor")?.attribute(named: "name")?.expression?.constantValue
                == .string("Anonymous"))
    }

    @Test(arguments: [
        (
            [
                EntityMapping(
                    name: "A", kind: .transform, sourceEntity: "Author", destinationEntity: "Author", policy: "Nope")
            ],
            MappingError.Code.unknownPolicy
        ),
        ([Library.authorMapping, Library.authorMapping], .duplicateName),
        (
            [
                EntityMapping(
                    name: "A", kind: .transform, sourceEntity: "Author", destinationEntity: "Author",
                    attributeMappings: [PropertyMapping(name: "name"), PropertyMapping(name: "name")])
            ], .duplicateName
        ),
        (
            [
                EntityMapping(
                    name: "A", kind: .transform, sourceEntity: "Author", destinationEntity: "Author",
                    attributeMappings: [PropertyMapping(name: "books", valueExpression: "nil")])
            ], .unknownProperty
        ),
        (
            [
                EntityMapping(
                    name: "A", kind: .transform, sourceEntity: "Author", destinationEntity: "Author",
                    relationshipMappings: [PropertyMapping(name: "name", valueExpression: "nil")])
            ], .unknownProperty
        ),
        (
            [
                EntityMapping(
                    name: "A", kind: .transform, sourceEntity: "Author", destinationEntity: "Author",
                    relationshipMappings: [PropertyMapping(name: "books", valueExpression: "$source.books")])
            ], .typeMismatch
        ),
    ])
    func mistakesAreRefused(mappings: [EntityMapping], code: MappingError.Code) {
        #expect {
            _ = try Self.validate(mappings, policies: ["Shouting"])
        } throws: { error in
            (error as? MappingError)?.code == code
        }
    }

    @Test func anEngineEnvironmentChoosesTheSlots() throws {
        struct Reversed: ExpressionEnvironment {
            func attributeSlot(entity: String, attribute: String) -> Int? { attribute == "name" ? 99 : nil }
        }
        let model = MappingModel(
            name: "Test",
            entityMappings: [
                EntityMapping(
                    name: "AuthorToAuthor", kind: .transform, sourceEntity: "Author", destinationEntity: "Author",
                    attributeMappings: [PropertyMapping(name: "name", valueExpression: "$source.name")])
            ])
        let source = try Library.version("V1")
        let destination = try Library.version("V2")
        #expect(throws: Never.self) {
            _ = try model.validated(source: source, destination: destination, environment: Reversed())
        }
        var broken = model
        broken.entityMappings[0].attributeMappings[0].valueExpression = "$source.nickname"
        #expect(throws: MappingError.self) {
            _ = try broken.validated(source: source, destination: destination, environment: Reversed())
        }
    }
}
