import DataGeneration
import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import SQLiteDatabase
import TestFixtures
import Testing

/// A source store that breaks its own model fails the verification: the rows no mapping accounts for would
/// otherwise vanish from the destination unnoticed, and the verification pass.
@Suite("Damaged source stores")
struct SourceDamageTests {
    static let damages: [Corruption] = [
        Corruption(
            "a source row of no entity", .entityNumber, "Author", "Z_PK",
            sql: "UPDATE ZAUTHOR SET Z_ENT = 42 WHERE Z_PK = 1"),
        Corruption(
            "a source row without Z_ENT", .entityNumber, "Author", "Z_PK",
            sql: "UPDATE ZAUTHOR SET Z_ENT = NULL WHERE Z_PK = 1"),
        Corruption(
            "a negative source key", .entityNumber, "Tag", "Z_PK", sql: "UPDATE ZTAG SET Z_PK = -3 WHERE Z_PK = 1"),
        Corruption(
            "a source key above Z_MAX", .entityNumber, "Tag", "Z_PK",
            sql: "UPDATE ZTAG SET Z_PK = 100000 WHERE Z_PK = 2"),
        Corruption(
            "a missing source column", .schema, "Cover", "ZCOLOR", sql: "ALTER TABLE ZCOVER DROP COLUMN ZCOLOR"),
        Corruption("a missing source table", .schema, "Cover", sql: "DROP TABLE ZCOVER"),
        // Same columns, but Z_PK no longer the rowid: a key may repeat or be NULL, and the comparisons, which
        // count source rows by key, could not tell a row they did not meet.
        Corruption(
            "a source key that repeats", .schema, "Book", "Z_PK",
            sql: SourceDamageTests.withoutRowidKey("ZBOOK") + "INSERT INTO ZBOOK SELECT * FROM ZBOOK WHERE Z_PK = 5"),
        Corruption(
            "a source row without a key", .schema, "Book", "Z_PK",
            sql: SourceDamageTests.withoutRowidKey("ZBOOK") + "INSERT INTO ZBOOK SELECT * FROM ZBOOK WHERE Z_PK = 5; "
                + "UPDATE ZBOOK SET Z_PK = NULL WHERE rowid = (SELECT MAX(rowid) FROM ZBOOK)"),
    ]

    /// SQL that rebuilds `table` with the same columns and rows, its `Z_PK` an ordinary column.
    static func withoutRowidKey(_ table: String) -> String {
        "CREATE TABLE COPY AS SELECT * FROM \(table); DROP TABLE \(table); ALTER TABLE COPY RENAME TO \(table); "
    }

    @Test(arguments: damages)
    func damagedSourceFails(_ damage: Corruption) throws {
        try Shelf.withMigratedStores { source, destination in
            #expect(try Shelf.verify(source, destination).passed)
            try damage.damage(source)
            let result = try Shelf.verify(source, destination)
            #expect(!result.passed)
            let group = result.group(damage.kind, damage.entity, damage.property)
            #expect(group?.count == damage.count, "\(result.summary)")
            #expect(group?.examples.first?.detail.hasPrefix("source store:") == true)
            #expect(try Shelf.verify(source, destination, rowsPerRange: 7) == result)
        }
    }

    /// Two passes whose mappings share a name (names are unique only within one mapping model), Book → Book and
    /// Book → Edition: each reads every source book, and source rows of no entity are still found.
    @Test(arguments: [("CopyToBook", "CopyToEdition"), ("Copy", "Copy")])
    func sourceRowsOfNoEntityAreFoundWhenPassesShareAMappingName(names: (String, String)) throws {
        let book = Entity(name: "Book", attributes: [Attribute(name: "title", type: .string)])
        let edition = Entity(name: "Edition", attributes: [Attribute(name: "title", type: .string)])
        let step = Step(
            source: try ModelVersion(name: "V1", entities: [book]),
            destination: try ModelVersion(name: "V2", entities: [book, edition]), dataset: Dataset(seed: 3), size: 20)
        func passes(_ first: String, _ second: String) -> [MappingModel] {
            [("Pass1", first, "Book"), ("Pass2", second, "Edition")].map { model, mapping, destination in
                let copy = EntityMapping(
                    name: mapping, kind: .transform, sourceEntity: "Book", destinationEntity: destination,
                    attributeMappings: [PropertyMapping(name: "title", valueExpression: "$source.title")])
                return MappingModel(name: model, entityMappings: [copy])
            }
        }
        let mappings = passes(names.0, names.1)
        try step.withMigratedStores(how: .engine(MigrationOptions()), mappings: mappings) { source, destination in
            let clean = try step.verify(source, destination, mappings: mappings)
            #expect(clean.passed && clean.notChecked == [], "\(clean.summary)")
            try Shelf.corrupt(
                source,
                "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) SELECT Z_PK + 20, 42, 1, ZTITLE FROM ZBOOK; "
                    + "UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_ENT = 1")
            let result = try step.verify(source, destination, mappings: mappings)
            let group = try #require(result.group(.entityNumber, "Book", "Z_PK"), "\(result.summary)")
            #expect(group.count == 20)
        }
    }

    /// A `-wal` whose header is damaged beside the source store is reported, not folded in.
    @Test func foreignSourceLogFails() throws {
        try Shelf.withMigratedStores { source, destination in
            try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: source + "-wal"))
            let result = try Shelf.verify(source, destination)
            #expect(!result.passed)
            #expect(result.violations(of: .integrityCheck).first?.examples.first?.detail.contains("-wal") == true)
        }
    }
}
