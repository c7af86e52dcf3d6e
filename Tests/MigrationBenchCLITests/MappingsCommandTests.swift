import Foundation
import Testing

/// `mappings`, and Xcode mapping models through `migrate` and `validate`, with the built executable.
@Suite("mappings command")
struct MappingsCommandTests {
    static let bundle = Executable.fixtures.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path
    static let twoToThree = Executable.fixtures.appendingPathComponent("Mappings/Migration2to3.xcmappingmodel").path
    static let bindings = "Scenarios/policies/CoreDataMigration_Example.yaml"

    @Test func printsTheDecodedMappingModelAsJSON() throws {
        try Executable.withTemporaryFolder { folder in
            let run = try Executable.run(["mappings", Self.twoToThree, "--model", Self.bundle, "--json"], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let json = try run.json()
            #expect(json["name"] as? String == "Migration2to3")
            #expect(json["sourceVersion"] as? String == "CoreDataMigration_Example 2")
            #expect(json["destinationVersion"] as? String == "CoreDataMigration_Example 3")
            #expect(json["stale"] as? Bool == false)
            let mappings = try #require(json["entityMappings"] as? [[String: Any]])
            #expect(mappings.map { $0["name"] as? String } == ["Color", "PostToPost"])
            #expect(mappings.map { $0["kind"] as? String } == ["add", "custom"])
            #expect(mappings[0]["source"] is NSNull && mappings[0]["destination"] as? String == "Color")
            #expect(mappings[1]["policy"] as? String == "Post2ToPost3MigrationPolicy")
            let attributes = try #require(mappings[1]["attributes"] as? [String: Any])
            #expect(
                attributes["date"] as? String == "$source.date" && attributes["postID"] as? String == "$source.postID")
            let relationships = try #require(mappings[1]["relationships"] as? [String: Any])
            #expect(relationships["color"] is NSNull)
        }
    }

    @Test func aMappingForAnotherModelIsReportedStale() throws {
        try Executable.withTemporaryFolder { folder in
            let other = Executable.fixtures.appendingPathComponent(
                "corestore-evolution/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel"
            ).path
            let run = try Executable.run(
                [
                    "mappings", other, "--model",
                    Executable.fixtures.appendingPathComponent(
                        "corestore-evolution/Advanced.EvolutionDemo.V2.xcdatamodeld"
                    )
                    .path, "--json",
                ], in: folder)
            #expect(run.status == 0, "\(run.error)")
            let json = try run.json()
            #expect(json["stale"] as? Bool == true)
            #expect(json["sourceVersion"] as? String == "Advanced.EvolutionDemo.V1", "the version it names")
            #expect(json["staleEntities"] as? [String] == ["Creature"])
        }
    }

    /// Beside the Xcode bundle, the app's mapping models are found by hash, as Core Data searches its bundle:
    /// the real store at version 1 reaches version 4 with no --mapping, walking the versions as the app does
    /// (`--path chained`); without the binding it fails first. Core Data's own path finds no mapping model from
    /// version 1 to 4 and infers one, which fails on the new required `Post.color` (134110), store untouched.
    @Test func migrateFindsTheMappingModelsBesideTheBundle() throws {
        try Executable.withTemporaryFolder { folder in
            let store = folder.appendingPathComponent("store.sqlite").path
            try FileManager.default.copyItem(
                atPath: Executable.fixtures.appendingPathComponent("stores/CoreDataMigration_Example_1.sqlite").path,
                toPath: store)
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            let direct = try Executable.run(["migrate", store, "--model", Self.bundle], in: folder)
            #expect(direct.status != 0 && direct.error.contains("(entity=Post, relationship=color)"), "\(direct.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
            let chained = ["--model", Self.bundle, "--path", "chained"]
            let plan = try Executable.run(["plan", store] + chained + ["--json"], in: folder)
            #expect(plan.status == 0, "\(plan.error)")
            #expect(plan.output.contains("heavyweight"))
            let unbound = try Executable.run(["migrate", store] + chained, in: folder)
            #expect(unbound.status == 1)
            #expect(unbound.error.contains("'Post2ToPost3MigrationPolicy'") && unbound.error.contains("'PostToPost'"))
            let migrate = try Executable.run(
                ["migrate", store] + chained + ["--policies", Self.bindings, "--json"], in: folder)
            #expect(migrate.status == 0, "\(migrate.error)")
            let inspect = try Executable.run(["inspect", store, "--model", Self.bundle, "--json"], in: folder)
            #expect(try inspect.json()["matchingVersion"] as? String == "CoreDataMigration_Example 4")
        }
    }

    @Test func aBrokenMappingModelIsOneLine() throws {
        try Executable.withTemporaryFolder { folder in
            let broken = folder.appendingPathComponent("Broken.xcmappingmodel")
            try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
            try Data("<database><object type=\"XDDEVMAPPINGMODEL\" id=\"z1\"></object></database>".utf8)
                .write(to: broken.appendingPathComponent("xcmapping.xml"))
            let run = try Executable.run(["mappings", broken.path], in: folder)
            #expect(run.status == 1)
            let lines = run.error.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("xcmapping.xml") && lines[0].contains("object z1"))
        }
    }
}
