import Foundation
import SQLiteDatabase
import Testing

/// Hostile input, each of which used to crash, hang, exit 64, exit 2 or be silently ignored: now exit 1 and
/// one error line of at most 300 characters naming the file or option (``CommandLineTests/badInputIsOneErrorLine``
/// runs these with the other bad inputs).
extension CommandLineTests {
    static let hostileInputs: [BadInput] =
        [
            BadInput(
                label: "generate: a negative size (was 'Missing value', exit 64)",
                arguments: { ["generate", "--model", libraryModel, "--size", "-5", "--output", store(in: $0)] },
                named: { _ in "--size" }),
            BadInput(
                label: "generate: a size of 10^15 (ran until killed)",
                arguments: {
                    ["generate", "--model", libraryModel, "--size", "1000000000000000", "--output", store(in: $0)]
                },
                named: { _ in "--size" }),
            BadInput(
                label: "models: an unknown option (exit 64)",
                arguments: { _ in ["models", libraryModel, "--colour"] }, named: { _ in "--colour" }),
            BadInput(
                label: "run: --sizes 10^12 (ran until killed)",
                arguments: {
                    ["run", "library-chain", "--sizes", "1000000000000", "--out", $0.appendingPathComponent("r").path]
                },
                named: { _ in "--sizes" }),
            BadInput(
                label: "profile: --repetitions 10^12",
                arguments: { ["profile", store(in: $0), "--model", libraryModel, "--repetitions", "1000000000000"] },
                named: { _ in "--repetitions" }),
            BadInput(
                label: "benchmark generator: --repetitions 10^12",
                arguments: { _ in ["benchmark", "generator", "--repetitions", "1000000000000"] },
                named: { _ in "--repetitions" }),
            BadInput(
                label: "validate: scenario sizes of 10^15 (ran until killed)",
                arguments: { ["validate", try scenario(in: $0, sizes: "[1000000000000000]", dataset: "seed: 1\n")] },
                named: { $0.appendingPathComponent("hostile.yaml").path + ":" }),
            BadInput(
                label: "run: a dataset naming an entity the model lacks (was a crashed cell, exit 2)",
                arguments: {
                    let file = try scenario(in: $0, sizes: "[10]", dataset: "seed: 1\nobjects: { Writer: 2 }\n")
                    return ["run", file, "--quick", "--out", $0.appendingPathComponent("reports").path]
                },
                named: { $0.appendingPathComponent("hostile-dataset.yaml").path + ":2:" }),
            BadInput(
                label: "run: a dataset with a misspelt key (was ignored)",
                arguments: {
                    let file = try scenario(in: $0, sizes: "[10]", dataset: "seed: 1\nobjets: { Author: 2 }\n")
                    return ["run", file, "--quick", "--out", $0.appendingPathComponent("reports").path]
                },
                named: { $0.appendingPathComponent("hostile-dataset.yaml").path + ":2:" }),
            BadInput(
                label: "validate: a dataset asking for more children than the maximum count (was generated)",
                arguments: { folder in
                    let model = folder.appendingPathComponent("capped.yaml")
                    try Data(
                        """
                        versions:
                          - name: V1
                            entities:
                              - name: Author
                                attributes: [{ name: name, type: String }]
                                relationships: [{ name: books, destination: Book, inverse: author, toMany: true, maxCount: 3 }]
                              - name: Book
                                attributes: [{ name: title, type: String }]
                                relationships: [{ name: author, destination: Author, inverse: books }]
                          - name: V2
                            entities:
                              - name: Author
                                attributes: [{ name: name, type: String }, { name: born, type: Date, optional: true }]
                                relationships: [{ name: books, destination: Book, inverse: author, toMany: true, maxCount: 3 }]
                              - name: Book
                                attributes: [{ name: title, type: String }]
                                relationships: [{ name: author, destination: Author, inverse: books }]

                        """.utf8
                    ).write(to: model)
                    let file = try scenario(
                        in: folder, sizes: "[10]", dataset: "relationships:\n  Author.books: { count: [2, 40] }\n",
                        model: model.path)
                    return ["validate", file]
                },
                named: { $0.appendingPathComponent("hostile-dataset.yaml").path + ":2:" }),
            BadInput(
                label: "models: a processing instruction without data (segfault)",
                arguments: { folder in
                    let contents = folder.appendingPathComponent("M.xcdatamodeld/V1.xcdatamodel/contents")
                    try FileManager.default.createDirectory(
                        at: contents.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(
                        """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <?junk?>
                        <model><entity name="A"><attribute name="a" attributeType="String"/></entity></model>
                        """.utf8
                    ).write(to: contents)
                    return ["models", folder.appendingPathComponent("M.xcdatamodeld").path]
                },
                named: { $0.appendingPathComponent("M.xcdatamodeld/V1.xcdatamodel/contents").path + ":2:" }),
            BadInput(
                label: "mappings: a processing instruction without data in xcmapping.xml (segfault)",
                arguments: { folder in
                    let bundle = folder.appendingPathComponent("M.xcmappingmodel")
                    try FileManager.default.copyItem(
                        at: Executable.fixtures.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel"),
                        to: bundle)
                    let file = bundle.appendingPathComponent("xcmapping.xml")
                    var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                    lines.insert("<?junk?>", at: 1)
                    try Data(lines.joined(separator: "\n").utf8).write(to: file)
                    return ["mappings", bundle.path]
                },
                named: { $0.appendingPathComponent("M.xcmappingmodel/xcmapping.xml").path + ":2:" }),
            BadInput(
                label: "models: a 1 MB version name is cut, not echoed",
                arguments: { folder in
                    let path = folder.appendingPathComponent("long.yaml")
                    let name = String(repeating: "x", count: 1_000_000)
                    try Data("currentVersion: \(name)\nversions:\n  - { name: V1, entities: [] }\n".utf8).write(
                        to: path)
                    return ["models", path.path]
                },
                named: { $0.appendingPathComponent("long.yaml").path }),
            BadInput(
                label: "compare: a file that is no report",
                arguments: { folder in
                    let path = folder.appendingPathComponent("report.json")
                    try Data(#"{"schemaVersion": 1}"#.utf8).write(to: path)
                    return ["compare", path.path, path.path]
                },
                named: { $0.appendingPathComponent("report.json").path }),
        ] + hostileScenarios + hostileModels

    /// Scenario files, datasets and options that passed `validate` (and made `run` exit 2, or run nothing).
    static let hostileScenarios: [BadInput] = [
        BadInput(
            label: "validate: an infinite budget (was accepted)",
            arguments: {
                ["validate", try scenario(in: $0, sizes: "[10]", dataset: "seed: 1\n", extra: budget("inf"))]
            },
            named: { $0.appendingPathComponent("hostile.yaml").path + ":7:" }),
        BadInput(
            label: "validate: a negative budget (was accepted)",
            arguments: {
                ["validate", try scenario(in: $0, sizes: "[10]", dataset: "seed: 1\n", extra: budget("-5 MiB"))]
            },
            named: { $0.appendingPathComponent("hostile.yaml").path + ":7:" }),
        BadInput(
            label: "validate: a scenario naming both a dataset and a store (was accepted)",
            arguments: {
                let store = $0.appendingPathComponent("mine.sqlite").path
                try Data("SQLite format 3\u{0}".utf8).write(to: URL(fileURLWithPath: store))
                return [
                    "validate", try scenario(in: $0, sizes: "[10]", dataset: "seed: 1\n", extra: "store: \(store)\n"),
                ]
            },
            named: { $0.appendingPathComponent("hostile.yaml").path + ":6: 'store' and 'dataset'" }),
        BadInput(
            label: "validate: a store that does not exist (was accepted; run exited 2)",
            arguments: { ["validate", try storeScenario(in: $0, store: "missing.sqlite")] },
            named: { $0.appendingPathComponent("hostile.yaml").path + ":4: 'store' names" }),
        BadInput(
            label: "validate: a store that is not a store (was accepted; run exited 2)",
            arguments: {
                try Data("not a database".utf8).write(to: $0.appendingPathComponent("text.sqlite"))
                return ["validate", try storeScenario(in: $0, store: "text.sqlite")]
            },
            named: { $0.appendingPathComponent("hostile.yaml").path + ":4: 'store' names" }),
        BadInput(
            label: "validate: an SQLite file that is no Core Data store (was accepted; run exited 2)",
            arguments: {
                try Connection(path: $0.appendingPathComponent("plain.sqlite").path).execute("CREATE TABLE t (x)")
                return ["validate", try storeScenario(in: $0, store: "plain.sqlite")]
            },
            named: { $0.appendingPathComponent("hostile.yaml").path + ": 'store' names" }),
        BadInput(
            label: "run: --sizes , (ran nothing, exit 0)",
            arguments: { ["run", "library-chain", "--sizes", ",", "--out", $0.appendingPathComponent("r").path] },
            named: { _ in "--sizes" }),
        BadInput(
            label: "validate: more children than the inverse's maximum count of a many-to-many (was generated)",
            arguments: { folder in
                let model = folder.appendingPathComponent("tags.yaml")
                try Data(
                    """
                    versions:
                      - name: V1
                        entities:
                          - name: Book
                            attributes: [{ name: title, type: String }]
                            relationships: [{ name: tags, destination: Tag, inverse: books, toMany: true }]
                          - name: Tag
                            attributes: [{ name: label, type: String }]
                            relationships: [{ name: books, destination: Book, inverse: tags, toMany: true, maxCount: 2 }]
                      - name: V2
                        entities:
                          - name: Book
                            attributes: [{ name: title, type: String }]
                            relationships: [{ name: tags, destination: Tag, inverse: books, toMany: true }]
                          - name: Tag
                            attributes: [{ name: label, type: String }]
                            relationships: [{ name: books, destination: Book, inverse: tags, toMany: true, maxCount: 2 }]

                    """.utf8
                ).write(to: model)
                let dataset = "objects: { Book: 1, Tag: 0.2 }\nrelationships:\n  Book.tags: { count: [3, 3] }\n"
                return ["validate", try scenario(in: folder, sizes: "[10]", dataset: dataset, model: model.path)]
            },
            named: { $0.appendingPathComponent("hostile-dataset.yaml").path + ":3:" }),
        BadInput(
            label: "validate: a distinct count of zero (was generated)",
            arguments: {
                let dataset = "attributes:\n  Author.name: { distinct: 0 }\n"
                return ["validate", try scenario(in: $0, sizes: "[10]", dataset: dataset)]
            },
            named: { $0.appendingPathComponent("hostile-dataset.yaml").path + ":2:" }),
        BadInput(
            label: "validate: a string length on an integer attribute (was generated)",
            arguments: {
                let dataset = "attributes:\n  Book.pages: { length: [3, 9] }\n"
                return ["validate", try scenario(in: $0, sizes: "[10]", dataset: dataset)]
            },
            named: { $0.appendingPathComponent("hostile-dataset.yaml").path + ":2:" }),
        BadInput(
            label: "models: an --order that leaves out a version (was accepted)",
            arguments: { _ in ["models", libraryModel, "--order", "V2"] },
            named: { _ in "leaves out 'V1'" }),
        BadInput(
            label: "generate: an --order that leaves out a version (was accepted)",
            arguments: {
                [
                    "generate", "--model", libraryModel, "--order", "V1", "--size", "5", "--output",
                    $0.appendingPathComponent("s.sqlite").path,
                ]
            },
            named: { _ in "leaves out 'V2'" }),
    ]

    /// Xcode model bundles that were accepted.
    static let hostileModels: [BadInput] = [
        BadInput(
            label: "models: elements nested 500 deep (was accepted)",
            arguments: { folder in
                let contents = folder.appendingPathComponent("M.xcdatamodeld/V1.xcdatamodel/contents")
                try FileManager.default.createDirectory(
                    at: contents.deletingLastPathComponent(), withIntermediateDirectories: true)
                let deep = String(repeating: "<x>", count: 500) + String(repeating: "</x>", count: 500)
                try Data(
                    "<?xml version=\"1.0\"?>\n<model><entity name=\"A\">\(deep)</entity></model>\n".utf8
                ).write(to: contents)
                return ["models", folder.appendingPathComponent("M.xcdatamodeld").path]
            },
            named: { $0.appendingPathComponent("M.xcdatamodeld/V1.xcdatamodel/contents").path + ":2:" }),
        BadInput(
            label: "models: a version folder that is a symbolic link loop (was skipped, the bundle accepted)",
            arguments: { folder in
                let bundle = folder.appendingPathComponent("M.xcdatamodeld")
                try FileManager.default.copyItem(
                    at: Executable.fixtures.appendingPathComponent(
                        "CoreDataMigration_Example.xcdatamodeld"), to: bundle)
                try FileManager.default.createSymbolicLink(
                    atPath: bundle.appendingPathComponent("Loop.xcdatamodel").path,
                    withDestinationPath: "Loop.xcdatamodel")
                return ["models", bundle.path]
            },
            named: { $0.appendingPathComponent("M.xcdatamodeld/Loop.xcdatamodel").path }),
    ]

    private static func budget(_ max: String) -> String {
        "budgets:\n  - { metric: heapPeakBytes, max: \(max) }\n"
    }

    /// Writes `hostile.yaml`, a scenario over the library model that migrates the store `store` (relative).
    private static func storeScenario(in folder: URL, store: String) throws -> String {
        let file = folder.appendingPathComponent("hostile.yaml")
        let model = Executable.packageRoot.appendingPathComponent("Scenarios/models/library.yaml").path
        try Data(
            "name: hostile\nmodel: \(model)\nchain: [V1, V2]\nstore: \(store)\nsizes: { quick: [10], full: [10] }\n"
                .utf8
        ).write(to: file)
        return file.path
    }

    private static func store(in folder: URL) -> String { folder.appendingPathComponent("s.sqlite").path }

    /// Writes `hostile.yaml`, a scenario over the library model, and its dataset `hostile-dataset.yaml`.
    private static func scenario(
        in folder: URL, sizes: String, dataset: String, model: String = "Scenarios/models/library.yaml",
        extra: String = ""
    ) throws -> String {
        let modelPath = model.hasPrefix("/") ? model : Executable.packageRoot.appendingPathComponent(model).path
        try Data(dataset.utf8).write(to: folder.appendingPathComponent("hostile-dataset.yaml"))
        let file = folder.appendingPathComponent("hostile.yaml")
        try Data(
            """
            name: hostile
            model: \(modelPath)
            chain: [V1, V2]
            dataset: hostile-dataset.yaml
            sizes: { quick: \(sizes), full: \(sizes) }
            \(extra)
            """.utf8
        ).write(to: file)
        return file.path
    }
}

/// Hostile stores and files given to the commands that migrate, verify and profile.
@Suite("hostile input")
struct HostileInputTests {
    static let model = CommandLineTests.libraryModel
    static let mapping = "Scenarios/mappings/library-v1-v2.yaml"

    /// A generated V1 library store in `folder`, changed by `sql` (through a connection of our own).
    private func store(in folder: URL, changedBy sql: String? = nil) throws -> String {
        let store = folder.appendingPathComponent("library.sqlite").path
        let generate = try Executable.run(
            ["generate", "--model", Self.model, "--version", "V1", "--size", "50", "--output", store], in: folder)
        try #require(generate.status == 0, "\(generate.error)")
        if let sql { try Connection(path: store).execute(sql) }
        return store
    }

    private func versionOf(_ store: String, in folder: URL) throws -> String? {
        let run = try Executable.run(["inspect", store, "--model", Self.model, "--json"], in: folder)
        return try run.json()["matchingVersion"] as? String
    }

    /// A negative or huge `Z_PK` trapped in the association table and left `.migrating-1` behind.
    @Test(arguments: ["-5", "1099511627776"])
    func aPrimaryKeyOutOfRangeIsAnError(key: String) throws {
        try Executable.withTemporaryFolder { folder in
            let store = try store(in: folder, changedBy: "UPDATE ZBOOK SET Z_PK = \(key) WHERE Z_PK = 3")
            let run = try Executable.run(
                ["migrate", store, "--model", Self.model, "--mapping", Self.mapping], in: folder)
            #expect(run.status == 1, "\(run.error)")
            #expect(run.errorLines.last?.contains("Z_PK") == true, "\(run.error)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!names.contains { $0.contains(".migrating-") }, "\(names)")
            #expect(try versionOf(store, in: folder) == "V1")
        }
    }

    /// A key of 2⁶² in a consistent store (`Z_MAX` covering it): `migrate` hung, its ranges of keys stepping from
    /// 1 to 2⁶² by 4,096; it is now refused before work, past the documented bound on keys.
    static let hugeKey =
        "UPDATE ZBOOK SET Z_PK = 4611686018427387904 WHERE Z_PK = 3; "
        + "UPDATE Z_PRIMARYKEY SET Z_MAX = 4611686018427387904 WHERE Z_NAME = 'Book'"

    @Test func aKeyOf2To62IsRefusedBeforeWork() throws {
        try Executable.withTemporaryFolder { folder in
            let user = folder.appendingPathComponent("user")
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let store = try store(in: user, changedBy: Self.hugeKey)
            let run = try Executable.runTogether(
                [["migrate", store, "--model", Self.model, "--mapping", Self.mapping]], in: folder,
                timeout: .seconds(120))[0]
            #expect(run.status == 1, "\(run.error)")
            #expect(
                run.errorLines.last
                    == "error: \(store): the store has a row in ZBOOK whose Z_PK 4611686018427387904 is above "
                    + "2147483647, the largest key a migration takes; it was not migrated", "\(run.error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: user.path) == ["library.sqlite"])
        }
    }

    /// The engine itself, given such a store without the check (`benchmark migration-cell`), stepped through the
    /// same 10¹⁵ ranges; it now goes from key to key and stops at the association's bound.
    @Test func theEngineDoesNotStepThroughEmptyKeys() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try store(in: folder, changedBy: Self.hugeKey)
            let run = try Executable.runTogether(
                [
                    [
                        "benchmark", "migration-cell", "--source", store, "--model", Self.model, "--from", "V1", "--to",
                        "V2", "--mapping", Self.mapping, "--mode", "streaming", "--output",
                        folder.appendingPathComponent("cell.sqlite").path,
                    ]
                ], in: folder, timeout: .seconds(120))[0]
            #expect(run.status == 1, "\(run.error)")
            #expect(run.errorLines.last?.contains("4611686018427387904") == true, "\(run.error)")
        }
    }

    /// `verify` of stores holding a key of 2⁶² aborted (10¹³ ranges of keys made one by one): it now compares
    /// such a table in one range, and finishes.
    @Test func verifyFinishesWithAKeyOf2To62() throws {
        try Executable.withTemporaryFolder { folder in
            let source = try store(in: folder)
            let destination = folder.appendingPathComponent("migrated.sqlite").path
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            let migrate = try Executable.run(
                ["migrate", destination, "--model", Self.model, "--mapping", Self.mapping], in: folder)
            try #require(migrate.status == 0, "\(migrate.error)")
            for path in [source, destination] { try Connection(path: path).execute(Self.hugeKey) }
            let run = try Executable.runTogether(
                [
                    [
                        "verify", "--source", source, "--destination", destination, "--model", Self.model, "--mapping",
                        Self.mapping,
                    ]
                ], in: folder, timeout: .seconds(120))[0]
            #expect(run.status == 0, "\(run.output)\(run.error)")
        }
    }

    /// A `-wal` from another database (here a copy of the store, changed) whose frames hold only data pages, with
    /// no `-shm`: SQLite applies it, and the migration reported success with another database's rows. Refused,
    /// and the store's files are left as they were.
    @Test func aForeignLogOfDataPagesOnlyIsRefused() throws {
        try Executable.withTemporaryFolder { folder in
            let user = folder.appendingPathComponent("user")
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let store = try store(in: user)
            let other = folder.appendingPathComponent("other.sqlite").path
            try FileManager.default.copyItem(atPath: store, toPath: other)
            let connection = try Connection(path: other, mode: .readWrite)
            try connection.setPragma("wal_autocheckpoint", "0")
            // The same length, so that only the row's leaf page changes.
            try connection.execute("UPDATE ZAUTHOR SET ZNAME = upper(ZNAME) WHERE Z_PK = 2")
            try FileManager.default.copyItem(atPath: other + "-wal", toPath: store + "-wal")
            _ = consume connection
            let before = try [store, store + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
            let run = try Executable.run(
                ["migrate", store, "--model", Self.model, "--mapping", Self.mapping], in: folder)
            #expect(run.status == 1, "\(run.error)")
            #expect(run.errorLines.last?.contains("\(store)-wal holds only data pages") == true, "\(run.error)")
            #expect(try [store, store + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: user.path).sorted() == [
                    "library.sqlite", "library.sqlite-wal",
                ])
        }
    }

    /// A fetch index whose name needs quoting (a space, a quote) was accepted, and then `generate` failed with
    /// an SQL syntax error: its name is quoted now, and the store is made with it.
    @Test func anIndexNameThatNeedsQuotingIsQuoted() throws {
        try Executable.withTemporaryFolder { folder in
            let model = folder.appendingPathComponent("indexed.yaml")
            try Data(
                """
                versions:
                  - name: V1
                    entities:
                      - name: Note
                        attributes: [{ name: title, type: String }]
                        indexes: [{ name: "by \\"title\\"; DROP", properties: [title] }]

                """.utf8
            ).write(to: model)
            let store = folder.appendingPathComponent("notes.sqlite").path
            let run = try Executable.run(
                ["generate", "--model", model.path, "--size", "10", "--output", store], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let names = try Connection(path: store).rows("SELECT name FROM sqlite_master WHERE type = 'index'")
                .compactMap { $0.first?.string }
            #expect(names.contains("Z_Note_by \"title\"; DROP"), "\(names)")
        }
    }

    /// `run-cell` run on its own: a cell that fails (its store refused) left its working store in the folder.
    @Test func aFailedCellLeavesNoWorkingStore() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try store(in: folder, changedBy: Self.hugeKey)
            let scenario = folder.appendingPathComponent("cell.yaml")
            let model = Executable.packageRoot.appendingPathComponent(Self.model).path
            let mapping = Executable.packageRoot.appendingPathComponent(Self.mapping).path
            try Data(
                "name: cell\nmodel: \(model)\nchain: [V1, V2]\nmappings: [\(mapping)]\nstore: \(store)\n"
                    .appending("sizes: { quick: [10], full: [10] }\n").utf8
            ).write(to: scenario)
            let cell = folder.appendingPathComponent("cell")
            try FileManager.default.createDirectory(at: cell, withIntermediateDirectories: true)
            let run = try Executable.run(
                [
                    "run-cell", "--scenario", scenario.path, "--size", "10", "--folder", cell.path, "--output",
                    folder.appendingPathComponent("sample.json").path,
                ], in: folder)
            #expect(run.status == 1, "\(run.error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: cell.path) == [])
        }
    }

    /// With SQLite's double-quoted-string fallback, a source table missing a column migrated the column's
    /// name as every value, with exit 0.
    @Test func aMissingSourceColumnFailsInsteadOfMigratingItsName() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try store(in: folder, changedBy: "ALTER TABLE ZBOOK DROP COLUMN ZTITLE")
            let run = try Executable.run(
                ["migrate", store, "--model", Self.model, "--mapping", Self.mapping], in: folder)
            #expect(run.status == 1, "\(run.error)")
            #expect(run.errorLines.last?.contains("no such column") == true, "\(run.error)")
            #expect(try versionOf(store, in: folder) == "V1")
        }
    }

    /// A mapping model that fits no step (backwards, or from a version to itself) was ignored and the step
    /// inferred.
    @Test(arguments: [("V2", "V1"), ("V1", "V1")])
    func aMappingThatFitsNoStepIsRefused(from: String, to: String) throws {
        try Executable.withTemporaryFolder { folder in
            let store = try store(in: folder)
            let mapping = folder.appendingPathComponent("misfit.yaml")
            try Data(
                """
                sourceVersion: \(from)
                destinationVersion: \(to)
                entityMappings: [{ kind: copy, source: Author, destination: Author }]

                """.utf8
            ).write(to: mapping)
            let run = try Executable.run(
                ["migrate", store, "--model", Self.model, "--mapping", mapping.path], in: folder)
            #expect(run.status == 1)
            #expect(run.errorLines.count == 1 && run.error.contains(mapping.path), "\(run.error)")
            #expect(try versionOf(store, in: folder) == "V1")
        }
    }

    /// A destination without usable metadata is an integrity failure (exit 2), not an input error (exit 1).
    @Test(arguments: ["DELETE FROM Z_METADATA", "UPDATE Z_METADATA SET Z_PLIST = X'0102'", "DROP TABLE Z_METADATA"])
    func verifyFailsADestinationWithoutMetadata(damage: String) throws {
        try Executable.withTemporaryFolder { folder in
            let source = try store(in: folder)
            let destination = folder.appendingPathComponent("migrated.sqlite").path
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            let migrate = try Executable.run(["migrate", destination, "--model", Self.model], in: folder)
            try #require(migrate.status == 0, "\(migrate.error)")
            try Connection(path: destination).execute(damage)
            let run = try Executable.run(
                ["verify", "--source", source, "--destination", destination, "--model", Self.model], in: folder)
            #expect(run.status == 2, "\(run.output)\(run.error)")
            #expect(run.output.contains("metadata"), "\(run.output)")
        }
    }

    /// `inspect`, `plan` and `verify` only read the stores they are given; reading a store in WAL mode made SQLite
    /// leave an empty `-wal` and a `-shm` beside each.
    @Test func readingCommandsLeaveNoSidecars() throws {
        try Executable.withTemporaryFolder { folder in
            let user = folder.appendingPathComponent("user")
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let store = try self.store(in: user)
            try #require(try Connection(path: store).scalar("PRAGMA journal_mode")?.string == "wal")
            for arguments in [
                ["inspect", store, "--model", Self.model], ["plan", store, "--model", Self.model],
                ["verify", "--source", store, "--destination", store, "--model", Self.model],
                [
                    "benchmark", "migration-cell", "--source", store, "--model", Self.model, "--from", "V1", "--to",
                    "V2", "--mapping", Self.mapping, "--mode", "streaming", "--output",
                    folder.appendingPathComponent("cell.sqlite").path,
                ],
            ] {
                let run = try Executable.run(arguments, in: folder)
                #expect(run.status != 1, "\(arguments[0]): \(run.error)")
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: user.path) == ["library.sqlite"],
                    "\(arguments[0])")
            }
        }
    }

    /// `run` and `profile` left a `TemporaryDirectory.*` in `$TMPDIR`; `profile` left `-wal`/`-shm` beside the
    /// user's store, which it promises never to open where it is.
    @Test func runAndProfileLeaveNothingBehind() throws {
        try Executable.withTemporaryFolder { folder in
            let temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let environment = ["TMPDIR": temporary.path]
            let user = folder.appendingPathComponent("user")
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let store = try self.store(in: user)
            let reports = folder.appendingPathComponent("reports").path
            let profile = try Executable.run(
                ["profile", store, "--model", Self.model, "--repetitions", "1", "--out", reports], in: folder,
                environment: environment)
            #expect(profile.status == 0, "\(profile.error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: user.path) == ["library.sqlite"])
            let run = try Executable.run(
                ["run", "library-transform", "--sizes", "20", "--modes", "streaming,single", "--out", reports],
                in: folder, environment: environment)
            #expect(run.status == 0, "\(run.error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        }
    }
}
