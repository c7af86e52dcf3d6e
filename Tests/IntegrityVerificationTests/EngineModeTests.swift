import DataGeneration
import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

/// One way the engine makes a destination store.
struct EngineMode: Sendable, CustomStringConvertible {
    let description: String
    let migration: Step.Migration

    static let all: [EngineMode] = [
        EngineMode(description: "inferred, in place", migration: .inPlace),
        EngineMode(description: "streaming", migration: .engine(MigrationOptions(storage: .streaming))),
        EngineMode(description: "in memory", migration: .engine(MigrationOptions(storage: .inMemory))),
        EngineMode(
            description: "one pass per entity, resolved, streaming",
            migration: .engine(MigrationOptions(storage: .streaming), perEntityPasses: true)),
        EngineMode(
            description: "one pass per entity, resolved, in memory",
            migration: .engine(MigrationOptions(storage: .inMemory), perEntityPasses: true)),
    ]
}

@Suite("Engine modes")
struct EngineModeTests {
    static func shelf() throws -> Step {
        Step(source: try Shelf.v1(), destination: try Shelf.v2(), dataset: Shelf.dataset, size: 120)
    }

    /// Every way the engine migrates the Shelf store verifies clean, every check made.
    @Test(arguments: EngineMode.all)
    func cleanMigrationVerifiesClean(_ mode: EngineMode) throws {
        try Self.shelf().withMigratedStores(how: mode.migration) { source, destination in
            let result = try Self.shelf().verify(source, destination)
            #expect(result.notChecked == [], "\(result.summary)")
            // Per-entity passes included: the verifier once found that a one-to-one set in a later pass kept
            // only one of its two foreign keys (Book.cover empty, Cover.book set); the engine now fills both.
            #expect(result.passed, "\(result.summary)")
        }
    }

    /// The verifier does not care how the store was made: the same damage gives the same verdict.
    @Test func inMemoryAndStreamingMigrationsGetTheSameVerdict() throws {
        var verdicts: [VerificationResult] = []
        for storage in StorageMode.allCases {
            try Self.shelf().withMigratedStores(how: .engine(MigrationOptions(storage: storage))) {
                source, destination in
                verdicts.append(try Self.shelf().verify(source, destination))
                try Shelf.corrupt(
                    destination,
                    "UPDATE ZBOOK SET ZNAME = 'x' WHERE Z_PK = 4; DELETE FROM Z_1TAGS WHERE Z_1AUTHORS = 2; "
                        + "UPDATE ZCOVER SET ZCOLOR = NULL WHERE Z_PK = 5")
                verdicts.append(try Self.shelf().verify(source, destination))
            }
        }
        #expect(verdicts.count == 4 && verdicts[0] == verdicts[2] && verdicts[1] == verdicts[3])
        #expect(verdicts[0].passed)
        let kinds = Set(verdicts[1].violations.map(\.kind))
        #expect(kinds == [.attributeValue, .missingEdge, .optionality], "\(verdicts[1].summary)")
    }

    /// Authors and books, `Book.author` optional so that a migration without cross-pass edges completes.
    static func loans() throws -> Step {
        let author = Entity(
            name: "Author", attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true)])
        let book = Entity(
            name: "Book", attributes: [Attribute(name: "title", type: .string)],
            relationships: [Relationship(name: "author", destination: "Author", inverse: "books")])
        let v1 = try ModelVersion(name: "V1", entities: [author, book])
        var renamed = book
        renamed.attributes = [Attribute(name: "name", type: .string, renamingIdentifier: "title")]
        let v2 = try ModelVersion(name: "V2", entities: [author, renamed])
        let dataset = Dataset(seed: 9, objects: ["Author": 0.2, "Book": 1])
        return Step(source: v1, destination: v2, dataset: dataset, size: 50)
    }

    /// In Core Data's cross-pass behaviour the books of the second pass lose their authors from the first:
    /// the verifier reports every one of those edges as missing, which is what the harness means to show.
    @Test(arguments: [CrossPassRelationships.resolve, .coreData])
    func crossPassEdges(mode: CrossPassRelationships) throws {
        let step = try Self.loans()
        let options = MigrationOptions(crossPassRelationships: mode)
        try step.withMigratedStores(how: .engine(options, perEntityPasses: true)) { source, destination in
            let edges =
                try Connection(path: source, mode: .readOnly)
                .scalar("SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL")?.int64 ?? 0
            #expect(edges > 0)
            let result = try step.verify(source, destination)
            #expect(result.notChecked == [], "\(result.summary)")
            if mode == .resolve {
                #expect(result.passed, "\(result.summary)")
            } else {
                #expect(result.violations.count == 1, "\(result.summary)")
                #expect(result.group(.missingEdge, "Book", "author")?.count == Int(edges), "\(result.summary)")
            }
        }
    }

    /// The verifier is given the passes as the engine ran them: the same verdict as with the whole mapping.
    @Test func passesGivenOneByOneVerifyAsTheWhole() throws {
        let step = try Self.shelf()
        let model = try MappingInference.infer(from: step.source, to: step.destination)
        let passes = PassSplit.perEntity(model)
        try step.withMigratedStores(how: .engine(MigrationOptions(), perEntityPasses: true)) { source, destination in
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZPAGES = 0 WHERE Z_PK IN (1, 2, 3)")
            let whole = try step.verify(source, destination, mappings: [model])
            #expect(try step.verify(source, destination, mappings: passes) == whole)
            #expect(whole.group(.attributeValue, "Book", "pages")?.count == 3, "\(whole.summary)")
        }
    }

    /// Decimal attributes: copied, computed with decimal arithmetic, added with a default; migrated by the
    /// engine in both storages and in place, and a changed price caught.
    static func prices() throws -> Step {
        let v1 = try ModelVersion(
            name: "V1",
            entities: [
                Entity(
                    name: "Item",
                    attributes: [
                        Attribute(name: "name", type: .string), Attribute(name: "price", type: .decimal),
                        Attribute(name: "discount", type: .decimal, isOptional: true),
                    ])
            ])
        let v2 = try ModelVersion(
            name: "V2",
            entities: [
                Entity(
                    name: "Item",
                    attributes: [
                        Attribute(name: "name", type: .string), Attribute(name: "price", type: .decimal),
                        Attribute(name: "discount", type: .decimal, isOptional: true),
                        Attribute(name: "tax", type: .decimal, defaultValue: .decimal("0.25")),
                    ])
            ])
        return Step(source: v1, destination: v2, dataset: Dataset(seed: 21, objects: ["Item": 1]), size: 200)
    }

    @Test(arguments: Array(EngineMode.all.prefix(3)))
    func decimalsVerifyClean(_ mode: EngineMode) throws {
        let step = try Self.prices()
        try step.withMigratedStores(how: mode.migration) { source, destination in
            let result = try step.verify(source, destination)
            #expect(result.passed && result.notChecked == [], "\(result.summary)")
            try Shelf.corrupt(destination, "UPDATE ZITEM SET ZPRICE = ZPRICE + 0.01 WHERE Z_PK = 3")
            let damaged = try step.verify(source, destination)
            #expect(damaged.group(.attributeValue, "Item", "price")?.count == 1, "\(damaged.summary)")
        }
    }

    @Test(arguments: StorageMode.allCases)
    func decimalExpressionsVerifyClean(storage: StorageMode) throws {
        let step = try Self.prices()
        var model = try MappingInference.infer(from: step.source, to: step.destination)
        model.entityMappings[0].attributeMappings.removeAll { $0.name == "tax" || $0.name == "discount" }
        model.entityMappings[0].attributeMappings += [
            PropertyMapping(name: "tax", valueExpression: "$source.price * 2 - 0.5"),
            PropertyMapping(name: "discount", valueExpression: "$source.discount / 4"),
        ]
        try step.withMigratedStores(how: .engine(MigrationOptions(storage: storage)), mappings: [model]) {
            source, destination in
            let result = try step.verify(source, destination, mappings: [model])
            #expect(result.passed && result.notChecked == [], "\(result.summary)")
            try Shelf.corrupt(destination, "UPDATE ZITEM SET ZTAX = ZTAX * 2 WHERE Z_PK IN (4, 5)")
            let damaged = try step.verify(source, destination, mappings: [model])
            #expect(damaged.group(.attributeValue, "Item", "tax")?.count == 2, "\(damaged.summary)")
        }
    }
}
