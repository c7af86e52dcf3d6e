import Foundation
import SQLiteDatabase
import Testing

/// End-to-end tests of the built `migration-bench`: arguments in, exit code, JSON and error lines out.
@Suite("migration-bench")
struct CommandLineTests {
    static let bundle = Executable.fixtures.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path
    static let libraryModel = "Scenarios/models/library.yaml"
    static let libraryDataset = "Scenarios/datasets/library.yaml"

    /// The fixture stores and their versions, as `Fixtures.stores` lists them (that module is not linked here).
    static let stores = [
        ("CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example"),
        ("CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example 2"),
        ("CoreDataMigration_Example_3.sqlite", "CoreDataMigration_Example 3"),
        ("CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration_Example 4"),
    ]

    @Test func modelsListsVersionsAndHashes() throws {
        try Executable.withTemporaryFolder { folder in
            let run = try Executable.run(["models", Self.bundle, "--json"], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let json = try run.json()
            #expect(json["currentVersion"] as? String == "CoreDataMigration_Example 4")
            let versions = try #require(json["versions"] as? [[String: Any]])
            #expect(versions.map { $0["name"] as? String } == Self.stores.map(\.1))
            let first = try #require(versions.first?["entities"] as? [[String: Any]])
            let post = try #require(first.first { $0["name"] as? String == "Post" })
            #expect(
                post["versionHash"] as? String == "b9f1d1b43446f1ad118ca4a03e226e05f98c899c98b524c13f02f6514ded5e80")
            #expect(post.keys.contains("parent") && post["parent"] is NSNull)
            #expect(post["abstract"] as? Bool == false)
        }
    }

    @Test func generateThenInspect() throws {
        try Executable.withTemporaryFolder { folder in
            let store = folder.appendingPathComponent("library.sqlite").path
            let generate = try Executable.run(
                [
                    "generate", "--model", Self.libraryModel, "--version", "V1", "--dataset", Self.libraryDataset,
                    "--size", "2000", "--output", store, "--json",
                ], in: folder)
            #expect(generate.status == 0, "\(generate.error)")
            let report = try generate.json()
            #expect(Set(["version", "seed", "objects", "relationships", "seconds"]).isSubset(of: report.keys))
            #expect(report["version"] as? String == "V1")
            #expect(report["seed"] as? Int == 42)
            let objects = try #require(report["objects"] as? [String: Int])
            #expect(objects == ["Author": 200, "Book": 1800])
            #expect(report["relationships"] as? [String: Int] == ["Book.author": 1800])
            #expect(report["seconds"] is Double)

            let inspect = try Executable.run(["inspect", store, "--model", Self.libraryModel, "--json"], in: folder)
            #expect(inspect.status == 0, "\(inspect.error)")
            let inspection = try inspect.json()
            #expect(inspection["matchingVersion"] as? String == "V1")
            #expect(inspection["entities"] as? [String: Int] == objects)
            let hashes = try #require(inspection["entityVersionHashes"] as? [String: String])
            #expect(Set(hashes.keys) == ["Author", "Book"])
            #expect(hashes.values.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        }
    }

    /// Two processes hash dictionaries differently: the same seed must still give the same content.
    @Test func generationIsDeterministicAcrossProcesses() throws {
        try Executable.withTemporaryFolder { folder in
            var dumps: [[String: [[SQLiteValue]]]] = []
            var plists: [[UInt8]] = []
            for name in ["a.sqlite", "b.sqlite"] {
                let store = folder.appendingPathComponent(name).path
                let run = try Executable.run(
                    ["generate", "--model", Self.libraryModel, "--size", "300", "--seed", "9", "--output", store],
                    in: folder)
                #expect(run.status == 0, "\(run.error)")
                let connection = try Connection(path: store, mode: .readOnly)
                var tables: [String: [[SQLiteValue]]] = [:]
                for table in try connection.tableNames() where table != "Z_METADATA" {
                    tables[table] = try connection.rows("SELECT * FROM \"\(table)\" ORDER BY rowid")
                }
                tables["Z_METADATA"] = try connection.rows("SELECT Z_VERSION, Z_UUID FROM Z_METADATA")
                dumps.append(tables)
                plists.append(try #require(try connection.scalar("SELECT Z_PLIST FROM Z_METADATA")?.bytes))
            }
            #expect(dumps[0].keys.sorted() == dumps[1].keys.sorted())
            for table in dumps[0].keys.sorted() {
                #expect(dumps[0][table] == dumps[1][table], "table \(table) differs between two runs")
            }
            let decoded = try plists.map {
                try #require(try PropertyListSerialization.propertyList(from: Data($0), format: nil) as? NSDictionary)
            }
            #expect(decoded[0] == decoded[1])
            #expect(plists[0] == plists[1], "Z_METADATA.Z_PLIST differs between two runs")
        }
    }

    @Test(arguments: stores)
    func inspectPlacesFixtureStores(file: String, version: String) throws {
        try Executable.withTemporaryFolder { folder in
            let source = Executable.fixtures.appendingPathComponent("stores").appendingPathComponent(file)
            let copy = folder.appendingPathComponent(file)
            try FileManager.default.copyItem(at: source, to: copy)
            if FileManager.default.fileExists(atPath: source.path + "-wal") {
                try FileManager.default.copyItem(atPath: source.path + "-wal", toPath: copy.path + "-wal")
            }
            let run = try Executable.run(["inspect", copy.path, "--model", Self.bundle, "--json"], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let json = try run.json()
            #expect(json["matchingVersion"] as? String == version)
            #expect((json["entities"] as? [String: Int])?["Post"].map { $0 > 0 } == true)
        }
    }

    @Test func inspectWithoutAMatchSaysNull() throws {
        try Executable.withTemporaryFolder { folder in
            let store = folder.appendingPathComponent("library.sqlite").path
            let generate = try Executable.run(
                ["generate", "--model", Self.libraryModel, "--size", "10", "--output", store], in: folder)
            #expect(generate.status == 0, "\(generate.error)")
            let run = try Executable.run(["inspect", store, "--model", Self.bundle, "--json"], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let json = try run.json()
            #expect(json.keys.contains("matchingVersion") && json["matchingVersion"] is NSNull)
        }
    }

    /// A bad input, given the temporary folder, and the text the error line must name.
    struct BadInput: Sendable, CustomTestStringConvertible {
        let label: String
        let arguments: @Sendable (URL) throws -> [String]
        let named: @Sendable (URL) -> String

        var testDescription: String { label }
    }

    static let badInputs: [BadInput] = [
        BadInput(
            label: "models: missing model",
            arguments: { ["models", $0.appendingPathComponent("none.xcdatamodeld").path] },
            named: { $0.appendingPathComponent("none.xcdatamodeld").path }),
        BadInput(
            label: "generate: missing model",
            arguments: {
                ["generate", "--model", $0.appendingPathComponent("none.yaml").path, "--size", "1", "--output", "x"]
            },
            named: { $0.appendingPathComponent("none.yaml").path }),
        BadInput(
            label: "generate: unknown version",
            arguments: {
                [
                    "generate", "--model", libraryModel, "--version", "V9", "--size", "1", "--output",
                    $0.appendingPathComponent("s.sqlite").path,
                ]
            },
            named: { _ in libraryModel }),
        BadInput(
            label: "generate: existing output",
            arguments: { folder in
                let path = folder.appendingPathComponent("taken.sqlite").path
                try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
                return ["generate", "--model", libraryModel, "--size", "1", "--output", path]
            },
            named: { $0.appendingPathComponent("taken.sqlite").path }),
        BadInput(
            label: "generate: missing dataset",
            arguments: {
                [
                    "generate", "--model", libraryModel, "--dataset", $0.appendingPathComponent("none.yaml").path,
                    "--size", "1", "--output", $0.appendingPathComponent("s.sqlite").path,
                ]
            },
            named: { $0.appendingPathComponent("none.yaml").path }),
        BadInput(
            label: "inspect: not a store",
            arguments: { folder in
                let path = folder.appendingPathComponent("notes.txt").path
                try Data("hello, this is not SQLite".utf8).write(to: URL(fileURLWithPath: path))
                return ["inspect", path]
            },
            named: { $0.appendingPathComponent("notes.txt").path }),
        BadInput(
            label: "inspect: missing store",
            arguments: { ["inspect", $0.appendingPathComponent("none.sqlite").path, "--json"] },
            named: { $0.appendingPathComponent("none.sqlite").path }),
    ]

    @Test(arguments: badInputs + hostileInputs)
    func badInputIsOneErrorLine(_ input: BadInput) throws {
        try Executable.withTemporaryFolder { folder in
            let arguments = try input.arguments(folder)
            let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            let run = try Executable.run(arguments, in: folder)
            #expect(run.status == 1)
            #expect(run.output.isEmpty)
            #expect(run.errorLines.count == 1, "\(run.error)")
            let line = try #require(run.errorLines.first)
            #expect(line.hasPrefix("error:") && line.count <= 300, "\(line)")
            #expect(line.contains(input.named(folder)), "\(line)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
        }
    }

    @Test func anExistingOutputIsKeptWithoutOverwrite() throws {
        try Executable.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("taken.sqlite").path
            try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
            let refused = try Executable.run(
                ["generate", "--model", Self.libraryModel, "--size", "1", "--output", path], in: folder)
            #expect(refused.status == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("mine".utf8))
            let replaced = try Executable.run(
                ["generate", "--model", Self.libraryModel, "--size", "1", "--output", path, "--overwrite", "--json"],
                in: folder)
            #expect(replaced.status == 0, "\(replaced.error)")
            #expect(try replaced.json()["objects"] as? [String: Int] == ["Author": 1, "Book": 1])
        }
    }

    @Test(arguments: [
        [String](), ["models"], ["generate"], ["inspect"], ["benchmark"], ["benchmark", "generator"],
        ["benchmark", "floor-insert"],
    ])
    func helpExitsZero(subcommand: [String]) throws {
        try Executable.withTemporaryFolder { folder in
            let run = try Executable.run(subcommand + ["--help"], in: folder)
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("USAGE:"))
        }
    }
}
