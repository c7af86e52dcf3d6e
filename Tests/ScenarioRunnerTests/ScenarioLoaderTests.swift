import Foundation
import MappingModel
import MigrationEngine
import Testing

@testable import ScenarioRunner

@Suite("Scenario files")
struct ScenarioLoaderTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios")

    /// Every scenario of the catalog decodes and passes its deep check (model, chain, mappings, dataset, plan).
    @Test func everyScenarioInTheCatalogDecodesAndChecks() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 9, "the catalog has \(files.count) scenarios")
        var names: Set<String> = []
        for file in files {
            let scenario = try ScenarioLoader.load(path: Self.scenarios.appendingPathComponent(file).path)
            #expect(scenario.name + ".yaml" == file)
            #expect(names.insert(scenario.name).inserted)
            // A generated store goes up to a million objects at least; a real store is the size it is.
            #expect(
                scenario.store != nil || scenario.fullSizes.max() ?? 0 >= 1_000_000,
                "\(file) has no size of a million objects")
            let plans = try scenario.check()
            #expect(plans.values.allSatisfy { !$0.steps.isEmpty }, "\(file)")
        }
    }

    @Test func aFullScenarioReadsEveryKey() throws {
        let scenario = try load(
            """
            name: sample
            title: A sample
            description: >
              Two lines
              of text.
            model: models/library.yaml
            chain: [V1, V2]
            mappings: [mappings/library-v1-v2.yaml]
            dataset: datasets/library.yaml
            sizes: { quick: [2_000], full: [10000, 1000000] }
            modes: { passes: [single, per-entity], storage: [in-memory, streaming], path: [chained] }
            crossPass: core-data
            repetitions: { quick: 2, full: 5 }
            expect: { integrity: violations }
            budgets:
              - { name: heap, metric: heapPeakBytes, max: 64 MiB, when: { storage: streaming, minSize: 1000000 } }
              - { metric: floorRatio, max: 3.5 }
            """)
        #expect(scenario.title == "A sample" && scenario.description == "Two lines of text.")
        #expect(scenario.model.hasSuffix("/models/library.yaml") && scenario.mappings.count == 1)
        #expect(scenario.quickSizes == [2_000] && scenario.fullSizes == [10_000, 1_000_000])
        #expect(scenario.modes.all.count == 4 && scenario.crossPass == .coreData && scenario.integrity == .violations)
        #expect(scenario.quickRepetitions == 2 && scenario.fullRepetitions == 5)
        #expect(scenario.budgets[0].max == 64 * 1_048_576 && scenario.budgets[0].condition.storage == .streaming)
        #expect(
            scenario.budgets[0].condition.selects(
                CellMode(passes: .single, storage: .streaming, path: .chained), size: 1_000_000))
        #expect(
            !scenario.budgets[0].condition.selects(
                CellMode(passes: .single, storage: .streaming, path: .chained), size: 10))
        #expect(scenario.budgets[1].name == "floorRatio")
    }

    static let badFiles: [(text: String, message: String)] = [
        (
            "name: x\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\ncolour: red\n",
            ":5: unknown key 'colour'"
        ),
        (
            "name: x\nmodel: m.yaml\nchain: [V1]\nsizes: { quick: [1], full: [2] }\n",
            ":3: 'chain' must list at least two versions"
        ),
        (
            "name: x\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [fast], full: [2] }\n",
            ":4: 'sizes.quick' must list whole numbers from 1 to 100000000, not 'fast'"
        ),
        (
            "name: x\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [1000000000000000] }\n",
            ":4: 'sizes.full' must list whole numbers from 1 to 100000000, not '1000000000000000'"
        ),
        (
            "name: x\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\n"
                + "repetitions: { quick: 1, full: 1000000000000 }\n",
            ":5: 'repetitions' must be from 1 to 100"
        ),
        (
            "name: x\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\nmodes: { storage: [disk] }\n",
            ":5: 'modes.storage' holds 'disk'"
        ),
        (
            "name: x\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\nbudgets:\n  - { metric: speed, max: 1 }\n",
            ":6: a budget's 'metric' is 'speed'"
        ),
        (
            "name: x\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\nbudgets:\n  - { metric: wallSeconds, max: lots }\n",
            ":6: a budget's 'max' must be a number"
        ),
        (
            "name: X Y\nmodel: m.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\n",
            ":1: 'name' must be lowercase"
        ),
        ("name: x\nchain: [V1, V2]\nsizes: { quick: [1], full: [2] }\n", "the scenario has no 'model'"),
        ("name: x\nmodel: [m\n", ":3: not valid YAML"),
    ]

    /// `policies` binds Xcode policy classes inline (a name, or a policy with settings) or through a file.
    @Test func policiesBindXcodePolicyClasses() throws {
        let header = "name: bad\nmodel: models/library.yaml\nchain: [V1, V2]\nsizes: { quick: [1], full: [1] }\n"
        let inline = try load(
            header + """
                policies:
                  Post2ToPost3MigrationPolicy: SplitAttributeIntoEntity
                  V2to3MakerPolicy: { policy: FindOrCreate, userInfo: { attribute: maker } }
                """)
        #expect(
            inline.policies.bindings == [
                "Post2ToPost3MigrationPolicy": .init(policy: "SplitAttributeIntoEntity"),
                "V2to3MakerPolicy": .init(policy: "FindOrCreate", userInfo: ["attribute": "maker"]),
            ])
        let file = Self.scenarios.appendingPathComponent("policies/CoreDataMigration_Example.yaml").path
        let fromFile = try load(header + "policies: \(file)\n")
        #expect(fromFile.policies.bindings["Post2ToPost3MigrationPolicy"]?.userInfo["entity"] == "Color")
        #expect {
            _ = try load(header + "policies:\n  Broken: { userInfo: {} }\n")
        } throws: { error in
            let text = "\(error)"
            return text.hasSuffix("bad.yaml:6: 'policies': the binding of 'Broken' has no 'policy'")
        }
    }

    @Test(arguments: badFiles)
    func schemaErrorsNameTheFileLineAndKey(text: String, message: String) throws {
        #expect {
            try load(text)
        } throws: { error in
            "\(error)".contains("bad.yaml") && "\(error)".contains(message)
        }
    }

    /// Reads `text` as a scenario file named `bad.yaml` in a folder of its own.
    /// `dataset: { like: store }` names a store whose shape is the dataset, resolved against the file.
    @Test func aDatasetCanBeShapedLikeAStore() throws {
        let scenario = try load(
            """
            name: shaped
            model: models/school.yaml
            chain: [V1, V2]
            dataset: { like: stores/users.sqlite }
            sizes: { quick: [1000], full: [1000] }
            """)
        #expect(scenario.dataset == nil)
        #expect(scenario.datasetLike?.hasSuffix("/stores/users.sqlite") == true)
        #expect(scenario.shapeOrigin?.hasPrefix("Dataset: shaped like ") == true)
        #expect(throws: ScenarioError.self) {
            try load(
                "name: shaped\nmodel: m.yaml\nchain: [V1]\ndataset: { lke: s.sqlite }\nsizes: { quick: [1], full: [1] }\n"
            )
        }
    }

    private func load(_ text: String) throws -> Scenario {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mb-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try ScenarioLoader.load(path: path)
    }
}
