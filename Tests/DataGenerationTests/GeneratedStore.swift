import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

/// A store generated for a test, read back through its layout: tables and columns are looked up, never spelt out.
struct GeneratedStore {
    let path: String
    let result: GenerationResult
    let connection: Connection
    let layout: StoreLayout

    var version: ModelVersion { layout.version }

    /// Generates `size` objects of `version` per `dataset` into `folder/name`, and opens the store read-only.
    init(
        _ version: ModelVersion, _ dataset: Dataset = Dataset(), size: Int, in folder: URL,
        name: String = "generated.sqlite"
    ) throws {
        let path = folder.appendingPathComponent(name).path
        let result = try StoreGenerator(version: version, dataset: dataset, size: size).generate(at: path)
        self.path = path
        self.result = result
        self.connection = try Connection(path: path, mode: .readOnly)
        self.layout = try StoreLayout(version: version)
    }

    /// The number of rows of `entity` and its subentities.
    func count(of entity: String) throws -> Int {
        let range = layout.entityNumberRange(of: entity)
        let sql = "SELECT COUNT(*) FROM \(quoted(layout.table(for: entity).name)) WHERE Z_ENT BETWEEN ? AND ?"
        let count = try connection.scalar(sql, [.integer(Int64(range.lowerBound)), .integer(Int64(range.upperBound))])
        return Int(count?.int64 ?? 0)
    }

    /// The column of an attribute or to-one relationship of `entity`.
    func column(_ property: String, of entity: String) throws -> EntityTable.Column {
        try #require(layout.table(for: entity).column(for: property, of: entity, version: version))
    }

    /// The values of `properties` (plus order keys written `property#order`) of every object of `entity` and
    /// its subentities, keyed by primary key.
    func rows(of entity: String, _ properties: [String]) throws -> [Int64: [SQLiteValue]] {
        let table = layout.table(for: entity)
        let columns = try properties.map { property in
            if property.hasSuffix("#order") {
                let relationship = String(property.dropLast("#order".count))
                return try #require(table.orderKeyColumn(for: relationship, of: entity, version: version)).name
            }
            return try column(property, of: entity).name
        }
        let range = layout.entityNumberRange(of: entity)
        let sql =
            "SELECT Z_PK\(columns.map { ", " + quoted($0) }.joined()) FROM \(quoted(table.name)) "
            + "WHERE Z_ENT BETWEEN ? AND ? ORDER BY Z_PK"
        var rows: [Int64: [SQLiteValue]] = [:]
        for row in try connection.rows(sql, [.integer(Int64(range.lowerBound)), .integer(Int64(range.upperBound))]) {
            rows[try #require(row[0].int64)] = Array(row.dropFirst())
        }
        return rows
    }

    /// The values of one property of every object of `entity` and its subentities.
    func values(of property: String, of entity: String) throws -> [SQLiteValue] {
        try rows(of: entity, [property]).sorted { $0.key < $1.key }.map { $0.value[0] }
    }

    /// The edges of a to-many relationship kept in a join table: (source, destination) pairs, as `entity` sees them.
    func joinEdges(_ relationship: String, of entity: String) throws -> [(source: Int64, destination: Int64)] {
        let join = try #require(layout.joinTable(for: relationship, of: entity))
        let source = join.sourceColumn(forRelationship: relationship, of: entity)
        let target = join.targetColumn(forRelationship: relationship, of: entity)
        return try connection.rows("SELECT \(quoted(source)), \(quoted(target)) FROM \(quoted(join.name))").map {
            (try #require($0[0].int64), try #require($0[1].int64))
        }
    }

    /// Every table's rows in rowid order: the store's whole content, but for `Z_METADATA.Z_PLIST`, which is
    /// returned apart (its bytes are compared apart from the rest: see `DeterminismTests`).
    static func dump(_ path: String) throws -> (tables: [String: [[SQLiteValue]]], plist: [UInt8]) {
        let connection = try Connection(path: path, mode: .readOnly)
        var tables: [String: [[SQLiteValue]]] = [:]
        for table in try connection.tableNames() where table != "Z_METADATA" {
            tables[table] = try connection.rows("SELECT * FROM \(quoted(table)) ORDER BY rowid")
        }
        tables["Z_METADATA"] = try connection.rows("SELECT Z_VERSION, Z_UUID FROM Z_METADATA ORDER BY rowid")
        let plist = try #require(try connection.scalar("SELECT Z_PLIST FROM Z_METADATA")?.bytes)
        return (tables, plist)
    }
}

/// The model versions the generator is exercised on: the catalogue and every version of the fixture bundle.
enum TestModels {
    static let fixtureVersions = [
        "CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3",
        "CoreDataMigration_Example 4",
    ]
    static let all = ["Catalogue"] + fixtureVersions

    static func version(_ name: String) throws -> ModelVersion {
        if name == "Catalogue" { return try SampleModels.catalogue() }
        return try ModelLoader.load(path: Fixtures.modelBundle.path).requireVersion(name)
    }
}

extension Dictionary where Value == Int {
    /// How many times each key occurs in `keys`, starting from `self`.
    func tallying(_ keys: some Sequence<Key>) -> Self {
        var counts = self
        for key in keys { counts[key, default: 0] += 1 }
        return counts
    }
}
