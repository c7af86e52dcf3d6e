import DataGeneration
import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

/// A step whose `Book` mapping runs one of the built-in policies, a damage to its result, and the group that
/// must report the damage.
struct PolicyCase: Sendable, CustomStringConvertible {
    let policy: String
    let userInfo: [String: String]
    /// `Book` in version 2.
    let book: @Sendable () -> Entity
    /// Entities version 2 adds.
    let added: [Entity]
    let damage: String
    let kind: ViolationKind
    let entity: String
    let property: String?

    var description: String { policy }
}

@Suite("Built-in policies")
struct PolicyVerificationTests {
    static let author = Entity(
        name: "Author", attributes: [Attribute(name: "name", type: .string)],
        relationships: [Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true)])
    static let book = Entity(
        name: "Book",
        attributes: [
            Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32, isOptional: true),
            Attribute(name: "genre", type: .string, isOptional: true),
            Attribute(name: "color", type: .string, isOptional: true),
        ],
        relationships: [Relationship(name: "author", destination: "Author", inverse: "books", isOptional: false)])

    static func book(
        removing removed: String? = nil, adding attributes: [Attribute] = [], relationships: [Relationship] = []
    )
        -> Entity
    {
        var book = Self.book
        book.attributes.removeAll { $0.name == removed }
        book.attributes += attributes
        book.relationships += relationships
        return book
    }

    static let cases: [PolicyCase] = [
        PolicyCase(
            policy: "AssignNewIdentifier", userInfo: ["attribute": "uuid"],
            book: { book(adding: [Attribute(name: "uuid", type: .uuid, isOptional: true)]) }, added: [],
            damage: "UPDATE ZBOOK SET ZUUID = (SELECT ZUUID FROM ZBOOK WHERE Z_PK = 1) WHERE Z_PK = 2",
            kind: .attributeValue, entity: "Book", property: "uuid"),
        PolicyCase(
            policy: "DropAllRows", userInfo: [:], book: { book() }, added: [],
            damage: "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZAUTHOR) VALUES (1, 2, 1, 'kept', 1)",
            kind: .unexpectedObject, entity: "Book", property: nil),
        PolicyCase(
            policy: "ConvertType", userInfo: ["attribute": "pages"],
            book: {
                var converted = book(removing: "pages")
                converted.attributes.insert(Attribute(name: "pages", type: .string, isOptional: true), at: 1)
                return converted
            }, added: [],
            damage: "UPDATE ZBOOK SET ZPAGES = 'many' WHERE Z_PK = 3",
            kind: .attributeValue, entity: "Book", property: "pages"),
        PolicyCase(
            policy: "SplitAttributeIntoEntity",
            userInfo: [
                "attribute": "color", "entity": "Color", "targetAttribute": "hex", "relationship": "paint",
                "identifierAttribute": "colorID",
            ],
            book: {
                book(
                    removing: "color",
                    relationships: [Relationship(name: "paint", destination: "Color", inverse: "book")])
            },
            added: [
                Entity(
                    name: "Color",
                    attributes: [
                        Attribute(name: "hex", type: .string),
                        Attribute(name: "colorID", type: .string, isOptional: true),
                    ],
                    relationships: [Relationship(name: "book", destination: "Book", inverse: "paint")])
            ],
            damage: "UPDATE ZCOLOR SET ZHEX = 'changed' WHERE Z_PK = 1",
            kind: .attributeValue, entity: "Color", property: "hex"),
        PolicyCase(
            policy: "FindOrCreate",
            userInfo: [
                "attribute": "genre", "entity": "Category", "keyAttribute": "label", "relationship": "category",
            ],
            book: {
                book(
                    removing: "genre",
                    relationships: [Relationship(name: "category", destination: "Category", inverse: "books")])
            },
            added: [
                Entity(
                    name: "Category", attributes: [Attribute(name: "label", type: .string)],
                    relationships: [
                        Relationship(name: "books", destination: "Book", inverse: "category", isToMany: true)
                    ])
            ],
            damage: "UPDATE ZBOOK SET ZCATEGORY = (SELECT MAX(Z_PK) FROM ZCATEGORY) WHERE Z_PK = "
                + "(SELECT MIN(Z_PK) FROM ZBOOK WHERE ZCATEGORY != (SELECT MAX(Z_PK) FROM ZCATEGORY))",
            kind: .unexpectedEdge, entity: "Book", property: "category"),
    ]

    /// Version 1, version 2 and the mapping between them: the lightweight correspondence, with the Book
    /// mapping handed to the policy (its attribute mappings kept, but for the attribute the policy sets).
    static func step(_ policyCase: PolicyCase) throws -> (Step, MappingModel) {
        let v1 = try ModelVersion(name: "V1", entities: [author, book])
        let v2 = try ModelVersion(name: "V2", entities: [author, policyCase.book()] + policyCase.added)
        // Inferred against a version 2 that keeps Book's types, then pointed at the real version 2.
        var plain = policyCase.book()
        plain.attributes = plain.attributes.map { attribute in
            book.attributes.first { $0.name == attribute.name } ?? attribute
        }
        var model = try MappingInference.infer(
            from: v1, to: try ModelVersion(name: "V2", entities: [author, plain] + policyCase.added))
        for index in model.entityMappings.indices {
            let entity = model.entityMappings[index].destinationEntity ?? ""
            model.entityMappings[index].destinationEntityVersionHash = v2.versionHashes[entity]
            guard entity == "Book" else { continue }
            model.entityMappings[index].kind = .custom
            model.entityMappings[index].policy = policyCase.policy
            model.entityMappings[index].userInfo = policyCase.userInfo
            model.entityMappings[index].attributeMappings.removeAll { $0.name == policyCase.userInfo["attribute"] }
        }
        let dataset = Dataset(
            seed: 17, objects: ["Author": 0.25, "Book": 1],
            attributes: [
                "Book.genre": AttributeFill(nullRatio: 0.2, distinct: 4), "Book.color": AttributeFill(nullRatio: 0.3),
            ])
        return (Step(source: v1, destination: v2, dataset: dataset, size: 80), model)
    }

    /// A clean migration through each policy verifies clean with every check made, in both storages, and the
    /// same damage gives the same verdict in both.
    @Test(arguments: cases)
    func policyOutputIsDerivedAndChecked(_ policyCase: PolicyCase) throws {
        let (step, model) = try Self.step(policyCase)
        var verdicts: [VerificationResult] = []
        for storage in StorageMode.allCases {
            try step.withMigratedStores(how: .engine(MigrationOptions(storage: storage)), mappings: [model]) {
                source, destination in
                let clean = try step.verify(source, destination, mappings: [model])
                #expect(clean.passed, "\(storage): \(clean.summary)")
                #expect(clean.notChecked == [], "\(storage): \(clean.summary)")
                try Shelf.corrupt(destination, policyCase.damage)
                verdicts.append(try step.verify(source, destination, mappings: [model]))
            }
        }
        let damaged = try #require(verdicts.first)
        #expect(verdicts.allSatisfy { $0 == damaged })
        #expect(
            damaged.group(policyCase.kind, policyCase.entity, policyCase.property)?.count == 1, "\(damaged.summary)")
    }

    /// A policy the verifier does not know is never passed: what it decides is listed as not checked.
    @Test func customPolicyOutputIsListedAsNotChecked() throws {
        let policyCase = Self.cases[0]
        let (step, base) = try Self.step(policyCase)
        var model = base
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].policy = "Uppercase"
        let policies = PolicyRegistry.builtIn()
        policies.register("Uppercase") { UppercaseTitles() }
        try step.withMigratedStores(how: .engine(MigrationOptions()), mappings: [model], policies: policies) {
            source, destination in
            let result = try step.verify(source, destination, mappings: [model])
            let skipped = Set(result.notChecked.filter { $0.entity == "Book" }.map(\.kind))
            #expect(skipped.isSuperset(of: [.missingObject, .unexpectedObject, .attributeValue]), "\(result.summary)")
        }
    }
}

/// A custom policy: titles in capitals.
final class UppercaseTitles: EntityMigrationPolicy {
    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        if case .string(let title) = try session.sourceValue("title") {
            try session.setValue(.string(title.uppercased()), forKey: "title", of: destination)
        }
    }
}
