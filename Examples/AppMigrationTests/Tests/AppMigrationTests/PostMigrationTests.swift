import Foundation
import MigrationTesting
import Testing

/// The app's migration tests: stores at every version, migrated with the app's mapping models and its policy.
@Suite("Post migrations")
struct PostMigrationTests {
    /// The model bundle and the mapping models beside it, copied into the test bundle (`resources:`).
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func model() throws -> MigrationTestModel {
        let policies = PolicyRegistry.builtIn()
        policies.register("Post2ToPost3MigrationPolicy", declaring: Post2ToPost3MigrationPolicy.declaration) {
            Post2ToPost3MigrationPolicy()
        }
        // Migration1to2 and Migration2to3, beside the bundle, are found by their entity hashes.
        return try MigrationTestModel(
            model: fixtures.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path, policies: policies)
    }

    @Test func postsKeepTheirColoursFromVersion1To4() throws {
        try Self.model().withStore(at: "CoreDataMigration_Example") { store in
            try store.insert("Post", ["postID": .string("a"), "color": .string("#ff0000"), "date": .date(0)])
            try store.insert("Post", ["postID": .string("b"), "color": .string("#00ff00")])

            let migration = try store.migrate()  // 1 → 2 → 3 → 4, each step verified

            #expect(migration.passed)  // on failure, prints each step and its first violations
            #expect(migration.steps.count == 3)
            try store.expectValues("Post", keyPath: "color.hex", [.string("#ff0000"), .string("#00ff00")])
            try store.expectValues("Post", keyPath: "date", [.date(0), nil])  // seconds since 2001
            try store.expectValues("Post", keyPath: "hide", [.boolean(false), .boolean(false)])  // version 4's default
        }
    }

    /// Every version's generated store, migrated to the current one; the dataset gives every post a colour
    /// (version 3 requires one): `color` is an attribute of version 1, `hexColor` of version 2, and each entry
    /// applies to the versions that have it.
    @Test func everyVersionReachesTheCurrentOne() throws {
        let dataset = Dataset(seed: 7)
            .attribute("Post.color", nullRatio: 0)
            .attribute("Post.hexColor", nullRatio: 0)
        let check = try Self.model().check(sizes: [20], dataset: dataset)
        #expect(check.errors.isEmpty, "\(check)")
        // The app migrates step by step (a mapping model per step): every step passes; Core Data's own single
        // step from versions 1 and 2 would fail, which pathsDiffer warnings say.
        let differing = Set(check.findings.filter { $0.code == "pathsDiffer" }.compactMap(\.from))
        #expect(check.steps.allSatisfy { $0.outcome == .passed || differing.contains($0.from) })
    }

    @Test func aGeneratedStoreOfVersion2Migrates() throws {
        let dataset = Dataset(seed: 1).objects("Post", 1).attribute("Post.hexColor", nullRatio: 0)
        try Self.model().withGeneratedStore(at: "CoreDataMigration_Example 2", size: 50, dataset: dataset) { store in
            let migration = try store.migrate()
            #expect(migration.passed, "\(migration)")
            #expect(try store.count("Color") == 50)
        }
    }
}
