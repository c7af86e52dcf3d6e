import Foundation
import Testing

/// Reproductions of what a review of the command line found, run with the built executable.
@Suite("CLI review regressions")
struct CLIReviewRegressionTests {
    static let bundle = MappingsCommandTests.bundle
    static let bindings = MappingsCommandTests.bindings

    /// Runs `body` with a temporary folder and a copy of the wibosco fixture store `version` in it.
    func withRealStore(version: Int = 1, _ body: (URL, String) throws -> Void) throws {
        try Executable.withTemporaryFolder { folder in
            let store = folder.appendingPathComponent("store.sqlite").path
            try FileManager.default.copyItem(
                atPath: Executable.fixtures.appendingPathComponent("stores/CoreDataMigration_Example_\(version).sqlite")
                    .path,
                toPath: store)
            try body(folder, store)
        }
    }

    /// `plan` names the mapping model each heavyweight pass runs, and warns, before `migrate` fails, that a
    /// step's policy class is bound to nothing; with the binding file the warning is gone. (The app migrates
    /// progressively, one mapping model per step: `--path chained`.)
    @Test func planNamesTheMappingModelsAndAnUnboundPolicy() throws {
        try withRealStore { folder, store in
            let text = try Executable.run(["plan", store, "--model", Self.bundle, "--path", "chained"], in: folder)
            #expect(text.status == 0, "\(text.error)")
            #expect(text.output.contains("Migration1to2.xcmappingmodel"))
            #expect(text.output.contains("Migration2to3.xcmappingmodel"))
            #expect(text.output.contains("warning:") && text.output.contains("'Post2ToPost3MigrationPolicy'"))
            let json = try Executable.run(
                ["plan", store, "--model", Self.bundle, "--path", "chained", "--json"], in: folder
            ).json()
            #expect(json["path"] as? String == "chained")
            let steps = try #require(json["steps"] as? [[String: Any]])
            let mappings = try #require(steps[1]["mappingModels"] as? [String])
            #expect(mappings.count == 1 && mappings[0].hasSuffix("Migration2to3.xcmappingmodel/xcmapping.xml"))
            #expect((steps[1]["problem"] as? String)?.contains("'Post2ToPost3MigrationPolicy'") == true)
            #expect(steps[0]["problem"] == nil)
            let bound = try Executable.run(
                ["plan", store, "--model", Self.bundle, "--path", "chained", "--policies", Self.bindings], in: folder)
            #expect(bound.status == 0 && !bound.output.contains("warning:"), "\(bound.output)")
        }
    }
}

extension CLIReviewRegressionTests {
    /// A mapping "file" that is a folder or a device is named as such, not as "permission denied" or a
    /// framework error number.
    @Test func aFolderOrDeviceGivenAsAFileSaysSo() throws {
        try Executable.withTemporaryFolder { folder in
            let cdm = folder.appendingPathComponent("Folder.cdm")
            try FileManager.default.createDirectory(at: cdm, withIntermediateDirectories: true)
            let directory = try Executable.run(["mappings", cdm.path], in: folder)
            #expect(directory.status == 1)
            #expect(directory.errorLines.count == 1 && directory.error.contains("Folder.cdm: a folder, not a file"))
            let device = try Executable.run(["mappings", "/dev/zero"], in: folder)
            #expect(device.status == 1)
            #expect(device.errorLines.count == 1 && device.error.contains("/dev/zero: not a regular file"))
            // A symbolic link to a real file is read as that file.
            let link = folder.appendingPathComponent("link.cdm").path
            try FileManager.default.createSymbolicLink(
                atPath: link,
                withDestinationPath: Executable.fixtures.appendingPathComponent(
                    "coredataplus/SampleModel/Fixtures/V2toV3.cdm"
                )
                .path)
            let linked = try Executable.run(["mappings", link], in: folder)
            #expect(linked.status == 0, "\(linked.error)")
        }
    }
}

extension CLIReviewRegressionTests {
    /// An app's `.xcmappingmodel` and the `.cdm` compiled from it (or one file given twice) are the same mapping:
    /// run as two passes, every object was made twice (the real store's 1,001 posts became 2,002, exit 0).
    /// Refused before anything runs, the store untouched.
    @Test func theSameMappingGivenTwiceIsRefused() throws {
        let plus = Executable.fixtures.appendingPathComponent("coredataplus/SampleModel")
        let bundle = plus.appendingPathComponent("MappingModels/V2toV3.xcmappingmodel").path
        let compiled = plus.appendingPathComponent("Fixtures/V2toV3.cdm").path
        let twoToThree = [
            "--model", plus.appendingPathComponent("SampleModel.xcdatamodeld").path, "--to", "SampleModel3",
        ]
        let oneToTwo = Executable.fixtures.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel").path
        let cases = [
            ("coredataplus/SampleModel/Fixtures/SampleModel_V2.sqlite", twoToThree, [bundle, compiled]),
            (
                "stores/CoreDataMigration_Example_1.sqlite",
                ["--model", Self.bundle, "--to", "CoreDataMigration_Example 2"],
                [oneToTwo, oneToTwo]
            ),
        ]
        try Executable.withTemporaryFolder { work in
            let bindings = work.appendingPathComponent("bindings.yaml").path
            try Data("policies:\n  V2to3MakerPolicy: FindOrCreate\n".utf8).write(to: URL(fileURLWithPath: bindings))
            for (fixture, options, files) in cases {
                let store = work.appendingPathComponent("store.sqlite").path
                try? FileManager.default.removeItem(atPath: store)
                try FileManager.default.copyItem(
                    atPath: Executable.fixtures.appendingPathComponent(fixture).path, toPath: store)
                let before = try Data(contentsOf: URL(fileURLWithPath: store))
                let run = try Executable.run(
                    ["migrate", store] + options + [
                        "--policies", bindings, "--mapping", files[0], "--mapping", files[1],
                    ],
                    in: work)
                #expect(run.status == 1)
                #expect(run.errorLines.count == 1 && run.error.contains("twice"), "\(run.error)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
            }
        }
    }
}

extension CLIReviewRegressionTests {
    /// Mapping models found beside the bundle for steps a `--chain` leaves out were refused as if given ("not a
    /// step of the chain"), so no chain could skip them; found ones are skipped, as Core Data skips them.
    @Test func aChainMayLeaveOutStepsThatFoundMappingModelsCover() throws {
        try withRealStore(version: 3) { folder, store in
            let chain = "CoreDataMigration_Example 3,CoreDataMigration_Example 4"
            let plan = try Executable.run(["plan", store, "--model", Self.bundle, "--chain", chain], in: folder)
            #expect(plan.status == 0, "\(plan.error)")
            #expect(plan.output.contains("1 step(s)"))
            // A given mapping model that fits no step of the chain is still refused.
            let oneToTwo = Executable.fixtures.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel").path
            let given = try Executable.run(
                ["plan", store, "--model", Self.bundle, "--chain", chain, "--mapping", oneToTwo], in: folder)
            #expect(given.status == 1 && given.error.contains("not a step of the chain"), "\(given.error)")
        }
    }
}
