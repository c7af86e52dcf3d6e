import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

/// One way of damaging a migrated store, and the kind of violation that must report it.
struct Corruption: Sendable, CustomStringConvertible {
    let kind: ViolationKind
    let sql: String
    var description: String { kind.rawValue }
}

@Suite("Integrity verifier")
struct IntegrityVerifierTests {
    static let corruptions: [Corruption] = [
        Corruption(kind: .schema, sql: "ALTER TABLE ZBOOK ADD COLUMN ZEXTRA INTEGER"),
        Corruption(kind: .entityNumber, sql: "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Shelf' WHERE Z_ENT = 1"),
        Corruption(kind: .missingObject, sql: "DELETE FROM ZBOOK WHERE Z_PK = 3"),
        Corruption(
            kind: .unexpectedObject,
            sql: "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (9000, 4, 1, 'an extra tag label')"),
        Corruption(kind: .attributeValue, sql: "UPDATE ZBOOK SET ZNAME = 'changed' WHERE Z_PK = 5"),
        Corruption(kind: .attributeValue, sql: "UPDATE ZBOOK SET ZISBN = 'set' WHERE Z_PK = 6"),
        Corruption(kind: .missingEdge, sql: "DELETE FROM Z_1TAGS WHERE rowid = (SELECT MIN(rowid) FROM Z_1TAGS)"),
        Corruption(
            kind: .unexpectedEdge,
            sql: "UPDATE ZBOOK SET ZAUTHOR = (SELECT MAX(Z_PK) FROM ZAUTHOR) + 0 WHERE Z_PK = 7 "
                + "AND ZAUTHOR != (SELECT MAX(Z_PK) FROM ZAUTHOR)"),
        Corruption(
            kind: .edgeOrder,
            sql: "UPDATE ZBOOK SET Z_FOK_AUTHOR = -Z_FOK_AUTHOR WHERE ZAUTHOR = "
                + "(SELECT ZAUTHOR FROM ZBOOK GROUP BY ZAUTHOR HAVING COUNT(*) > 1 LIMIT 1)"),
        Corruption(
            kind: .inverseMismatch,
            sql: "UPDATE ZCOVER SET ZBOOK = NULL WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZCOVER WHERE ZBOOK IS NOT NULL)"),
        Corruption(kind: .danglingForeignKey, sql: "UPDATE ZBOOK SET ZAUTHOR = 999999 WHERE Z_PK = 2"),
        Corruption(kind: .optionality, sql: "UPDATE ZBOOK SET ZNAME = NULL WHERE Z_PK = 2"),
        Corruption(
            kind: .relationshipCount,
            sql: "INSERT OR IGNORE INTO Z_1TAGS (Z_1AUTHORS, Z_4TAGS) SELECT 1, Z_PK FROM ZTAG"),
        Corruption(
            kind: .uniqueness,
            sql: "UPDATE ZTAG SET ZLABEL = (SELECT ZLABEL FROM ZTAG WHERE Z_PK = 1) WHERE Z_PK = 2"),
    ]

    @Test(arguments: StorageMode.allCases)
    func cleanMigrationVerifiesClean(storage: StorageMode) throws {
        try Shelf.withMigratedStores(storage: storage) { source, destination in
            let result = try Shelf.verify(source, destination)
            #expect(result.violations == [], "\(result.violations)")
            #expect(result.passed)
        }
    }

    @Test func inMemoryAndStreamingMigrationsGetTheSameVerdict() throws {
        var verdicts: [VerificationResult] = []
        for storage in StorageMode.allCases {
            try Shelf.withMigratedStores(storage: storage) { source, destination in
                try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZNAME = 'x' WHERE Z_PK = 4")
                verdicts.append(try Shelf.verify(source, destination))
            }
        }
        #expect(verdicts.count == 2 && verdicts[0] == verdicts[1])
        #expect(verdicts.first?.violations.map(\.kind) == [.attributeValue])
    }

    @Test(arguments: corruptions)
    func corruptionIsCaught(_ corruption: Corruption) throws {
        try Shelf.withMigratedStores { source, destination in
            try Shelf.corrupt(destination, corruption.sql)
            let result = try Shelf.verify(source, destination)
            #expect(!result.passed)
            #expect(!result.violations(of: corruption.kind).isEmpty, "\(result.violations)")
        }
    }

    @Test func wrongMetadataIsCaught() throws {
        try Shelf.withMigratedStores { source, destination in
            let plist = try StoreMetadata(version: try Shelf.v1()).plist()
            let connection = try Connection(path: destination, mode: .readWrite)
            try connection.withStatement("UPDATE Z_METADATA SET Z_PLIST = ?") { statement in
                try statement.bind(plist, at: 1)
                try statement.run()
            }
            let result = try Shelf.verify(source, destination)
            #expect(!result.violations(of: .metadata).isEmpty, "\(result.violations)")
        }
    }

    @Test func damagedIndexFailsTheIntegrityCheck() throws {
        try Shelf.withMigratedStores { source, destination in
            try Shelf.corrupt(
                destination,
                "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = "
                    + "'CREATE INDEX \"ZBOOK_ZAUTHOR_INDEX\" ON \"ZBOOK\" (\"Z_OPT\")' "
                    + "WHERE name = 'ZBOOK_ZAUTHOR_INDEX'; PRAGMA writable_schema = OFF")
            let result = try Shelf.verify(source, destination)
            #expect(!result.violations(of: .integrityCheck).isEmpty, "\(result.violations)")
        }
    }

    @Test func groupsCountEveryViolationAndKeepFiveExamples() throws {
        try Shelf.withMigratedStores { source, destination in
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZPAGES = -1 WHERE Z_PK <= 20")
            let result = try Shelf.verify(source, destination)
            let group = try #require(result.violations(of: .attributeValue).first)
            #expect(group.entity == "Book" && group.property == "pages")
            #expect(group.count == 20 && group.examples.count == 5)
            #expect(group.examples.first?.primaryKey == 1)
        }
    }

    @Test func expressionsAreEvaluatedByTheVerifier() throws {
        var mapping = try MappingInference.infer(from: try Shelf.v1(), to: try Shelf.v2())
        let index = mapping.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        mapping.entityMappings[index].attributeMappings.removeAll { $0.name == "isbn" }
        mapping.entityMappings[index].attributeMappings.append(
            PropertyMapping(name: "isbn", valueExpression: #"uppercase($source.title) + "-" + string($source.pages)"#))
        try Shelf.withMigratedStores(mappings: [mapping]) { source, destination in
            #expect(try Shelf.verify(source, destination, mappings: [mapping]).violations == [])
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZISBN = lower(ZISBN) WHERE Z_PK = 9")
            let result = try Shelf.verify(source, destination, mappings: [mapping])
            #expect(result.violations.map(\.kind) == [.attributeValue])
            #expect(result.violations.first?.property == "isbn")
        }
    }
}
