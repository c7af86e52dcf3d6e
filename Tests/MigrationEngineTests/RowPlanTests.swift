import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// One row plan, two renderings: streaming storage renders a default-policy mapping's plan as SQL
/// (``BulkInstanceCreation``), and with that turned off streams the same plan row by row. On every form a
/// slot can be filled by they must make the same destination rows.
@Suite("Row plan", .serialized)
struct RowPlanTests {
    /// A mapping form: attribute mappings of `Book` replaced by these expressions (nil: the default value),
    /// and its source filter.
    struct Form: CustomTestStringConvertible, Sendable {
        let name: String
        let book: [String: String?]
        var filter: String? = nil
        var testDescription: String { name }
    }

    static let forms: [Form] = [
        Form(name: "copies and a stage-1 foreign key (the inferred mapping)", book: [:]),
        Form(name: "a default", book: ["code": nil]),
        Form(name: "a text constant", book: ["code": #""fixed""#]),
        Form(name: "an integer constant", book: ["pages": "7"]),
        Form(name: "a constant that needs converting", book: ["pages": "7.9"]),
        Form(name: "a value that needs converting", book: ["pages": "$source.pages / 3.0"]),
        Form(name: "text SQL computes", book: ["code": #""ISBN-" + string($source.pages) + $source.title"#]),
        Form(name: "a function", book: ["code": "uppercase($source.title)"]),
        Form(name: "arithmetic", book: ["pages": "$source.pages * 2 + 1"]),
        Form(name: "a renamed copy", book: ["name": "$source.title", "code": "$source.title"]),
        Form(name: "a required value SQL computes", book: ["name": #"$source.title + "!""#]),
        Form(name: "a required value evaluated per row", book: ["name": "uppercase($source.title)"]),
        Form(name: "a required constant", book: ["name": #""fixed""#]),
        Form(
            name: "a filter", book: ["code": #"$source.pages > 100 ? "long" : "short""#],
            filter: "$source.pages > 200"),
    ]

    static func mapping(_ form: Form) throws -> MappingModel {
        var model = try MappingInference.infer(from: try Library.v1(), to: try BulkInstanceCreationTests.destination())
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].kind = .transform
        model.entityMappings[index].sourceFilter = form.filter
        for (name, expression) in form.book {
            model.entityMappings[index].attributeMappings.removeAll { $0.name == name }
            if let expression {
                model.entityMappings[index].attributeMappings.append(
                    PropertyMapping(name: name, valueExpression: expression))
            }
        }
        return model
    }

    @Test(arguments: forms)
    func sqlAndRowsMakeTheSameRows(form: Form) throws {
        let model = try Self.mapping(form)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 300)
            var dumps: [Bool: [String: [[SQLiteValue]]]] = [:]
            var reports: [Bool: MigrationManager.Report] = [:]
            for inSQL in [true, false] {
                var options = MigrationOptions(storage: .streaming)
                options.rendersRowsInSQL = inSQL
                let path = folder.appendingPathComponent("sql-\(inSQL).sqlite").path
                let manager = MigrationManager(
                    source: try Library.v1(), destination: try BulkInstanceCreationTests.destination(),
                    options: options)
                reports[inSQL] = try manager.migrate(storeAt: source, to: path, mappingModels: [model])
                dumps[inSQL] = try Library.dump(path)
            }
            let sql = try #require(reports[true])
            let rows = try #require(reports[false])
            #expect(sql.mappingsRunInSQL.contains("BookToBook"))
            #expect(rows.mappingsRunInSQL.isEmpty)
            #expect(dumps[true] == dumps[false])
            #expect(try #require(dumps[true]?["ZBOOK"]).count > 0)
            #expect(sql.objectsCreated == rows.objectsCreated)
            #expect(sql.edgesWritten == rows.edgesWritten)
        }
    }
}
