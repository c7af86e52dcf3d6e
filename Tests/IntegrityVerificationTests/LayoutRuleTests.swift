import DataGeneration
import Foundation
import IntegrityVerification
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

/// One rule of Core Data's store layout (the format note store-layout.md) per small model: a store written
/// here shows the rule, is migrated to a next version by the engine and in place, and verifies clean.
@Suite("Store layout rules, written, migrated and verified")
struct LayoutRuleTests {
    /// A model whose store shows one rule, and what to check in a store written at it.
    struct Rule: CustomTestStringConvertible, Sendable {
        let name: String
        let entities: [Entity]
        /// Checks the rule on a store at either version; `store` is open read-only.
        let check: @Sendable (Connection) throws -> Void
        var testDescription: String { name }

        /// Version 1 and version 2, which adds an optional attribute to every root so that tables change.
        func versions() throws -> (ModelVersion, ModelVersion) {
            let v1 = try ModelVersion(name: "V1", entities: entities)
            let v2 = try ModelVersion(
                name: "V2",
                entities: entities.map {
                    var entity = $0
                    if entity.parent == nil {
                        entity.attributes.append(Attribute(name: "zAdded", type: .string, isOptional: true))
                    }
                    return entity
                })
            return (v1, v2)
        }
    }

    static func columns(_ table: String, _ connection: Connection) throws -> [String] {
        try connection.columns(of: table).map(\.name)
    }

    static func sql(_ name: String, _ connection: Connection) throws -> String? {
        try connection.rows("SELECT sql FROM sqlite_master WHERE name = ?", [.text(name)]).first?.first?.string
    }

    static let rules: [Rule] = [
        Rule(
            name: "suffixes: a clash in a table (C5) and in join-table columns (M3)",
            entities: [
                Entity(name: "Shape", isAbstract: true),
                Entity(name: "Circle", parent: "Shape", attributes: [Attribute(name: "size", type: .double)]),
                Entity(name: "Square", parent: "Shape", attributes: [Attribute(name: "size", type: .integer32)]),
                Entity(
                    name: "Reaction",
                    relationships: [
                        Relationship(name: "users", destination: "User", inverse: "reactions", isToMany: true)
                    ]
                ),
                Entity(
                    name: "SystemMessage",
                    relationships: [
                        Relationship(name: "users", destination: "User", inverse: "systemMessages", isToMany: true)
                    ]),
                Entity(
                    name: "User",
                    relationships: [
                        Relationship(name: "reactions", destination: "Reaction", inverse: "users", isToMany: true),
                        Relationship(
                            name: "systemMessages", destination: "SystemMessage", inverse: "users", isToMany: true),
                    ]),
            ],
            check: { (connection: Connection) throws -> Void in
                // Reaction=1, Shape=2 (Circle=3, Square=4), SystemMessage=5, User=6.
                #expect(
                    Array(try columns("ZSHAPE", connection).prefix(5)) == ["Z_PK", "Z_ENT", "Z_OPT", "ZSIZE", "ZSIZE1"])
                #expect(try columns("Z_1USERS", connection) == ["Z_1REACTIONS", "Z_6USERS"])
                #expect(try columns("Z_5USERS", connection) == ["Z_5SYSTEMMESSAGES", "Z_6USERS1"])
            }),
        Rule(
            name: "to-one into a hierarchy: Z<n>_<NAME> holds the target's entity number (R2)",
            entities: [
                Entity(
                    name: "Comment",
                    relationships: [Relationship(name: "post", destination: "Post", inverse: "comments")]),
                Entity(
                    name: "Post", attributes: [Attribute(name: "title", type: .string)],
                    relationships: [
                        Relationship(name: "comments", destination: "Comment", inverse: "post", isToMany: true)
                    ]),
                Entity(name: "Article", parent: "Post", attributes: [Attribute(name: "body", type: .string)]),
            ],
            check: { (connection: Connection) throws -> Void in
                // Comment=1, Post=2, Article=3.
                #expect(
                    Array(try columns("ZCOMMENT", connection).prefix(5)) == [
                        "Z_PK", "Z_ENT", "Z_OPT", "ZPOST", "Z2_POST",
                    ])
                let wrong = try connection.scalar(
                    "SELECT COUNT(*) FROM ZCOMMENT c JOIN ZPOST p ON p.Z_PK = c.ZPOST WHERE c.Z2_POST IS NOT p.Z_ENT")
                let filled = try connection.scalar("SELECT COUNT(*) FROM ZCOMMENT WHERE Z2_POST = 3")
                #expect(wrong?.int64 == 0)
                #expect((filled?.int64 ?? 0) > 0, "some comments are on articles")
                #expect(try sql("ZPOST_Z_ENT_INDEX", connection) == "CREATE INDEX ZPOST_Z_ENT_INDEX ON ZPOST (Z_ENT)")
                #expect(try sql("Z2_POST", connection) == nil, "an entity column has no index")
            }),
        Rule(
            name: "ordered many-to-many: both order keys, the naming side's rows first (M4, M5)",
            entities: [
                Entity(
                    name: "Playlist",
                    relationships: [
                        Relationship(
                            name: "songs", destination: "Song", inverse: "playlists", isToMany: true, isOrdered: true)
                    ]),
                Entity(
                    name: "Song",
                    relationships: [
                        Relationship(
                            name: "playlists", destination: "Playlist", inverse: "songs", isToMany: true,
                            isOrdered: true)
                    ]),
            ],
            check: { (connection: Connection) throws -> Void in
                #expect(
                    try columns("Z_1SONGS", connection)
                        == ["Z_1PLAYLISTS", "Z_2SONGS", "Z_FOK_1PLAYLISTS", "Z_FOK_2SONGS"])
                #expect(
                    try sql("Z_1SONGS_Z_2SONGS_INDEX", connection)
                        == "CREATE INDEX Z_1SONGS_Z_2SONGS_INDEX ON Z_1SONGS (Z_2SONGS, Z_1PLAYLISTS)")
            }),
        Rule(
            name: "uniqueness constraints: UNIQUE indexes, on a subentity too (I6)",
            entities: [
                Entity(
                    name: "Person",
                    attributes: [
                        Attribute(name: "firstName", type: .string), Attribute(name: "lastName", type: .string),
                    ],
                    uniquenessConstraints: [["firstName", "lastName"]]),
                Entity(name: "Writer", attributes: [Attribute(name: "name", type: .string)]),
                Entity(
                    name: "Author", parent: "Writer", attributes: [Attribute(name: "alias", type: .string)],
                    uniquenessConstraints: [["alias"]]),
            ],
            check: { (connection: Connection) throws -> Void in
                #expect(
                    try sql("Z_Person_UNIQUE_firstName_lastName", connection)
                        == "CREATE UNIQUE INDEX Z_Person_UNIQUE_firstName_lastName ON ZPERSON "
                        + "(ZFIRSTNAME COLLATE BINARY ASC, ZLASTNAME COLLATE BINARY ASC)")
                #expect(
                    try sql("Z_Author_UNIQUE_alias", connection)
                        == "CREATE UNIQUE INDEX Z_Author_UNIQUE_alias ON ZWRITER (ZALIAS COLLATE BINARY ASC)")
            }),
        Rule(
            name: "fetch indexes and indexed attributes, declared on a subentity (I4)",
            entities: [
                Entity(name: "Message", attributes: [Attribute(name: "sent", type: .date, isIndexed: true)]),
                Entity(
                    name: "Text", parent: "Message",
                    attributes: [Attribute(name: "body", type: .string), Attribute(name: "size", type: .integer32)],
                    indexes: [Index(name: "bySizeAndBody", properties: ["size", "body"])]),
            ],
            check: { (connection: Connection) throws -> Void in
                #expect(
                    try sql("Z_Message_sent", connection)
                        == "CREATE INDEX Z_Message_sent ON ZMESSAGE (ZSENT COLLATE BINARY ASC)")
                #expect(
                    try sql("Z_Text_bySizeAndBody", connection)
                        == "CREATE INDEX Z_Text_bySizeAndBody ON ZMESSAGE "
                        + "(ZSIZE COLLATE BINARY ASC, ZBODY COLLATE BINARY ASC)")
            }),
    ]

    @Test(arguments: rules)
    func ruleHoldsThroughMigration(rule: Rule) throws {
        let (v1, v2) = try rule.versions()
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(), size: 60).generate(at: source)
            try rule.check(try Connection(path: source, mode: .readOnly))
            try Self.expectVerified(v1, v1, source, source)
            _ = try Self.migrateBothWays(rule, v1, v2, source, in: folder)
        }
    }

    /// A column added by an in-place step is appended, as Core Data appends it (H1), even where a fresh table
    /// would put it earlier: the table is altered, not rebuilt, and reads by name as before — also when it
    /// holds a kept foreign key whose to-many inverse is kept (the benchmark's library step).
    @Test(arguments: [false, true])
    func inPlaceStepAppendsNewColumns(withAuthor: Bool) throws {
        var book = Entity(
            name: "Book",
            attributes: [Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32)])
        let author = Entity(
            name: "Author", attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true)])
        if withAuthor { book.relationships = [Relationship(name: "author", destination: "Author", inverse: "books")] }
        var newer = book
        newer.attributes.append(Attribute(name: "isbn", type: .string, isOptional: true))
        let v1 = try ModelVersion(name: "V1", entities: withAuthor ? [author, book] : [book])
        let v2 = try ModelVersion(name: "V2", entities: withAuthor ? [author, newer] : [newer])
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("v1.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(), size: 40).generate(at: path)
            let copy = folder.appendingPathComponent("v2.sqlite").path
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            _ = try InPlaceMigration(plan: try MappingInference.plan(from: v1, to: v2)).run(storeAt: copy)
            let connection = try Connection(path: copy, mode: .readOnly)
            let foreignKey = withAuthor ? ["ZAUTHOR"] : []
            #expect(
                try Self.columns("ZBOOK", connection)
                    == ["Z_PK", "Z_ENT", "Z_OPT", "ZPAGES"] + foreignKey + ["ZTITLE", "ZISBN"])
            #expect(try Self.sql("ZBOOK", connection)?.hasPrefix("CREATE TABLE ZBOOK (") == true, "not rebuilt")
            try Self.expectVerified(v1, v2, path, copy)
        }
    }

    /// A wrong entity number beside a to-one into a hierarchy is found by the verifier.
    @Test func wrongEntityNumberIsCaught() throws {
        let (v1, v2) = try Self.rules[1].versions()
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(), size: 60).generate(at: source)
            let inPlace = try Self.migrateBothWays(Self.rules[1], v1, v2, source, in: folder)
            try Connection(path: inPlace, mode: .readWrite).execute("UPDATE ZCOMMENT SET Z2_POST = 2 WHERE Z2_POST = 3")
            let result = try IntegrityVerifier(source: v1, destination: v2, mappingModels: [])
                .verify(sourceStoreAt: source, destinationStoreAt: inPlace)
            #expect((result.group(.danglingForeignKey, "Comment", "post")?.count ?? 0) > 0)
        }
    }

    /// Core Data may name a reflexive many-to-many's table from either side (X1): a store named from the
    /// side our writer does not pick reads, migrates and verifies the same.
    @Test(arguments: [false, true])
    func reflexiveJoinTableNamedFromEitherSide(otherSide: Bool) throws {
        let rule = Rule(
            name: "reflexive", entities: Self.clients,
            check: { (connection: Connection) throws -> Void in
                let names = Set(try connection.tableNames())
                #expect(names.contains("Z_1TRUSTED") != names.contains("Z_1TRUSTEDBY"), "one table, either name")
            })
        let (v1, v2) = try rule.versions()
        try SampleModels.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(), size: 60).generate(at: source)
            let written = try Connection(path: source, mode: .readWrite)
            #expect(try Self.columns("Z_1TRUSTED", written) == ["Z_1TRUSTEDBY", "Z_1TRUSTED"])
            let edges = try Store.open(at: source, version: v1).edgeCounts()
            if otherSide {
                // The table as Core Data writes it when `trustedBy` names it.
                try written.execute(
                    """
                    CREATE TABLE Z_1TRUSTEDBY ( Z_1TRUSTED INTEGER, Z_1TRUSTEDBY INTEGER, PRIMARY KEY (Z_1TRUSTED, Z_1TRUSTEDBY) );
                    INSERT INTO Z_1TRUSTEDBY SELECT Z_1TRUSTED, Z_1TRUSTEDBY FROM Z_1TRUSTED;
                    DROP TABLE Z_1TRUSTED;
                    CREATE INDEX Z_1TRUSTEDBY_Z_1TRUSTEDBY_INDEX ON Z_1TRUSTEDBY (Z_1TRUSTEDBY, Z_1TRUSTED)
                    """)
                try written.checkpoint(.truncate)  // the copies below take the main file only
            }
            let store = try Store.open(at: source, version: v1, readOnly: true)
            #expect(store.layout.joinTables.map(\.name) == [otherSide ? "Z_1TRUSTEDBY" : "Z_1TRUSTED"])
            #expect(Array(try store.edgeCounts().values) == Array(edges.values) && edges.values.reduce(0, +) > 0)
            try Self.expectVerified(v1, v1, source, source)
            let inPlace = try Self.migrateBothWays(rule, v1, v2, source, in: folder)
            // The in-place step keeps the side the store has.
            #expect(
                try Connection(path: inPlace, mode: .readOnly).tableNames().contains(
                    otherSide ? "Z_1TRUSTEDBY" : "Z_1TRUSTED"))
            // A whole migration's pre-flight check reads the layout the store has, so it does not refuse it.
            let whole = folder.appendingPathComponent("whole.sqlite").path
            try FileManager.default.copyItem(atPath: source, toPath: whole)
            try StoreMigrator(history: try ModelHistory(versions: [v1, v2])).migrateStore(at: whole)
            try Self.expectVerified(v1, v2, source, whole)
        }
    }

    static let clients = [
        Entity(
            name: "Client", attributes: [Attribute(name: "label", type: .string)],
            relationships: [
                Relationship(name: "trusted", destination: "Client", inverse: "trustedBy", isToMany: true),
                Relationship(name: "trustedBy", destination: "Client", inverse: "trusted", isToMany: true),
            ])
    ]

    /// A Core Data store with a derived `@count` attribute has triggers that call Core Data's own functions:
    /// every store connection provides them (D1), so inserts into such a store work.
    @Test func derivedCountTriggersFindTheirFunctions() throws {
        let version = try ModelVersion(name: "V1", entities: Self.clients)
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("v1.sqlite").path
            _ = try StoreGenerator(version: version, dataset: Dataset(), size: 10).generate(at: path)
            // The shape of Core Data's SOURCE_INSERT trigger (format note D1).
            try Connection(path: path, mode: .readWrite).execute(
                "CREATE TRIGGER IF NOT EXISTS Z_DA_ZCLIENT_Client_label_SOURCE_INSERT AFTER INSERT ON ZCLIENT "
                    + "FOR EACH ROW BEGIN SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZCLIENT', "
                    + "Z_ENT, Z_PK, 'label', ZLABEL) FROM ZCLIENT WHERE Z_PK = NEW.Z_PK; END")
            #expect(throws: SQLiteError.self) {
                try Connection(path: path, mode: .readWrite).execute("INSERT INTO ZCLIENT (Z_ENT) VALUES (1)")
            }
            let store = try Store.open(at: path, version: version)
            try store.connection.execute("INSERT INTO ZCLIENT (Z_ENT, Z_OPT) VALUES (1, 1)")
            #expect(store.connection.changes == 1)
        }
    }

    /// Migrates `source` by the engine and in place, checks the rule on both and verifies them; returns the
    /// in-place store.
    static func migrateBothWays(
        _ rule: Rule, _ v1: ModelVersion, _ v2: ModelVersion, _ source: String, in folder: URL
    ) throws -> String {
        let engine = folder.appendingPathComponent("engine.sqlite").path
        _ = try MigrationManager(source: v1, destination: v2).migrate(
            storeAt: source, to: engine, mappingModels: [try MappingInference.infer(from: v1, to: v2)])
        let inPlace = folder.appendingPathComponent("in-place.sqlite").path
        try FileManager.default.copyItem(atPath: source, toPath: inPlace)
        _ = try InPlaceMigration(plan: try MappingInference.plan(from: v1, to: v2)).run(storeAt: inPlace)
        for destination in [engine, inPlace] {
            try rule.check(try Connection(path: destination, mode: .readOnly))
            try expectVerified(v1, v2, source, destination)
        }
        return inPlace
    }

    static func expectVerified(_ v1: ModelVersion, _ v2: ModelVersion, _ source: String, _ destination: String) throws {
        let result = try IntegrityVerifier(source: v1, destination: v2, mappingModels: [])
            .verify(sourceStoreAt: source, destinationStoreAt: destination)
        #expect(result.passed, "\(result.violations)")
    }
}
