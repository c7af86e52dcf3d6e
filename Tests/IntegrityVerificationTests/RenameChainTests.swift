import DataGeneration
import Foundation
import MigrationEngine
import ObjectModel
import TestFixtures
import Testing

@testable import IntegrityVerification

/// A direct lightweight step across three versions, where the second rename's identifier names the first
/// rename: the verifier follows it through the version between.
@Suite("Renames across intermediate versions")
struct RenameChainTests {
    static func version(_ name: String, _ attribute: Attribute) throws -> ModelVersion {
        try ModelVersion(name: name, entities: [Entity(name: "Item", attributes: [attribute])])
    }

    @Test func aRenameOfARenameIsFollowedThroughTheVersionBetween() throws {
        let v1 = try Self.version("V1", Attribute(name: "title", type: .string))
        let v2 = try Self.version("V2", Attribute(name: "name", type: .string, renamingIdentifier: "title"))
        let v3 = try Self.version("V3", Attribute(name: "displayTitle", type: .string, renamingIdentifier: "name"))
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let destination = folder.appendingPathComponent("v3.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(seed: 2, objects: ["Item": 1]), size: 100)
                .generate(at: source)
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            _ = try InPlaceMigration(plan: MappingInference.plan(from: v1, to: v3, through: [v2]))
                .run(storeAt: destination)

            let followed = try IntegrityVerifier(source: v1, destination: v3, through: [v2])
                .verify(sourceStoreAt: source, destinationStoreAt: destination)
            #expect(followed.passed, "\(followed.summary)")
            // Between the two end versions alone, displayTitle has no counterpart: the verifier expects nil.
            let direct = try IntegrityVerifier(source: v1, destination: v3)
                .verify(sourceStoreAt: source, destinationStoreAt: destination)
            #expect(direct.group(.attributeValue, "Item", "displayTitle")?.count == 100, "\(direct.summary)")
        }
    }
}
