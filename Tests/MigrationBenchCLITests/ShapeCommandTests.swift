import Foundation
import TestFixtures
import Testing

/// `migration-bench shape`: a dataset file from a store, which `generate` reads; a store the model does not fit
/// is refused.
@Suite("migration-bench shape")
struct ShapeCommandTests {
    static let bundle = Executable.fixtures.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path

    /// A copy of the fixture store `name` (with its -wal) in `folder`.
    static func copy(_ name: String, into folder: URL) throws -> String {
        let source = Executable.fixtures.appendingPathComponent("stores").appendingPathComponent(name)
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: source, to: copy)
        if FileManager.default.fileExists(atPath: source.path + "-wal") {
            try FileManager.default.copyItem(atPath: source.path + "-wal", toPath: copy.path + "-wal")
        }
        return copy.path
    }

    /// shape → generate at the store's size gives its objects per entity; the model is found beside the store
    /// when --model is not given.
    @Test func shapeThenGenerate() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try Self.copy("CoreDataMigration_Example_WAL.sqlite", into: folder)
            let dataset = folder.appendingPathComponent("shape.yaml").path
            let shape = try Executable.run(["shape", store, "--model", Self.bundle, "--output", dataset], in: folder)
            #expect(shape.status == 0, "\(shape.error)")
            let text = try String(contentsOfFile: dataset, encoding: .utf8)
            #expect(text.contains("--size 168"))
            let generated = folder.appendingPathComponent("generated.sqlite").path
            let generate = try Executable.run(
                [
                    "generate", "--model", Self.bundle, "--version", "CoreDataMigration_Example 4", "--size", "168",
                    "--dataset", dataset, "--output", generated, "--json",
                ], in: folder)
            #expect(generate.status == 0, "\(generate.error)")
            let objects = try #require(try generate.json()["objects"] as? [String: Int])
            #expect(objects == ["Post": 84, "Color": 84])
            // Without --model: no bundle beside a store in a bare folder.
            let bare = try Executable.run(["shape", store], in: folder)
            #expect(bare.status == 1 && bare.errorLines.count == 1, "\(bare.error)")
        }
    }

    /// A store that fits no version of the model: exit 1, one line naming the store.
    @Test func refusesAStoreTheModelDoesNotFit() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try Self.copy("CoreDataMigration_Example_1.sqlite", into: folder)
            let run = try Executable.run(["shape", store, "--model", "Scenarios/models/library.yaml"], in: folder)
            #expect(run.status == 1)
            #expect(run.errorLines.count == 1, "\(run.error)")
            #expect(run.error.contains(store) && run.error.contains("fits no version"))
            #expect(run.output.isEmpty)
        }
    }

    /// `profile <store> --scale 2` migrates a store shaped like the given one with twice its objects, and the
    /// HTML report says which store's shape it was.
    @Test func profileAtScaleUsesTheShape() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try Self.copy("CoreDataMigration_Example_3.sqlite", into: folder)
            let reports = folder.appendingPathComponent("reports").path
            let run = try Executable.run(
                ["profile", store, "--model", Self.bundle, "--scale", "2", "--repetitions", "1", "--out", reports],
                in: folder)
            #expect(run.status == 0, "\(run.error)")
            let data = try Data(contentsOf: URL(fileURLWithPath: reports + "/latest/report.json"))
            let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let cell = try #require((report["cells"] as? [[String: Any]])?.first)
            #expect(cell["size"] as? Int == 2 * 15_990)
            #expect(cell["objects"] as? Int == 2 * 15_990)
            let html = try String(contentsOfFile: reports + "/latest/index.html", encoding: .utf8)
            #expect(html.contains("Dataset: shaped like"))
        }
    }

    /// `check --dataset <shape>`: the shape serves every version; what a later version adds is generated with
    /// the defaults, and a `shapeDefaults` note says which attributes, in the text, in `--json` and in every
    /// report file; a hand-written dataset gets none.
    @Test func checkWithAShapeNotesTheDefaults() throws {
        try Executable.withTemporaryFolder { folder in
            let store = try Self.copy("CoreDataMigration_Example_1.sqlite", into: folder)
            let dataset = folder.appendingPathComponent("shape.yaml").path
            let shape = try Executable.run(["shape", store, "--model", Self.bundle, "--output", dataset], in: folder)
            #expect(shape.status == 0, "\(shape.error)")
            func check(_ dataset: String, _ more: [String]) throws -> Executable.Run {
                try Executable.run(
                    [
                        "check", Self.bundle, "--mapping", Executable.fixtures.appendingPathComponent("Mappings").path,
                        "--dataset", dataset, "--sizes", "1001", "--to", "CoreDataMigration_Example 2",
                    ] + more, in: folder)
            }
            let text = try check(dataset, ["--out", folder.appendingPathComponent("out").path])
            #expect(text.status == 0, "\(text.output)\(text.error)")
            let line = "note: shapeDefaults: CoreDataMigration_Example 2: the shape \(dataset) has no Post.hexColor"
            #expect(text.output.contains(line + ": generated with the defaults"), "\(text.output)")
            #expect(!text.output.contains("note: shapeDefaults: CoreDataMigration_Example:"))
            #expect(text.output.contains(", 1 note(s); "))
            let latest = folder.appendingPathComponent("out/latest")
            for file in ["report.json", "index.html", "summary.md"] {
                let content = try String(contentsOf: latest.appendingPathComponent(file), encoding: .utf8)
                #expect(content.contains("shapeDefaults") && content.contains("has no Post.hexColor"), "\(file)")
            }

            let json = try check(dataset, ["--json"])
            let findings = try #require(try json.json()["findings"] as? [[String: Any]])
            let notes = findings.filter { $0["code"] as? String == "shapeDefaults" }
            #expect(notes.count == 1 && notes[0]["severity"] as? String == "note", "\(findings)")
            #expect(notes.first?["from"] as? String == "CoreDataMigration_Example 2")
            #expect(
                notes.first?["message"] as? String
                    == "the shape \(dataset) has no Post.hexColor: generated with the defaults")

            let plain = try write("seed: 3\n", to: "plain.yaml", in: folder)
            let hand = try #require(try check(plain, ["--json"]).json()["findings"] as? [[String: Any]])
            #expect(!hand.contains { $0["code"] as? String == "shapeDefaults" })
        }
    }
}
