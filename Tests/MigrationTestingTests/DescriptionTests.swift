import Foundation
import MigrationTesting
import TestFixtures
import Testing

/// What a failing test prints: results, findings and errors as golden strings.
@Suite("Failures that read")
struct DescriptionTests {
    static let mappingFile = Fixtures.modelBundle.deletingLastPathComponent()
        .appendingPathComponent("Mappings/Migration2to3.xcmappingmodel/xcmapping.xml").path

    /// The port that makes one Color too many (see ``PolicyDeclarationTests``), migrated from version 2 to 3.
    @Test func aFailedMigrationNamesTheStepKindEntityAndKey() throws {
        let model = try PolicyDeclarationTests.model(.oneColorTooMany)
        try model.withStore(at: "CoreDataMigration_Example 2") { store in
            try store.insert("Post", ["postID": .string("a"), "hexColor": .string("#ff0000")])
            try store.insert("Post", ["postID": .string("b"), "hexColor": .string("#00ff00")])
            let migration = try store.migrate(to: "CoreDataMigration_Example 3")
            #expect(
                "\(migration)" == """
                    failed at 1 of 1 step
                    CoreDataMigration_Example 2 → CoreDataMigration_Example 3 (heavyweight): failed: 1 violation in 1 group
                        unexpectedObject Color: 1 (Z_PK 2: no Post object relates to it through color)
                    """)
            withKnownIssue("what Swift Testing prints for a failed migration, to read in the log") {
                #expect(migration.passed)
            }
        }
    }

    @Test func groupsShowTheirFirstExamplesByKey() {
        let group = ViolationGroup(
            kind: .attributeValue, entity: "Color", property: "hex", count: 7,
            examples: [
                .init(primaryKey: 1, detail: "expected \"#ff0000\", found \"#FF0000\""),
                .init(primaryKey: 3, detail: "expected \"#00ff00\", found nil"),
                .init(primaryKey: 4, detail: "expected \"#0000ff\", found nil"),
            ])
        #expect(
            "\(group)"
                == "attributeValue Color.hex: 7 (Z_PK 1: expected \"#ff0000\", found \"#FF0000\"; "
                + "Z_PK 3: expected \"#00ff00\", found nil; and 5 more)")
        let integrity = ViolationGroup(
            kind: .integrityCheck, entity: nil, property: nil, count: 1, examples: [.init(primaryKey: nil, detail: "x")]
        )
        let skipped = SkippedCheck(kind: .missingObject, entity: "Post", property: nil, reason: "custom policy")
        #expect("\(skipped)" == "missingObject Post: not checked: custom policy")
        #expect(
            "\(VerificationResult(violations: [integrity, group], notChecked: [skipped]))" == """
                failed: 8 violations in 2 groups; 1 check not made
                  integrityCheck: 1 (x)
                  attributeValue Color.hex: 7 (Z_PK 1: expected "#ff0000", found "#FF0000"; Z_PK 3: expected "#00ff00", found nil; and 5 more)
                """)
        #expect("\(VerificationResult(violations: [], notChecked: []))" == "passed")
    }

    @Test func checkFindingsReadOnePerLine() {
        let check = ModelCheck(
            model: "Model.xcdatamodeld", current: "V3", sizes: [100], steps: [],
            findings: [
                Finding(
                    code: "needsValue", severity: .error, from: "V2", to: "V3", entity: "Post", property: "color",
                    message: "no default"),
                Finding(
                    code: "dataLoss", severity: .warning, from: nil, to: nil, entity: nil, property: nil, message: "m"),
            ])
        #expect(
            "\(check)" == """
                check of Model.xcdatamodeld to V3: 1 error, 1 warning; 0 steps, 0 not passed
                  error needsValue (V2 → V3, Post.color): no default
                  warning dataLoss: m
                """)
    }

    /// The error of migrating one post of version 2 to version 3 with `model`.
    static func migrationError(_ model: MigrationTestModel) throws -> String? {
        try model.withStore(at: "CoreDataMigration_Example 2") { store in
            try store.insert("Post", ["postID": .string("a"), "hexColor": .string("#ff0000")])
            do {
                try store.migrate()
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    /// The wibosco policy class bound to the built-in split with `userInfo`.
    static func boundToSplit(_ userInfo: [String: String]) throws -> MigrationTestModel {
        try MigrationTestModel(
            model: Fixtures.modelBundle.path,
            bindings: PolicyBindings([
                "Post2ToPost3MigrationPolicy": .init(policy: "SplitAttributeIntoEntity", userInfo: userInfo)
            ]))
    }

    /// The issue's typo: a built-in policy's setting naming no attribute fails before any object, naming the
    /// mapping model file, the entity mapping, the policy class the file names with the policy it is bound to,
    /// and the setting.
    @Test func aSettingWithATypoNamesFileMappingPolicyAndSetting() throws {
        let model = try Self.boundToSplit([
            "attribute": "hexColor", "entity": "Color", "targetAttribute": "hexx", "relationship": "color",
        ])
        #expect(
            try Self.migrationError(model)
                == "\(Self.mappingFile): mapping 'PostToPost', policy 'Post2ToPost3MigrationPolicy' "
                + "(bound to 'SplitAttributeIntoEntity'): setting 'targetAttribute': 'Color' has no attribute 'hexx'")
    }

    /// A setting the binding leaves out is named with the bound class too.
    @Test func aMissingSettingNamesTheBoundClass() throws {
        let model = try Self.boundToSplit(["attribute": "hexColor", "entity": "Color", "targetAttribute": "hex"])
        #expect(
            try Self.migrationError(model)
                == "\(Self.mappingFile): mapping 'PostToPost', policy 'Post2ToPost3MigrationPolicy' "
                + "(bound to 'SplitAttributeIntoEntity'): setting 'relationship': needs a value (in the binding's "
                + "or the entity mapping's userInfo)")
    }

    /// A Swift policy registered under a name of its own and bound to the Xcode class: its error names both.
    @Test func aBoundSwiftPolicysTypoNamesTheClassAndThePolicy() throws {
        let policies = PolicyRegistry.builtIn()
        policies.register("PostColourPort") { Post2ToPost3MigrationPolicy(.misspeltKey) }
        let model = try MigrationTestModel(
            model: Fixtures.modelBundle.path, policies: policies,
            bindings: PolicyBindings(["Post2ToPost3MigrationPolicy": .init(policy: "PostColourPort")]))
        #expect(
            try Self.migrationError(model)
                == "\(Self.mappingFile): mapping 'PostToPost', policy 'Post2ToPost3MigrationPolicy' "
                + "(bound to 'PostColourPort'): 'Color' has no property 'hexx' to set")
    }

    /// A Swift policy that sets a property its entity lacks: the error names where the policy ran.
    @Test func aSwiftPolicysTypoNamesFileMappingAndPolicy() throws {
        #expect(
            try Self.migrationError(PolicyDeclarationTests.model(.misspeltKey))
                == "\(Self.mappingFile): mapping 'PostToPost', policy 'Post2ToPost3MigrationPolicy': "
                + "'Color' has no property 'hexx' to set")
    }

    /// A Swift policy that reads a source property its entity lacks: the error names where the policy ran.
    @Test func aSwiftPolicysSourceTypoNamesFileMappingAndPolicy() throws {
        #expect(
            try Self.migrationError(PolicyDeclarationTests.model(.misspeltSource))
                == "\(Self.mappingFile): mapping 'PostToPost', policy 'Post2ToPost3MigrationPolicy': "
                + "'Post' has no property 'hexColour'")
    }

    /// The library's message speaks of its own parameters, not of the command line's `--policies`.
    @Test func anUnboundPolicyNamesTheLibrarysParameters() throws {
        try MigrationTestModel(model: Fixtures.modelBundle.path).withStore(at: "CoreDataMigration_Example 2") { store in
            #expect {
                try store.migrate()
            } throws: { error in
                "\(error)" == "\(Self.mappingFile): mapping 'PostToPost': the policy 'Post2ToPost3MigrationPolicy' is "
                    + "bound to no registered policy: bind it to one with MigrationTestModel's bindings: "
                    + "(PolicyBindings([\"Post2ToPost3MigrationPolicy\": .init(policy: \"SplitAttributeIntoEntity\", "
                    + "userInfo: …)])) or register a Swift policy of that name in its policies: "
                    + "(PolicyRegistry.register(\"Post2ToPost3MigrationPolicy\", declaring:factory:))"
            }
            #expect(store.version.name == "CoreDataMigration_Example 2")
        }
    }

    /// `check` reports the same problem as a finding, whose message names the library's parameter too.
    @Test func checkFindingsOfAnUnboundPolicyNameTheLibrarysParameter() throws {
        let check = try MigrationTestModel(model: Fixtures.modelBundle.path).check(sizes: [5])
        #expect(check.errors.map(\.code) == ["invalidMappingModel"])
        #expect(check.errors.first?.message.contains("MigrationTestModel's bindings:") == true, "\(check)")
    }

    @Test func valuesPrintBothSides() throws {
        try MigrationTestModel(model: Fixtures.modelBundle.path).withStore(at: "CoreDataMigration_Example") { store in
            try store.insert("Post", ["postID": .string("a"), "date": .date(0)])
            try store.insert("Post", ["postID": .string("b")])
            try store.expectValues("Post", keyPath: "postID", [.string("a"), .string("b")])
            #expect {
                try store.expectValues("Post", keyPath: "postID", [.string("a"), nil])
            } throws: { error in
                "\(error)" == "Post.postID: expected [\"a\", nil], found [\"a\", \"b\"]"
            }
            #expect {
                try store.expectValues("Post", keyPath: "date", [.date(1), .integer(2)])
            } throws: { error in
                "\(error)" == "Post.date: expected [date(1.0), 2], found [date(0.0), nil]"
            }
        }
    }
}
