import Foundation
import IntegrityVerification
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
    ]

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
