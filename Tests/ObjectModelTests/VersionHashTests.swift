import Foundation
import ObjectModel
import TestFixtures
import Testing

/// A small seeded generator (SplitMix64), so that shuffles are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct VersionHashTests {
    static func fixtureVersion(_ name: String = "CoreDataMigration_Example 4") throws -> ModelVersion {
        try ModelLoader.load(path: Fixtures.modelBundle.path).requireVersion(name)
    }

    /// The library model's second version: inheritance, constraints, indexes, defaults.
    static func libraryVersion() throws -> ModelVersion {
        try withTemporaryFolder { folder in
            let path = try write(ModelFileReaderTests.libraryYAML, to: "library.yaml", in: folder)
            return try ModelLoader.load(path: path).requireVersion("V2")
        }
    }

    /// A copy of `version` with one entity changed.
    static func changing(
        _ version: ModelVersion,
        _ entityName: String,
        _ change: (inout Entity) -> Void
    ) throws -> ModelVersion {
        var entities = version.entities
        for index in entities.indices where entities[index].name == entityName { change(&entities[index]) }
        return try ModelVersion(name: version.name, entities: entities)
    }

    @Test func hashesAreStableAcrossLoads() throws {
        let first = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let second = try ModelLoader.load(path: Fixtures.modelBundle.path)
        #expect(first.versions.map(\.versionHashes) == second.versions.map(\.versionHashes))
        #expect(first.versions.map(\.versionHashesDigest) == second.versions.map(\.versionHashesDigest))
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func hashesDoNotDependOnDeclarationOrder(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        for version in [try Self.fixtureVersion(), try Self.libraryVersion()] {
            var entities = version.entities.shuffled(using: &generator)
            for index in entities.indices {
                entities[index].attributes.shuffle(using: &generator)
                entities[index].relationships.shuffle(using: &generator)
                entities[index].uniquenessConstraints.shuffle(using: &generator)
            }
            let shuffled = try ModelVersion(name: version.name, entities: entities)
            #expect(shuffled.versionHashes == version.versionHashes)
        }
    }

    @Test func entityModifierChangesTheHash() throws {
        let version = try Self.fixtureVersion()
        let changed = try Self.changing(version, "Post") { $0.versionHashModifier = "2" }
        #expect(changed.versionHashes["Post"] != version.versionHashes["Post"])
        #expect(changed.versionHashes["Color"] == version.versionHashes["Color"])
    }

    @Test func propertyModifiersChangeTheHash() throws {
        let version = try Self.fixtureVersion()
        let attribute = try Self.changing(version, "Post") { $0.attributes[0].versionHashModifier = "indexed" }
        let relationship = try Self.changing(version, "Post") { $0.relationships[0].versionHashModifier = "x" }
        #expect(attribute.versionHashes["Post"] != version.versionHashes["Post"])
        #expect(relationship.versionHashes["Post"] != version.versionHashes["Post"])
        #expect(attribute.versionHashes["Post"] != relationship.versionHashes["Post"])
    }

    @Test func parentModifierChangesTheChildsHash() throws {
        let version = try Self.libraryVersion()
        let changed = try Self.changing(version, "Item") { $0.versionHashModifier = "v2" }
        #expect(changed.versionHashes["Item"] != version.versionHashes["Item"])
        #expect(changed.versionHashes["Book"] != version.versionHashes["Book"])
    }

    @Test func renamingDefaultsUserInfoDeleteRulesAndIndexesAreNotHashed() throws {
        let version = try Self.libraryVersion()
        let changed = try Self.changing(version, "Book") { book in
            book.renamingIdentifier = "Volume"
            book.userInfo = ["a": "b"]
            book.indexes = []
            for index in book.attributes.indices {
                book.attributes[index].renamingIdentifier = "old\(index)"
                book.attributes[index].userInfo = ["k": "v"]
                book.attributes[index].isIndexed.toggle()
                if book.attributes[index].type == .string { book.attributes[index].defaultValue = .string("x") }
            }
            for index in book.relationships.indices {
                book.relationships[index].deleteRule = .deny
                book.relationships[index].renamingIdentifier = "was"
            }
        }
        #expect(changed.versionHashes == version.versionHashes)
    }

    @Test func hashedFlagsChangeTheHash() throws {
        let version = try Self.fixtureVersion()
        let variants = [
            try Self.changing(version, "Post") { $0.attributes[0].isOptional.toggle() },
            try Self.changing(version, "Post") { $0.attributes[0].allowsExternalBinaryDataStorage = true },
            try Self.changing(version, "Post") { $0.attributes[0].preserveAfterDeletion = true },
            try Self.changing(version, "Post") { $0.isAbstract = true },
            try Self.changing(version, "Post") { $0.relationships[0].minCount = 1 },
        ]
        for variant in variants {
            #expect(variant.versionHashes["Post"] != version.versionHashes["Post"])
        }
    }

    /// Versions that differ only in what the hashes leave out (here a renaming identifier) match the same
    /// stores: such a store is placed at the oldest of them (lightweight.md, (g)).
    @Test func aStoreMatchingSeveralVersionsIsPlacedAtTheOldest() throws {
        let post = Entity(name: "Post", attributes: [Attribute(name: "title", type: .string)])
        var renamed = post
        renamed.attributes[0].renamingIdentifier = "heading"
        let v1 = try ModelVersion(name: "V1", entities: [post])
        let v2 = try ModelVersion(name: "V2", entities: [renamed])
        let history = try ModelHistory(versions: [v1, v2])
        #expect(v1.versionHashes == v2.versionHashes)
        #expect(history.version(matching: v2.versionHashes)?.name == "V1")
    }
}
