import Foundation
import ObjectModel
import SQLiteDatabase
import TestFixtures
import Testing

@testable import PersistentStore

@Suite("Store layout")
struct StoreLayoutTests {
    /// The tables Core Data wrote for versions 3 and 4 of the fixture model, column for column.
    @Test(arguments: [
        ("CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example"),
        ("CoreDataMigration_Example_3.sqlite", "CoreDataMigration_Example 3"),
        ("CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration_Example 4"),
    ])
    func layoutMatchesCoreDataSchema(store file: String, version name: String) throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let layout = try StoreLayout(version: try history.requireVersion(name))
        try Fixtures.withStoreCopy(file) { url in
            let connection = try Connection(path: url.path, mode: .readOnly)
            for table in layout.entityTables {
                let real = try connection.columns(of: table.name).map { "\($0.name) \($0.declaredType)" }
                let ours =
                    ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                    + table.columns.map { "\($0.name) \($0.sqlType)" }
                #expect(ours == real, "table \(table.name)")
            }
            let numbers = try connection.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY")
            for row in numbers {
                #expect(layout.entityNumbers[row[0].string ?? ""] == Int(row[1].int64 ?? -1))
            }
        }
    }

    @Test func inheritanceSharesOneTableWithContiguousEntityNumbers() throws {
        let layout = try StoreLayout(version: try SampleModels.catalogue())
        #expect(layout.entityTables.map(\.name) == ["ZBARCODE", "ZCHAPTER", "ZITEM", "ZSHELF", "ZTAG"])
        #expect(layout.table(for: "Book").name == "ZITEM")
        #expect(layout.table(for: "Item").entities == ["Item", "Book", "Film"])
        #expect(layout.entityNumberRange(of: "Item") == 3...5)
        #expect(layout.entityNumberRange(of: "Book") == 4...4)
        let item = layout.table(for: "Item")
        #expect(item.column(for: "title", of: "Book", version: layout.version)?.name == "ZTITLE")
        #expect(
            item.column(for: "cached", of: "Book", version: layout.version) == nil,
            "transient attributes are not stored")
    }

    @Test func relationshipsAreStoredAsCoreDataStoresThem() throws {
        let version = try SampleModels.catalogue()
        let layout = try StoreLayout(version: version)
        let item = layout.table(for: "Item")
        // One-to-one: a foreign key on both sides.
        #expect(item.column(for: "barcode", of: "Book", version: version)?.name == "ZBARCODE")
        #expect(layout.table(for: "Barcode").column(for: "book", of: "Barcode", version: version)?.name == "ZBOOK")
        // Ordered one-to-many: the foreign key and its order key on the to-one side.
        let chapter = layout.table(for: "Chapter")
        #expect(chapter.column(for: "book", of: "Chapter", version: version)?.name == "ZBOOK")
        #expect(chapter.orderKeyColumn(for: "book", of: "Chapter", version: version)?.name == "Z_FOK_BOOK")
        #expect(layout.storage(of: version.relationship("chapters", of: "Book")!, in: "Book") == .inverseForeignKey)
        // Many-to-many: one join table named after the lower-numbered entity's relationship.
        let join = try #require(layout.joinTable(for: "tags", of: "Book"))
        #expect(join.name == "Z_3TAGS")
        #expect(join.ownerColumn == "Z_3ITEMS")
        #expect(join.destinationColumn == "Z_7TAGS")
        #expect(layout.joinTable(for: "items", of: "Tag") == join)
        #expect(layout.joinTables.count == 1)
    }

    @Test func nameClashesInOneTableGetNumericSuffixes() throws {
        let version = try ModelVersion(
            name: "V",
            entities: [
                Entity(name: "Shape", isAbstract: true),
                Entity(name: "Circle", parent: "Shape", attributes: [Attribute(name: "size", type: .double)]),
                Entity(name: "Square", parent: "Shape", attributes: [Attribute(name: "size", type: .integer32)]),
            ])
        // Names are handed out in column order (format note C5): Square's integer comes before Circle's double,
        // although Circle comes first in the hierarchy.
        let table = try StoreLayout(version: version).table(for: "Shape")
        #expect(table.column(for: "size", of: "Square", version: version)?.name == "ZSIZE")
        #expect(table.column(for: "size", of: "Circle", version: version)?.name == "ZSIZE1")
    }

    @Test func namesThatCannotBeStoredAreRefused() throws {
        let version = try ModelVersion(
            name: "V", entities: [Entity(name: "Café", attributes: [Attribute(name: "x", type: .string)])])
        #expect {
            try StoreLayout(version: version)
        } throws: { error in
            let error = try #require(error as? StoreError)
            return error.code == .unsupportedModel && error.description.contains("Café")
        }
    }
}
