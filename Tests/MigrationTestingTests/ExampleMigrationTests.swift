import Foundation
import MigrationTesting
import TestFixtures
import Testing

/// The README's example: an app's own migration tests with `MigrationTesting`, on wibosco's real model — four
/// versions, two Xcode mapping models beside the bundle, and the policy class of `Migration2to3` bound to the
/// built-in policy that moves each post's colour into a `Color` object of its own.
@Suite("An app's migration tests")
struct ExampleMigrationTests {
    static let bindings = PolicyBindings([
        "Post2ToPost3MigrationPolicy": .init(
            policy: "SplitAttributeIntoEntity",
            userInfo: [
                "attribute": "hexColor", "entity": "Color", "targetAttribute": "hex", "relationship": "color",
                "identifierAttribute": "colorID",
            ])
    ])

    static func model() throws -> MigrationTestModel {
        try MigrationTestModel(model: Fixtures.modelBundle.path, bindings: bindings)
    }

    @Test func postsKeepTheirColoursAcrossEveryVersion() throws {
        try Self.model().withStore(at: "CoreDataMigration_Example") { store in
            try store.insert("Post", ["postID": .string("a"), "color": .string("#ff0000")])
            try store.insert("Post", ["postID": .string("b"), "color": .string("#00ff00")])

            let migration = try store.migrate()

            #expect(
                migration.steps.map(\.step.to) == [
                    "CoreDataMigration_Example 2", "CoreDataMigration_Example 3", "CoreDataMigration_Example 4",
                ])
            #expect(migration.passed, "\(migration.steps.map(\.verification.violations))")
            #expect(store.version.name == "CoreDataMigration_Example 4")
            #expect(try store.values("Post", keyPath: "postID") == [.string("a"), .string("b")])
            #expect(try store.values("Post", keyPath: "color.hex") == [.string("#ff0000"), .string("#00ff00")])
            #expect(try store.values("Post", keyPath: "hide") == [.boolean(false), .boolean(false)])
            #expect(try store.count("Color") == 2)
        }
    }

    /// Version 3 requires every post's colour; a post that never had one cannot get one from the policy, and the
    /// step fails as Core Data's would, leaving the store at version 2.
    @Test func aPostWithoutAColourStopsTheMigrationAtVersion3() throws {
        try Self.model().withStore(at: "CoreDataMigration_Example 2") { store in
            try store.insert("Post", ["postID": .string("a"), "hexColor": .string("#ff0000")])
            try store.insert("Post", ["postID": .string("b")])
            #expect {
                try store.migrate(to: "CoreDataMigration_Example 3")
            } throws: { error in
                "\(error)".contains("Post.color")
            }
            #expect(store.version.name == "CoreDataMigration_Example 2")
            #expect(try store.values("Post", keyPath: "hexColor") == [.string("#ff0000"), nil])
        }
    }

    @Test(arguments: [10, 500])
    func generatedStoresOfVersion3ReachTheLast(size: Int) throws {
        try Self.model().withGeneratedStore(at: "CoreDataMigration_Example 3", size: size) { store in
            let migration = try store.migrate()
            #expect(migration.steps.count == 1 && migration.passed)
            #expect(try store.count("Post") == size)
        }
    }

    @Test func misuseNamesWhatIsWrong() throws {
        try Self.model().withStore(at: "CoreDataMigration_Example") { store in
            #expect(throws: MigrationTestError.self) { try store.insert("Pots") }
            #expect(throws: MigrationTestError.self) { try store.insert("Post", ["colour": .string("red")]) }
            try store.insert("Post")
            #expect(throws: MigrationTestError.self) { try store.values("Post", keyPath: "date.year") }
            #expect(throws: MigrationTestError.self) { try store.insert("Post") }  // read: no more inserts
        }
    }
}
