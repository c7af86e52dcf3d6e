import DataGeneration
import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

/// What the verifier re-derives from the features of a mapping: source filters, relationships mapped on one
/// side only or on none, and expressions whose values only the engine can know.
@Suite("Mapping features")
struct MappingFeatureTests {
    static func inferred(_ step: Step) throws -> MappingModel {
        try MappingInference.infer(from: step.source, to: step.destination)
    }

    @Test func filteredObjectsAreExpectedAbsent() throws {
        let step = try EngineModeTests.loans()
        var model = try Self.inferred(step)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].sourceFilter = "length($source.title) > 12"
        try step.withMigratedStores(how: .engine(MigrationOptions()), mappings: [model]) { source, destination in
            let kept = try Connection(path: destination, mode: .readOnly).scalar("SELECT COUNT(*) FROM ZBOOK")?.int64
            #expect(kept ?? 0 > 0 && kept ?? 0 < 50)
            let clean = try step.verify(source, destination, mappings: [model])
            #expect(clean.passed && clean.notChecked == [], "\(clean.summary)")
            try Shelf.corrupt(
                destination,
                "ATTACH '\(source)' AS src; INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZNAME) "
                    + "SELECT Z_PK, Z_ENT, 1, ZTITLE FROM src.ZBOOK WHERE length(ZTITLE) <= 12 ORDER BY Z_PK LIMIT 1")
            let damaged = try step.verify(source, destination, mappings: [model])
            #expect(damaged.group(.unexpectedObject, "Book")?.count == 1, "\(damaged.summary)")
        }
    }

    /// Only `Author.books` is mapped; the engine sets the edges from that side, and the verifier checks them
    /// there, although they are stored in Book's foreign key.
    @Test func aRelationshipMappedOnOneSideIsChecked() throws {
        let step = try EngineModeTests.loans()
        var model = try Self.inferred(step)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].relationshipMappings.removeAll { $0.name == "author" }
        try step.withMigratedStores(how: .engine(MigrationOptions()), mappings: [model]) { source, destination in
            let clean = try step.verify(source, destination, mappings: [model])
            #expect(clean.passed && clean.notChecked == [], "\(clean.summary)")
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZAUTHOR = NULL WHERE Z_PK IN (1, 2)")
            let damaged = try step.verify(source, destination, mappings: [model])
            #expect(damaged.group(.missingEdge, "Author", "books")?.count == 2, "\(damaged.summary)")
        }
    }

    /// A relationship version 2 adds, which nothing sets, must stay empty.
    @Test func aRelationshipNothingSetsIsEmpty() throws {
        let base = try EngineModeTests.loans()
        var book = try #require(base.destination.entity(named: "Book"))
        book.relationships.append(Relationship(name: "reviewer", destination: "Author"))
        let destination = try ModelVersion(
            name: "V2", entities: [try #require(base.destination.entity(named: "Author")), book])
        let step = Step(source: base.source, destination: destination, dataset: base.dataset, size: base.size)
        try step.withMigratedStores(how: .engine(MigrationOptions())) { source, destination in
            let clean = try step.verify(source, destination)
            #expect(clean.passed && clean.notChecked == [], "\(clean.summary)")
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZREVIEWER = 1 WHERE Z_PK = 5")
            let damaged = try step.verify(source, destination)
            #expect(damaged.group(.unexpectedEdge, "Book", "reviewer")?.count == 1, "\(damaged.summary)")
        }
    }

    /// `uuid()` gives values only the engine knows: that attribute is listed as not checked, the rest is checked.
    @Test func unknowableValuesAreListedNotPassed() throws {
        let base = try EngineModeTests.loans()
        var book = try #require(base.destination.entity(named: "Book"))
        book.attributes.append(Attribute(name: "code", type: .uuid, isOptional: true))
        let destination = try ModelVersion(
            name: "V2", entities: [try #require(base.destination.entity(named: "Author")), book])
        let step = Step(source: base.source, destination: destination, dataset: base.dataset, size: base.size)
        var model = try Self.inferred(step)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].attributeMappings.removeAll { $0.name == "code" }
        model.entityMappings[index].attributeMappings.append(PropertyMapping(name: "code", valueExpression: "uuid()"))
        try step.withMigratedStores(how: .engine(MigrationOptions()), mappings: [model]) { source, destination in
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZNAME = 'changed' WHERE Z_PK = 1")
            let result = try step.verify(source, destination, mappings: [model])
            #expect(result.notChecked.map(\.property) == ["code"], "\(result.summary)")
            #expect(result.notChecked.first?.kind == .attributeValue)
            #expect(result.group(.attributeValue, "Book", "name")?.count == 1, "\(result.summary)")
        }
    }
}
