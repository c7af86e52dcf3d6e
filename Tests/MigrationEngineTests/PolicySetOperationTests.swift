import Foundation
import MappingModel
import ObjectModel
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// A built-in policy run as a set operation makes the store its per-object path makes: the same rows, keys,
/// values (the same UUIDs, drawn in the same order) and edges.
@Suite("Built-in policies as set operations")
struct PolicySetOperationTests {
    /// The Book mapping with AssignNewIdentifier into `uuid` (of `type`), optionally filtered.
    static func model(type: AttributeType, filter: String?) throws -> (ModelVersion, MappingModel, String) {
        let v2 = try BuiltInPolicyTests.version(
            book: Library.book.attributes + [Attribute(name: "uuid", type: type, isOptional: true)])
        var model = try BuiltInPolicyTests.customBookMapping(
            policy: "AssignNewIdentifier", userInfo: ["attribute": "uuid"], to: v2)
        let index = model.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        model.entityMappings[index].sourceFilter = filter
        // As a real mapping with this policy reads (Scenarios/mappings/crm-v1-v2.yaml): the policy alone fills it.
        model.entityMappings[index].attributeMappings.removeAll { $0.name == "uuid" }
        return (v2, model, model.entityMappings[index].name)
    }

    @Test(arguments: [nil, "$source.pages > 150"])
    func assignNewIdentifierInSQLMakesTheRowsOfThePerObjectPath(filter: String?) throws {
        let (v2, model, name) = try Self.model(type: .uuid, filter: filter)
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 300)
            var dumps: [String: [String: [[SQLiteValue]]]] = [:]
            var reports: [String: MigrationManager.Report] = [:]
            for (arm, storage, inSQL) in [
                ("sql", StorageMode.streaming, true), ("rows", .streaming, false), ("memory", .inMemory, true),
            ] {
                var options = MigrationOptions(storage: storage)
                options.rendersRowsInSQL = inSQL
                let path = folder.appendingPathComponent("\(arm).sqlite").path
                reports[arm] = try MigrationManager(source: try Library.v1(), destination: v2, options: options)
                    .migrate(storeAt: source, to: path, mappingModels: [model])
                dumps[arm] = try Library.dump(path)
            }
            #expect(try #require(reports["sql"]).mappingsRunInSQL.contains(name))
            #expect(try #require(reports["rows"]).mappingsRunInSQL.isEmpty)
            #expect(dumps["sql"] == dumps["rows"])
            #expect(dumps["sql"] == dumps["memory"])
            let books = try #require(dumps["sql"]?["ZBOOK"])
            #expect(books.count > 0 && books.count < (filter == nil ? 301 : 300))
            #expect(reports["sql"]?.objectsCreated == reports["rows"]?.objectsCreated)
            #expect(reports["sql"]?.edgesWritten == reports["rows"]?.edgesWritten)
        }
    }

    /// A String attribute keeps the per-object path (the UUID is converted to text there), and so does an
    /// attribute the mapping also fills (its expression is evaluated there before the policy overwrites it).
    @Test(arguments: [true, false])
    func otherIdentifiersStayObjectByObject(string: Bool) throws {
        var (v2, model, name) = try Self.model(type: string ? .string : .uuid, filter: nil)
        if !string {
            let index = model.entityMappings.firstIndex { $0.name == name }!
            model.entityMappings[index].attributeMappings.append(PropertyMapping(name: "uuid", valueExpression: "nil"))
        }
        try SampleModels.withTemporaryFolder { folder in
            let source = try Library.makeStore(in: folder, size: 50)
            let report = try MigrationManager(source: try Library.v1(), destination: v2).migrate(
                storeAt: source, to: folder.appendingPathComponent("v2.sqlite").path, mappingModels: [model])
            #expect(!report.mappingsRunInSQL.contains(name))
        }
    }
}
