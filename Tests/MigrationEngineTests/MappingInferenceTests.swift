import MappingModel
import ObjectModel
import Testing

@testable import MigrationEngine

@Suite("Mapping inference")
struct MappingInferenceTests {
    static func version(_ name: String, _ entities: [Entity]) throws -> ModelVersion {
        try ModelVersion(name: name, entities: entities)
    }

    static func mapping(_ model: MappingModel, _ name: String) -> EntityMapping? {
        model.entityMappings.first { $0.name == name }
    }

    static func expression(_ mapping: EntityMapping?, _ property: String) -> String?? {
        mapping.flatMap { mapping in
            (mapping.attributeMappings + mapping.relationshipMappings).first { $0.name == property }.map(
                \.valueExpression)
        }
    }

    @Test func identicalVersionsCopyEveryEntity() throws {
        let v1 = try Self.version("V1", [SmallLibrary.author, SmallLibrary.book])
        let v2 = try Self.version("V2", [SmallLibrary.author, SmallLibrary.book])
        let model = try MappingInference.infer(from: v1, to: v2)
        #expect(model.entityMappings.map(\.kind) == [.copy, .copy])
        #expect(Self.expression(Self.mapping(model, "BookToBook"), "title") == "$source.title")
        #expect(Self.mapping(model, "BookToBook")?.sourceEntityVersionHash == v1.versionHashes["Book"])
        #expect(Self.mapping(model, "BookToBook")?.destinationEntityVersionHash == v2.versionHashes["Book"])
    }

    /// Each documented lightweight change, as a change to `Book`, and the expression it infers for one property.
    @Test(arguments: [
        (
            "add optional attribute", Attribute(name: "isbn", type: .string, isOptional: true), "isbn",
            String??.some(nil)
        ),
        (
            "add required attribute with default",
            Attribute(name: "isbn", type: .string, defaultValue: .string("none")), "isbn", String??.some(nil)
        ),
        (
            "rename through renaming identifier",
            Attribute(name: "heading", type: .string, renamingIdentifier: "title"), "heading", "$source.title"
        ),
    ])
    func attributeChangesAreInferred(change: String, attribute: Attribute, property: String, expected: String??) throws
    {
        var changed = SmallLibrary.book
        changed.attributes.removeAll { $0.name == "title" && attribute.renamingIdentifier == "title" }
        changed.attributes.append(attribute)
        let model = try MappingInference.infer(
            from: try Self.version("V1", [SmallLibrary.author, SmallLibrary.book]),
            to: try Self.version("V2", [SmallLibrary.author, changed]))
        let mapping = try #require(Self.mapping(model, "BookToBook"))
        #expect(mapping.kind == .transform, "\(change)")
        #expect(Self.expression(mapping, property) == expected, "\(change)")
    }

    @Test func removedAttributeAndOptionalityChangeWithDefault() throws {
        var changed = SmallLibrary.book
        changed.attributes = [Attribute(name: "title", type: .string)]
        let removed = try MappingInference.infer(
            from: try Self.version("V1", [SmallLibrary.author, SmallLibrary.book]),
            to: try Self.version("V2", [SmallLibrary.author, changed]))
        #expect(Self.mapping(removed, "BookToBook")?.attributeMappings.map(\.name) == ["title"])

        changed.attributes.append(Attribute(name: "pages", type: .integer32, defaultValue: .integer(1)))
        let required = try MappingInference.infer(
            from: try Self.version("V1", [SmallLibrary.author, SmallLibrary.book]),
            to: try Self.version("V2", [SmallLibrary.author, changed]))
        // Objects that had no value get the default, as Core Data fills them.
        #expect(Self.expression(Self.mapping(required, "BookToBook"), "pages") == "coalesce($source.pages, 1)")
    }

    /// Core Data pairs source and destination elements that share a renaming identifier, whatever lies between.
    @Test func renamesMatchBySharedIdentifierFromAnyVersion() throws {
        let v1 = try Self.version("V1", [SmallLibrary.author, SmallLibrary.book])
        func book(_ name: String, _ identifier: String?) -> Entity {
            var book = SmallLibrary.book
            book.attributes[0] = Attribute(name: name, type: .string, renamingIdentifier: identifier)
            return book
        }
        let v2 = try Self.version("V2", [SmallLibrary.author, book("fullName", "title")])
        let v3 = try Self.version("V3", [SmallLibrary.author, book("displayName", "title")])
        for (from, expected) in [(v1, "$source.title"), (v2, "$source.fullName")] {
            let plan = try MappingInference.plan(from: from, to: v3)
            #expect(Self.expression(Self.mapping(plan.mappingModel, "BookToBook"), "displayName") == expected)
            #expect(!plan.changes.contains { $0.change == .dataLoss }, "\(plan.changes)")
        }
        // V3 naming the previous name instead of the shared identifier breaks the pairing: remove + add.
        let broken = try Self.version("V3", [SmallLibrary.author, book("displayName", "fullName")])
        let plan = try MappingInference.plan(from: v2, to: broken)
        #expect(Self.expression(Self.mapping(plan.mappingModel, "BookToBook"), "displayName") == String??.some(nil))
        #expect(plan.changes.contains { $0.change == .dataLoss && $0.entity == "Book" && $0.property == "fullName" })
    }

    @Test func relationshipChangesAreInferred() throws {
        let v1 = try Self.version("V1", [SmallLibrary.author, SmallLibrary.book])
        // to-one → to-many (Book.author becomes Book.authors, a many-to-many), ordered books.
        var book = SmallLibrary.book
        book.relationships = [
            Relationship(
                name: "authors", destination: "Author", inverse: "books", isToMany: true, renamingIdentifier: "author")
        ]
        var author = SmallLibrary.author
        author.relationships = [
            Relationship(name: "books", destination: "Book", inverse: "authors", isToMany: true, isOrdered: true)
        ]
        let model = try MappingInference.infer(from: v1, to: try Self.version("V2", [author, book]))
        #expect(Self.expression(Self.mapping(model, "BookToBook"), "authors")??.contains("\"author\"") == true)
        #expect(Self.mapping(model, "AuthorToAuthor")?.kind == .transform)
    }

    @Test func entitiesAddedRemovedAndRenamed() throws {
        let v1 = try Self.version("V1", [SmallLibrary.author, SmallLibrary.book, Entity(name: "Shelf")])
        var writer = SmallLibrary.author
        writer.name = "Writer"
        writer.renamingIdentifier = "Author"
        var book = SmallLibrary.book
        book.relationships[0] = Relationship(name: "author", destination: "Writer", inverse: "books")
        let v2 = try Self.version("V2", [writer, book, Entity(name: "Publisher")])
        let model = try MappingInference.infer(from: v1, to: v2)
        #expect(Self.mapping(model, "AuthorToWriter")?.kind == .transform)
        #expect(Self.mapping(model, "AddPublisher")?.kind == .add)
        #expect(Self.mapping(model, "RemoveShelf")?.kind == .remove)
    }

    @Test func entitiesMayMoveInsideTheirHierarchy() throws {
        let v1 = try Self.version(
            "V1",
            [
                Entity(name: "Item", isAbstract: true, attributes: [Attribute(name: "name", type: .string)]),
                Entity(name: "Book", parent: "Item"), Entity(name: "Novel", parent: "Item"),
            ])
        let v2 = try Self.version(
            "V2",
            [
                Entity(name: "Item", isAbstract: true, attributes: [Attribute(name: "name", type: .string)]),
                Entity(name: "Book", parent: "Item"), Entity(name: "Novel", parent: "Book"),
            ])
        let model = try MappingInference.infer(from: v1, to: v2)
        #expect(Self.expression(Self.mapping(model, "NovelToNovel"), "name") == "$source.name")
    }

    /// Every refusal names the entity, the property and the rule.
    @Test(arguments: [
        ("type change", InferenceError.Rule.typeChange, "pages"),
        ("to-many to to-one", .toManyToToOne, "books"),
        ("duplicate identifier", .duplicateRenamingIdentifier, "title"),
    ])
    func refusals(change: String, rule: InferenceError.Rule, property: String) throws {
        var author = SmallLibrary.author
        var book = SmallLibrary.book
        switch change {
        case "type change": book.attributes[1] = Attribute(name: "pages", type: .string, isOptional: true)
        case "duplicate identifier":
            book.attributes.append(Attribute(name: "subtitle", type: .string, renamingIdentifier: "title"))
        default: author.relationships[0] = Relationship(name: "books", destination: "Book", inverse: "author")
        }
        #expect {
            try MappingInference.infer(
                from: try Self.version("V1", [SmallLibrary.author, SmallLibrary.book]),
                to: try Self.version("V2", [author, book]))
        } throws: { error in
            let error = try #require(error as? InferenceError)
            let problem = try #require(error.problems.first { $0.rule == rule })
            return problem.property == property && error.description.contains("property '\(property)'")
                && error.description.contains(rule.rawValue)
        }
    }

    /// Numeric changes are inferred; a narrowing one says that its out-of-range values are not checked.
    @Test(arguments: [
        (AttributeType.integer32, AttributeType.integer64, false), (.integer64, .integer16, true),
        (.double, .integer32, true), (.integer16, .boolean, false), (.boolean, .integer16, false),
    ])
    func numericChangesAreConverted(from: AttributeType, to: AttributeType, narrowing: Bool) throws {
        func version(_ name: String, _ type: AttributeType) throws -> ModelVersion {
            try Self.version(name, [Entity(name: "Item", attributes: [Attribute(name: "n", type: type)])])
        }
        let plan = try MappingInference.plan(from: try version("V1", from), to: try version("V2", to))
        let change = try #require(plan.changes.first { $0.change == .converted })
        #expect(change.property == "n" && change.detail.contains("narrowing") == narrowing, "\(change)")
    }

    @Test func mergedHierarchiesAreRefused() throws {
        let v1 = try Self.version("V1", [Entity(name: "Cat"), Entity(name: "Dog")])
        let v2 = try Self.version(
            "V2",
            [
                Entity(name: "Animal", isAbstract: true), Entity(name: "Cat", parent: "Animal"),
                Entity(name: "Dog", parent: "Animal"),
            ])
        #expect {
            try MappingInference.infer(from: v1, to: v2)
        } throws: { error in
            (error as? InferenceError)?.problems.contains { $0.rule == .mergedHierarchies && $0.entity == "Animal" }
                == true
        }
    }

    @Test func everyProblemIsListed() throws {
        var book = SmallLibrary.book
        book.attributes = [
            Attribute(name: "title", type: .integer64), Attribute(name: "pages", type: .string),
            Attribute(name: "isbn", type: .string),
        ]
        #expect {
            try MappingInference.infer(
                from: try Self.version("V1", [SmallLibrary.author, SmallLibrary.book]),
                to: try Self.version("V2", [SmallLibrary.author, book]))
        } throws: { error in
            // Two incompatible type changes; the new required isbn is inferred (checked when the step runs).
            (error as? InferenceError)?.problems.map(\.property) == ["title", "pages"]
        }
    }
}
