import DataGeneration
import Foundation
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import IntegrityVerification

/// A direct lightweight step across three versions: Core Data pairs the two ends by shared renaming
/// identifier, so a second rename that keeps the first identifier keeps the values, and one that names the
/// previous name instead loses them — in the engine and in the verifier alike.
@Suite("Renames across intermediate versions")
struct RenameChainTests {
    static func version(_ name: String, _ attribute: Attribute) throws -> ModelVersion {
        try ModelVersion(name: name, entities: [Entity(name: "Item", attributes: [attribute])])
    }

    @Test(arguments: [("title", true), ("name", false)])
    func aRenameOfARenameKeepsItsValuesOnlyWithTheSharedIdentifier(identifier: String, keeps: Bool) throws {
        let v1 = try Self.version("V1", Attribute(name: "title", type: .string, isOptional: true))
        let v3 = try Self.version(
            "V3", Attribute(name: "displayTitle", type: .string, isOptional: true, renamingIdentifier: identifier))
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let destination = folder.appendingPathComponent("v3.sqlite").path
            _ = try StoreGenerator(version: v1, dataset: Dataset(seed: 2, objects: ["Item": 1]), size: 100)
                .generate(at: source)
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            let plan = try MappingInference.plan(from: v1, to: v3)
            #expect(plan.changes.contains { $0.change == .dataLoss } == !keeps, "\(plan.changes)")
            _ = try InPlaceMigration(plan: plan).run(storeAt: destination)

            let result = try IntegrityVerifier(source: v1, destination: v3)
                .verify(sourceStoreAt: source, destinationStoreAt: destination)
            #expect(result.passed, "\(result.summary)")
            let store = try Store.open(at: destination, version: v3)
            let kept = try store.connection.scalar("SELECT COUNT(ZDISPLAYTITLE) FROM ZITEM")?.int64 ?? 0
            #expect((kept > 0) == keeps)
        }
    }
}
