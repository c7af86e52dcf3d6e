import DataGeneration
import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

/// One way of damaging a cleanly migrated Shelf store, and the group of violations that must report it.
struct Corruption: Sendable, CustomStringConvertible {
    let name: String
    let kind: ViolationKind
    let entity: String?
    let property: String?
    let count: Int
    let damage: @Sendable (_ store: String) throws -> Void

    init(
        _ name: String, _ kind: ViolationKind, _ entity: String?, _ property: String? = nil, count: Int = 1,
        damage: @escaping @Sendable (String) throws -> Void
    ) {
        self.name = name
        self.kind = kind
        self.entity = entity
        self.property = property
        self.count = count
        self.damage = damage
    }

    init(
        _ name: String, _ kind: ViolationKind, _ entity: String?, _ property: String? = nil, count: Int = 1, sql: String
    ) {
        self.init(name, kind, entity, property, count: count) { try Shelf.corrupt($0, sql) }
    }

    var description: String { "\(kind.rawValue): \(name)" }
}

@Suite("Corrupted stores")
struct CorruptionTests {
    static let corruptions: [Corruption] = [
        Corruption(
            "a changed value", .attributeValue, "Book", "name", sql: "UPDATE ZBOOK SET ZNAME = 'changed' WHERE Z_PK = 5"
        ),
        Corruption(
            "a value where the mapping gives nil", .attributeValue, "Book", "isbn", count: 2,
            sql: "UPDATE ZBOOK SET ZISBN = 'set' WHERE Z_PK IN (6, 7)"),
        Corruption("a deleted row", .missingObject, "Tag", sql: "DELETE FROM ZTAG WHERE Z_PK = 3"),
        // The object comparisons count unset required values only in the rows they meet; this one they do not.
        Corruption(
            "an extra row with a required value unset", .optionality, "Tag", "label",
            sql: "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (9001, 4, 1, NULL)"),
        Corruption(
            "an extra row", .unexpectedObject, "Tag",
            sql: "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (9000, 4, 1, 'an extra tag label')"),
        Corruption(
            "a dropped join-table edge", .missingEdge, "Author", "tags",
            sql: "DELETE FROM Z_1TAGS WHERE rowid = (SELECT MIN(rowid) FROM Z_1TAGS)"),
        Corruption(
            "an added join-table edge", .unexpectedEdge, "Author", "tags",
            sql: """
                INSERT INTO Z_1TAGS (Z_1AUTHORS, Z_4TAGS) SELECT a.Z_PK, t.Z_PK FROM ZAUTHOR a, ZTAG t
                WHERE (SELECT COUNT(*) FROM Z_1TAGS j WHERE j.Z_1AUTHORS = a.Z_PK) < 3
                AND NOT EXISTS (SELECT 1 FROM Z_1TAGS j WHERE j.Z_1AUTHORS = a.Z_PK AND j.Z_4TAGS = t.Z_PK)
                ORDER BY a.Z_PK, t.Z_PK LIMIT 1
                """),
        Corruption(
            "a foreign key moved to another object", .missingEdge, "Book", "author",
            sql: "UPDATE ZBOOK SET ZAUTHOR = (SELECT MAX(Z_PK) FROM ZAUTHOR) WHERE Z_PK = "
                + "(SELECT MIN(Z_PK) FROM ZBOOK WHERE ZAUTHOR != (SELECT MAX(Z_PK) FROM ZAUTHOR))"),
        Corruption(
            "a foreign key moved to another object", .unexpectedEdge, "Book", "author",
            sql: "UPDATE ZBOOK SET ZAUTHOR = (SELECT MAX(Z_PK) FROM ZAUTHOR) WHERE Z_PK = "
                + "(SELECT MIN(Z_PK) FROM ZBOOK WHERE ZAUTHOR != (SELECT MAX(Z_PK) FROM ZAUTHOR))"),
        Corruption("two swapped order keys", .edgeOrder, "Author", "books", count: 2) { store in
            let connection = try Connection(path: store, mode: .readWrite)
            let rows = try connection.rows(
                "SELECT Z_PK, Z_FOK_AUTHOR FROM ZBOOK WHERE ZAUTHOR = (SELECT ZAUTHOR FROM ZBOOK GROUP BY ZAUTHOR "
                    + "HAVING COUNT(*) > 1 ORDER BY ZAUTHOR LIMIT 1) ORDER BY Z_FOK_AUTHOR LIMIT 2")
            for (row, other) in [(rows[0], rows[1]), (rows[1], rows[0])] {
                try connection.withStatement("UPDATE ZBOOK SET Z_FOK_AUTHOR = ? WHERE Z_PK = ?") { statement in
                    try statement.bind(other[1], at: 1)
                    try statement.bind(row[0], at: 2)
                    try statement.run()
                }
            }
        },
        Corruption(
            "a one-to-one broken on one side", .inverseMismatch, "Book", "cover",
            sql: "UPDATE ZCOVER SET ZBOOK = NULL WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZCOVER WHERE ZBOOK IS NOT NULL)"),
        Corruption(
            "a foreign key to no object", .danglingForeignKey, "Book", "author",
            sql: "UPDATE ZBOOK SET ZAUTHOR = 999999 WHERE Z_PK = 2"),
        Corruption(
            "a join-table row to no object", .danglingForeignKey, "Author", "tags",
            sql: "INSERT INTO Z_1TAGS (Z_1AUTHORS, Z_4TAGS) VALUES ((SELECT MIN(Z_PK) FROM ZAUTHOR), 7777)"),
        Corruption("a wrong Z_ENT", .entityNumber, "Cover", "Z_ENT", sql: "UPDATE ZCOVER SET Z_ENT = 9 WHERE Z_PK = 1"),
        Corruption(
            "a NULL Z_ENT", .entityNumber, "Cover", "Z_ENT", sql: "UPDATE ZCOVER SET Z_ENT = NULL WHERE Z_PK = 1"),
        Corruption(
            "a wrong Z_PRIMARYKEY name", .entityNumber, "Author",
            sql: "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Shelf' WHERE Z_ENT = 1"),
        Corruption(
            "a Z_MAX below the largest key", .entityNumber, "Book", "Z_MAX",
            sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_ENT = 2"),
        Corruption(
            "a required value set to NULL", .optionality, "Book", "name",
            sql: "UPDATE ZBOOK SET ZNAME = NULL WHERE Z_PK = 2"),
        Corruption(
            "a required to-one set to NULL", .optionality, "Book", "author", count: 3,
            sql: "UPDATE ZBOOK SET ZAUTHOR = NULL WHERE Z_PK IN (1, 2, 3)"),
        Corruption(
            "more objects than the maximum count", .relationshipCount, "Author", "tags",
            sql: "INSERT OR IGNORE INTO Z_1TAGS (Z_1AUTHORS, Z_4TAGS) SELECT 1, Z_PK FROM ZTAG"),
        Corruption(
            "a duplicated unique value", .uniqueness, "Tag", "label",
            // Core Data's UNIQUE index would refuse the duplicate: a damaged store has lost it too.
            sql: "DROP INDEX Z_Tag_UNIQUE_label; "
                + "UPDATE ZTAG SET ZLABEL = (SELECT ZLABEL FROM ZTAG WHERE Z_PK = 1) WHERE Z_PK = 2"),
        Corruption("a missing column", .schema, "Book", "isbn", sql: "ALTER TABLE ZBOOK DROP COLUMN ZISBN"),
        Corruption("an extra column", .schema, "Book", "ZEXTRA", sql: "ALTER TABLE ZBOOK ADD COLUMN ZEXTRA INTEGER"),
        // A doubled row would meet its source object twice and make the comparisons' count look complete.
        Corruption(
            "a key that repeats", .schema, "Book", "Z_PK",
            sql: SourceDamageTests.withoutRowidKey("ZBOOK") + "INSERT INTO ZBOOK SELECT * FROM ZBOOK WHERE Z_PK = 5"),
        Corruption("the source version's metadata", .metadata, "Book", "versionHash") { store in
            let plist = try StoreMetadata(version: try Shelf.v1()).plist()
            let connection = try Connection(path: store, mode: .readWrite)
            try connection.withStatement("UPDATE Z_METADATA SET Z_PLIST = ?") { statement in
                try statement.bind(plist, at: 1)
                try statement.run()
            }
        },
    ]

    @Test(arguments: corruptions)
    func corruptionIsCaught(_ corruption: Corruption) throws {
        try Shelf.withMigratedStores { source, destination in
            #expect(try Shelf.verify(source, destination).passed)
            try corruption.damage(destination)
            let result = try Shelf.verify(source, destination)
            #expect(!result.passed)
            let group = result.group(corruption.kind, corruption.entity, corruption.property)
            #expect(group?.count == corruption.count, "\(result.summary)")
            // Objects compared in ranges of 7 keys, as a large table's are shared by the two threads: the same
            // findings, in the same order, with the same examples.
            #expect(try Shelf.verify(source, destination, rowsPerRange: 7) == result)
        }
    }

    /// A check that fails to run fails the verification: a required generated column whose SQL function
    /// errors on every row (`abs` of the lowest integer overflows) stops `PRAGMA integrity_check` with an
    /// error that is not damage found. It was listed under notChecked, and the store passed.
    @Test func aCheckThatFailsToRunFailsTheVerification() throws {
        try Shelf.withMigratedStores { source, destination in
            try Shelf.corrupt(
                destination,
                "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = substr(sql, 1, length(sql) - 1) "
                    + "|| ', ZBROKEN INTEGER NOT NULL AS (abs(-9223372036854775807 - 1 + Z_PK * 0)))' "
                    + "WHERE name = 'ZBOOK'; PRAGMA writable_schema = OFF")
            let result = try Shelf.verify(source, destination)
            #expect(!result.passed)
            let group = try #require(result.violations(of: .checkFailed).first, "\(result.summary)")
            let detail = try #require(group.examples.first?.detail)
            #expect(detail.hasPrefix("the integrityCheck check failed to run: "), "\(detail)")
            #expect(detail.contains("integer overflow"), "\(detail)")
            #expect(!result.notChecked.contains { $0.reason.contains("failed to run") })
        }
    }

    /// A damaged index (its definition no longer matches its entries) fails `PRAGMA integrity_check`.
    @Test func damagedIndexFailsTheIntegrityCheck() throws {
        try Shelf.withMigratedStores { source, destination in
            try Shelf.corrupt(
                destination,
                "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = "
                    + "'CREATE INDEX \"ZBOOK_ZAUTHOR_INDEX\" ON \"ZBOOK\" (\"Z_OPT\")' "
                    + "WHERE name = 'ZBOOK_ZAUTHOR_INDEX'; PRAGMA writable_schema = OFF")
            let result = try Shelf.verify(source, destination)
            let group = try #require(result.violations(of: .integrityCheck).first, "\(result.summary)")
            #expect(group.entity == nil && group.count > 0)
        }
    }

    /// Bytes overwritten in a page of the file: the integrity check reports the damage, and the checks that
    /// cannot read the damaged table are listed as not checked instead of crashing the verification.
    @Test func corruptPageFailsTheIntegrityCheck() throws {
        try Shelf.withMigratedStores { source, destination in
            let (page, size) = try {
                let connection = try Connection(path: destination, mode: .readWrite)
                try connection.checkpoint()
                let page = try connection.scalar("SELECT rootpage FROM sqlite_master WHERE name = 'ZBOOK'")?.int64
                return (try #require(page), try #require(try connection.pragma("page_size")?.int64))
            }()
            // The second half of the table's root page, where its cells are.
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: destination))
            try handle.seek(toOffset: UInt64((page - 1) * size + size / 2))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) / 2))
            try handle.close()
            let result = try Shelf.verify(source, destination)
            let group = try #require(result.violations(of: .integrityCheck).first, "\(result.summary)")
            #expect(group.entity == nil && group.count > 0)
        }
    }

    /// Two source tables feed one destination entity, whose table then numbers objects anew: objects are
    /// counted, and a deleted one shows as a wrong count.
    @Test func aDeletedObjectOfACountedEntityChangesItsCount() throws {
        let v1 = try ModelVersion(
            name: "V1",
            entities: [
                Entity(name: "Author", attributes: [Attribute(name: "name", type: .string)]),
                Entity(name: "Editor", attributes: [Attribute(name: "name", type: .string)]),
            ])
        let v2 = try ModelVersion(
            name: "V2", entities: [Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)])])
        let mapping = MappingModel(
            name: "People",
            entityMappings: ["Author", "Editor"].map { (entity: String) in
                EntityMapping(
                    name: "\(entity)ToPerson", kind: .transform, sourceEntity: entity, destinationEntity: "Person",
                    attributeMappings: [PropertyMapping(name: "name", valueExpression: "$source.name")])
            })
        let step = Step(source: v1, destination: v2, dataset: Dataset(seed: 3), size: 20)
        try step.withMigratedStores(how: .engine(MigrationOptions()), mappings: [mapping]) { source, destination in
            let clean = try step.verify(source, destination, mappings: [mapping])
            #expect(clean.passed, "\(clean.summary)")
            #expect(clean.notChecked.map(\.kind).contains(.attributeValue))
            try Shelf.corrupt(destination, "DELETE FROM ZPERSON WHERE Z_PK = 7")
            let result = try step.verify(source, destination, mappings: [mapping])
            #expect(result.group(.objectCount, "Person")?.count == 1, "\(result.summary)")
        }
    }
}
