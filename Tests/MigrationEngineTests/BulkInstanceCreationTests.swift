import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// Streaming storage runs default-policy mappings inside SQLite (``BulkInstanceCreation``); in-memory storage
/// makes every object in Swift. The two must give the same store, the same counts and the same errors, for
/// ordinary and for damaged values.
@Suite("Bulk instance creation", .serialized)
struct BulkInstanceCreationTests {
    /// V2 without genres: `Book.title` renamed `name`, `Book.code` added.
    static func destination() throws -> ModelVersion {
        var book = try Library.v2().entity(named: "Book")!
        book.relationships.removeAll { $0.name == "genre" }
        return try ModelVersion(name: "V2", entities: [Library.author, book])
    }

    /// The inferred mapping, with `code` computed by `code` and books filtered by `filter`.
    static func mapping(code: String, filter: String? = nil) throws -> MappingModel {
        var model = try MappingInference.infer(from: try Library.v1(), to: try destination())
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].kind = .transform
        model.entityMappings[index].sourceFilter = filter
        model.entityMappings[index].attributeMappings.removeAll { $0.name == "code" }
        model.entityMappings[index].attributeMappings.append(PropertyMapping(name: "code", valueExpression: code))
        return model
    }

    /// What a migration gave: the destination's rows and the report, or the error's text.
    enum Outcome: Equatable {
        case migrated(rows: [String: [[SQLiteValue]]], report: MigrationManager.Report)
        case failed(String)

        var migrated: (rows: [String: [[SQLiteValue]]], report: MigrationManager.Report)? {
            if case .migrated(let rows, let report) = self { (rows, report) } else { nil }
        }
    }

    /// Migrates a fresh V1 store (changed first by `damage`, SQL on the source) in each storage mode.
    static func migrateBothWays(
        _ model: MappingModel, damage: String? = nil, destination: ModelVersion? = nil
    ) throws -> [StorageMode: Outcome] {
        let destination = try destination ?? Self.destination()
        var outcomes: [StorageMode: Outcome] = [:]
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 400)
            if let damage { try Connection(path: source).execute(damage) }
            for storage in StorageMode.allCases {
                let path = folder.appendingPathComponent("\(storage.rawValue).sqlite").path
                let manager = MigrationManager(
                    source: try Library.v1(), destination: destination,
                    options: MigrationOptions(storage: storage))
                do {
                    let report = try manager.migrate(storeAt: source, to: path, mappingModels: [model])
                    outcomes[storage] = .migrated(rows: try Library.dump(path), report: report)
                } catch {
                    outcomes[storage] = .failed(String(describing: error))
                }
            }
        }
        return outcomes
    }

    /// Each storage mode's error when both failed; else nil, recording that `what` did not fail where it migrated.
    static func failedBothWays(
        _ outcomes: [StorageMode: Outcome], _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (bulk: String, rowByRow: String)? {
        guard case .failed(let bulk) = outcomes[.streaming], case .failed(let rowByRow) = outcomes[.inMemory] else {
            let migrated = outcomes.filter { $0.value.migrated != nil }.map(\.key.rawValue)
            Issue.record("\(what) did not fail in \(migrated.sorted())", sourceLocation: sourceLocation)
            return nil
        }
        return (bulk, rowByRow)
    }

    @Test(
        arguments: [
            (#""ISBN-" + string($source.pages)"#, nil),
            (#"uppercase($source.title) + "!""#, nil),
            (#"$source.pages > 100 ? "long" : "short""#, "$source.pages > 200"),
            (#"$entityMapping.name + "/" + $source.title"#, #"$source.title != "x""#),
        ] as [(String, String?)])
    func bothPathsGiveTheSameStore(code: String, filter: String?) throws {
        let outcomes = try Self.migrateBothWays(try Self.mapping(code: code, filter: filter))
        let bulk = try #require(outcomes[.streaming]?.migrated)
        let rowByRow = try #require(outcomes[.inMemory]?.migrated)
        #expect(bulk.rows == rowByRow.rows)
        #expect(bulk.report.objectsCreated == rowByRow.report.objectsCreated)
        #expect(bulk.report.edgesWritten == rowByRow.report.edgesWritten)
        #expect(bulk.report.mappingsRunInSQL.count == 2)
        #expect(rowByRow.report.mappingsRunInSQL.isEmpty)
        let codes = try #require(bulk.rows["ZBOOK"]).compactMap { $0.last?.string }
        #expect(!codes.isEmpty)
    }

    /// Values a damaged store holds where the model says otherwise: SQLite's own form of an expression
    /// must then give way to the compiled one, and a broken foreign key must be dropped the same way.
    @Test(arguments: [
        "UPDATE ZBOOK SET ZPAGES = 'x' || Z_PK WHERE Z_PK % 7 = 0",
        "UPDATE ZBOOK SET ZPAGES = 2.5 WHERE Z_PK % 5 = 0",
        "UPDATE ZBOOK SET ZPAGES = 1e20 WHERE Z_PK = 6",
        "UPDATE ZBOOK SET ZTITLE = x'414243' WHERE Z_PK = 8",
        "UPDATE ZBOOK SET ZTITLE = 'O''Brien' WHERE Z_PK % 3 = 0",
        "UPDATE ZBOOK SET ZAUTHOR = '1' WHERE Z_PK = 9",
        "UPDATE ZBOOK SET ZAUTHOR = 999999 WHERE Z_PK = 4",
        "UPDATE ZBOOK SET Z_PK = 3000000000 WHERE Z_PK = 10",
    ])
    func damagedValuesGiveTheSameOutcome(damage: String) throws {
        let model = try Self.mapping(code: #""ISBN-" + string($source.pages) + $source.title"#)
        let outcomes = try Self.migrateBothWays(model, damage: damage)
        switch (outcomes[.streaming], outcomes[.inMemory]) {
        case (.migrated(let bulk, let bulkReport), .migrated(let rowByRow, let rowByRowReport)):
            #expect(bulk == rowByRow)
            #expect(bulkReport.edgesWritten == rowByRowReport.edgesWritten)
            #expect(bulkReport.mappingsRunInSQL.count == 2)
        case (.failed(let bulk), .failed(let rowByRow)):
            #expect(bulk == rowByRow)
        default:
            Issue.record("the paths disagree: \(String(describing: outcomes))")
        }
    }

    @Test func anEvaluationErrorReadsTheSameOnBothPaths() throws {
        let model = try Self.mapping(code: "string(100 / ($source.pages - $source.pages))")
        let outcomes = try Self.migrateBothWays(model)
        guard case .failed(let bulk) = outcomes[.streaming], case .failed(let rowByRow) = outcomes[.inMemory]
        else {
            Issue.record("division by zero did not fail: \(String(describing: outcomes))")
            return
        }
        #expect(bulk == rowByRow)
        #expect(bulk.contains("mapping 'BookToBook'") && bulk.contains("property 'code'"))
    }

    /// A NULL that stage 1's statement writes into a required column, however the slot is filled, fails stage 3
    /// as on the row-by-row path. Stage 3 skips its scan for such NULLs when the statements tested every row
    /// (``RequiredValueWitness``): without the statement's test this migration would succeed.
    @Test(
        arguments: [
            ("a copied source column", "UPDATE ZBOOK SET ZTITLE = NULL WHERE Z_PK % 4 = 0", "$source.title"),
            ("text SQL computes", "UPDATE ZBOOK SET ZTITLE = NULL WHERE Z_PK = 5", #"$source.title + "!""#),
            (
                "an expression evaluated per row", "UPDATE ZBOOK SET ZTITLE = NULL WHERE Z_PK = 6",
                #"$source.pages > 100 ? $source.title : $source.title"#
            ),
            ("a stage-1 foreign key", "UPDATE ZBOOK SET ZAUTHOR = NULL WHERE Z_PK = 7", "$source.title"),
            ("a default of nil", "UPDATE ZBOOK SET ZPAGES = ZPAGES", nil),
        ] as [(String, String, String?)])
    func aRequiredNullFailsAsOnTheRowPath(form: String, damage: String, name: String?) throws {
        var model = try Self.mapping(code: #""ISBN-" + string($source.pages)"#)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].attributeMappings.removeAll { $0.name == "name" }
        if let name {
            model.entityMappings[index].attributeMappings.append(PropertyMapping(name: "name", valueExpression: name))
        }
        let outcomes = try Self.migrateBothWays(model, damage: damage)
        guard let (bulk, rowByRow) = Self.failedBothWays(outcomes, "\(form): a NULL in a required column") else {
            return
        }
        #expect(bulk == rowByRow)
        #expect(bulk.contains("Book.name is required but nil") || bulk.contains("Book.author needs at least 1"))
    }

    /// A constant SQLite holds as NULL, a real NaN, is tested like NULL itself: a required attribute whose default
    /// is NaN fails stage 3 as on the row-by-row path. Untested, the streaming migration succeeded, with NULL in
    /// the column.
    @Test func aNaNDefaultInARequiredColumnFailsAsOnTheRowPath() throws {
        var book = try #require(try Self.destination().entity(named: "Book"))
        book.attributes.append(Attribute(name: "rating", type: .double, defaultValue: .double(.nan)))
        let destination = try ModelVersion(name: "V2", entities: [Library.author, book])
        let model = try MappingInference.infer(from: try Library.v1(), to: destination)
        let outcomes = try Self.migrateBothWays(model, destination: destination)
        guard let (bulk, rowByRow) = Self.failedBothWays(outcomes, "a NaN default in a required column") else { return }
        #expect(bulk == rowByRow)
        #expect(bulk.contains("Book.rating is required but nil"))
    }

    /// A NULL in a required column written by another path than stage 1's tested statements — here the books'
    /// rows, made one by one, while the authors' statement tested its rows and met no NULL — fails stage 3 as
    /// on the row-by-row path: the witness proves nothing once the destination changed rows it did not count.
    @Test func aNullWrittenOutsideTheTestedStatementsFails() throws {
        var model = try Self.mapping(code: #""ISBN-" + string($source.pages)"#)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].attributeMappings.removeAll { $0.name == "name" }
        model.entityMappings[index].attributeMappings.append(
            PropertyMapping(name: "name", valueExpression: "$source.author.name"))
        let outcomes = try Self.migrateBothWays(model, damage: "UPDATE ZBOOK SET ZAUTHOR = NULL WHERE Z_PK = 7")
        guard let (bulk, rowByRow) = Self.failedBothWays(outcomes, "a NULL written by the row path") else { return }
        #expect(bulk == rowByRow)
        #expect(bulk.contains("Book.name is required but nil"))
        // The authors' statement did test its rows: the books alone went row by row.
        let clean = try #require(try Self.migrateBothWays(model)[.streaming]?.migrated)
        #expect(clean.report.mappingsRunInSQL == ["AuthorToAuthor"])
    }

    /// An expression that reads past the source row keeps its mapping on the row-by-row path.
    @Test func anExpressionThatFollowsARelationshipStaysInSwift() throws {
        let outcomes = try Self.migrateBothWays(try Self.mapping(code: "$source.author.name"))
        let bulk = try #require(outcomes[.streaming]?.migrated)
        #expect(bulk.report.mappingsRunInSQL == ["AuthorToAuthor"])
        #expect(bulk.rows == outcomes[.inMemory]?.migrated?.rows)
    }

    /// Stores Core Data wrote, migrated with the inferred mapping both ways: CoreDataPlus's V1 (a car hierarchy
    /// with a renamed subentity, people, owners) to V2, and the wibosco example's version-3 store to version 4.
    @Test(arguments: [
        ("SampleModel_V1.sqlite", "SampleModel", "SampleModel2"),
        ("CoreDataMigration_Example_3.sqlite", "CoreDataMigration_Example 3", "CoreDataMigration_Example 4"),
    ])
    func realStoresGiveTheSameRowsBothWays(file: String, from: String, to: String) throws {
        let sampleModel = Fixtures.coreDataPlus.appendingPathComponent("SampleModel")
        let (store, bundle) =
            file.hasPrefix("SampleModel")
            ? (
                sampleModel.appendingPathComponent("Fixtures/\(file)"),
                sampleModel.appendingPathComponent("SampleModel.xcdatamodeld")
            )
            : (Fixtures.root.appendingPathComponent("stores/\(file)"), Fixtures.modelBundle)
        let history = try ModelLoader.load(path: bundle.path)
        let source = try history.requireVersion(from)
        let destination = try history.requireVersion(to)
        let mapping = try MappingInference.infer(from: source, to: destination)
        try Fixtures.withStoreCopy(at: store) { url in
            var dumps: [StorageMode: [String: [[SQLiteValue]]]] = [:]
            for storage in StorageMode.allCases {
                let path = url.deletingLastPathComponent().appendingPathComponent("\(storage.rawValue).sqlite").path
                let report = try MigrationManager(
                    source: source, destination: destination, options: MigrationOptions(storage: storage)
                ).migrate(storeAt: url.path, to: path, mappingModels: [mapping])
                #expect(report.mappingsRunInSQL.isEmpty == (storage == .inMemory))
                dumps[storage] = try Library.dump(path)
            }
            #expect(dumps[.streaming] == dumps[.inMemory])
            #expect(dumps[.streaming]?.values.contains { !$0.isEmpty } == true)
        }
    }
}
