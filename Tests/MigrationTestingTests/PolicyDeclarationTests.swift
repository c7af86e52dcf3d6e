import Foundation
import MigrationTesting
import TestFixtures
import Testing

/// A port of wibosco's `Post2ToPost3MigrationPolicy` to a Swift policy: each post as its mapping says, and one
/// `Color` per post, holding the post's `hexColor`, with a new `colorID`. `fault` makes a wrong port.
final class Post2ToPost3MigrationPolicy: EntityMigrationPolicy {
    enum Fault { case none, oneColorTooMany, uppercasedHex, misspeltKey, misspeltSource, noColorForGreen }
    let fault: Fault

    init(_ fault: Fault = .none) {
        self.fault = fault
    }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let post = try session.createDestinationInstance(for: source, mapping: mapping)
        var hex = try session.sourceValue(fault == .misspeltSource ? "hexColour" : "hexColor")
        guard !hex.isNull, !(fault == .noColorForGreen && hex == .string("#00ff00")) else { return }
        if fault == .uppercasedHex, case .string(let text) = hex { hex = .string(text.uppercased()) }
        let color = try session.createDestinationInstance(entity: "Color")
        try session.setValue(.string(session.makeUUID().uuidString), forKey: "colorID", of: color)
        try session.setValue(hex, forKey: fault == .misspeltKey ? "hexx" : "hex", of: color)
        try session.setValue(.object(color), forKey: "color", of: post)
        if fault == .oneColorTooMany, case .string("#ff0000") = hex {
            try session.setValue(hex, forKey: "hex", of: try session.createDestinationInstance(entity: "Color"))
        }
    }
}

/// A Swift policy that declares what it makes is checked against its declaration: its colours verify clean, a
/// wrong port is caught, and a policy that declares nothing still has its colours called unexpected.
@Suite("Policy declarations")
struct PolicyDeclarationTests {
    static let declaration = PolicyDeclaration(makes: [
        .onePerObject("Color", through: "color", from: "hexColor", into: "hex", newIdentifier: "colorID")
    ])

    static func model(_ fault: Post2ToPost3MigrationPolicy.Fault, declared: Bool = true) throws -> MigrationTestModel {
        let policies = PolicyRegistry.builtIn()
        if declared {
            policies.register("Post2ToPost3MigrationPolicy", declaring: declaration) {
                Post2ToPost3MigrationPolicy(fault)
            }
        } else {
            policies.register("Post2ToPost3MigrationPolicy") { Post2ToPost3MigrationPolicy(fault) }
        }
        return try MigrationTestModel(model: Fixtures.modelBundle.path, policies: policies)
    }

    /// Three posts at version 2, migrated to version 3 by `Migration2to3.xcmappingmodel` with the port.
    static func migrate(_ model: MigrationTestModel) throws -> VerificationResult {
        try model.withStore(at: "CoreDataMigration_Example 2") { store in
            for (id, hex) in [("a", "#ff0000"), ("b", "#00ff00"), ("c", "#0000ff")] {
                try store.insert("Post", ["postID": .string(id), "hexColor": .string(hex)])
            }
            let migration = try store.migrate(to: "CoreDataMigration_Example 3")
            #expect(try store.values("Post", keyPath: "color.hex").count == 3)
            return try #require(migration.steps.first).verification
        }
    }

    @Test func theWiboscoPortVerifiesClean() throws {
        let result = try Self.migrate(try Self.model(.none))
        #expect(result.passed, "\(result.violations)")
        // The posts and their colours are compared object by object, not left unchecked.
        #expect(!result.notChecked.contains { $0.entity == "Post" || $0.entity == "Color" }, "\(result.notChecked)")
    }

    @Test func aPortThatMakesOneColorTooManyIsCaught() throws {
        let result = try Self.migrate(try Self.model(.oneColorTooMany))
        let groups = result.violations(of: .unexpectedObject)
        #expect(groups.map(\.entity) == ["Color"])
        #expect(groups.first?.examples.first?.detail == "no Post object relates to it through color")
    }

    @Test func aPortThatChangesTheValueIsCaught() throws {
        let result = try Self.migrate(try Self.model(.uppercasedHex))
        let groups = result.violations(of: .attributeValue)
        #expect(groups.map(\.entity) == ["Color"] && groups.map(\.property) == ["hex"] && groups.first?.count == 3)
    }

    /// A port that makes no Color for one post: version 3 requires `Post.color`, so the step fails as Core Data's
    /// would (the verifier never sees the store), naming the relationship.
    @Test func aPortThatMakesNoColorForAPostIsCaught() throws {
        #expect {
            _ = try Self.migrate(try Self.model(.noColorForGreen))
        } throws: { error in
            "\(error)".contains("Post.color")
        }
    }

    /// What nobody declared is still unexpected: the first finding, kept for undeclared policies.
    @Test func coloursOfAPolicyThatDeclaresNothingAreUnexpected() throws {
        let result = try Self.migrate(try Self.model(.none, declared: false))
        #expect(result.violations(of: .unexpectedObject).map(\.entity) == ["Color"])
        #expect(result.notChecked.contains { $0.entity == "Post" && $0.kind == .missingObject })
    }

    /// The command line's way: the declaration in a binding file, for a store the app migrated.
    @Test func aBindingFileDeclaresWhatAPolicyMakes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("policies.yaml").path
        try """
        policies:
          Post2ToPost3MigrationPolicy:
            makes:
              - { entity: Color, relationship: color, from: hexColor, attribute: hex, identifier: colorID }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let bindings = try PolicyBindings.load(path: file)
        #expect(
            bindings.bindings["Post2ToPost3MigrationPolicy"]
                == .init(policy: "Post2ToPost3MigrationPolicy", declaration: Self.declaration))
        // Registered without a declaration: the binding file's is used.
        let policies = PolicyRegistry.builtIn()
        policies.register("Post2ToPost3MigrationPolicy") { Post2ToPost3MigrationPolicy() }
        let model = try MigrationTestModel(model: Fixtures.modelBundle.path, policies: policies, bindings: bindings)
        #expect(try Self.migrate(model).passed)

        try """
        policies:
          Post2ToPost3MigrationPolicy:
            makes: [{ entity: Color, relationship: color, from: hexColor, attribute: hex, rule: onePerPost }]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect {
            try PolicyBindings.load(path: file)
        } throws: { error in
            "\(error)"
                == "\(file):3: an object that 'Post2ToPost3MigrationPolicy' makes: rule 'onePerPost' is not one of "
                + "onePerObject, onePerValue"
        }
    }
}
