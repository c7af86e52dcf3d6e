import Foundation
import ObjectModel
import TestFixtures
import Testing

@testable import MappingModel

/// Mapping models found beside a bundle that match none of its versions: another model's (ignored, with the
/// reason) or this history's made before a version was edited (stale), on CoreStore's real demo folder.
struct OtherModelsMappingTests {
    struct Told {
        var stale: [String] = []
        var elsewhere: [(file: String, why: String)] = []
    }

    static func found(for history: ModelHistory, near modelPath: String) throws -> ([MappingModel], Told) {
        var told = Told()
        let models = try MappingModelLoader.load(
            paths: [], for: history, modelPath: modelPath, stale: { told.stale.append($0.file ?? "") },
            elsewhere: { told.elsewhere.append(($0.file ?? "", $1)) })
        return (models, told)
    }

    /// CoreStore keeps three bundles of one entity, Creature, beside two mapping models of the V1 bundle. For the
    /// other two bundles they match no version (one side is the other bundle's Creature) and name a version they
    /// have: both sides match the V1 bundle, so they are its, not stale ones.
    @Test(arguments: ["Advanced.EvolutionDemo.xcdatamodeld", "Advanced.EvolutionDemo.V2.xcdatamodeld"])
    func theDemoBundlesMappingModelsAreAnotherBundles(bundle: String) throws {
        let path = Fixtures.coreStoreEvolution.appendingPathComponent(bundle).path
        let (models, told) = try Self.found(for: try ModelLoader.load(path: path), near: path)
        #expect(models.isEmpty)
        #expect(told.stale.isEmpty)
        #expect(told.elsewhere.count == 2)
        for (_, why) in told.elsewhere {
            #expect(why.contains("Advanced.EvolutionDemo.V1.xcdatamodeld"), "\(why)")
        }
        // The V1 bundle itself still finds them (one forwards, one backwards).
        let own = Fixtures.coreStoreEvolution.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld").path
        let (ownModels, ownTold) = try Self.found(for: try ModelLoader.load(path: own), near: own)
        #expect(ownModels.count == 2 && ownTold.stale.isEmpty && ownTold.elsewhere.isEmpty)
    }

    /// The same folder without the V1 bundle: the mapping models map the history's own entity and fit no other
    /// bundle, as a mapping model made before a version was edited — stale, still told.
    @Test func withoutTheOwningBundleTheyAreStale() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("other-models-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Fixtures.coreStoreEvolution, to: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld"))
        let path = folder.appendingPathComponent("Advanced.EvolutionDemo.xcdatamodeld").path
        let (models, told) = try Self.found(for: try ModelLoader.load(path: path), near: path)
        #expect(models.isEmpty)
        #expect(told.elsewhere.isEmpty)
        #expect(told.stale.map { ($0 as NSString).lastPathComponent }.sorted() == ["xcmapping.xml", "xcmapping.xml"])
        #expect(told.stale.allSatisfy { $0.contains("Advanced.EvolutionDemo.V") })
    }

    /// A mapping model naming this history's versions but mapping entities the history never had (Post, from
    /// another app) is another model's even with no bundle of it in the folder; one mapping the history's own
    /// entity, edited since, is stale.
    @Test func entitiesTheHistoryNeverHadMakeItAnotherModels() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("other-models-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.mappingModels.appendingPathComponent("Migration1to2.xcmappingmodel"),
            to: folder.appendingPathComponent("Migration1to2.xcmappingmodel"))
        let modelPath = folder.appendingPathComponent("Model.xcdatamodeld").path
        func history(_ entity: String) throws -> ModelHistory {
            try ModelHistory(
                versions: try ["CoreDataMigration_Example", "CoreDataMigration_Example 2"].map { name in
                    try ModelVersion(
                        name: name,
                        entities: [Entity(name: entity, attributes: [Attribute(name: "title", type: .string)])])
                })
        }
        let (_, other) = try Self.found(for: try history("Creature"), near: modelPath)
        #expect(other.stale.isEmpty)
        #expect(other.elsewhere.map(\.why) == ["0 of the 1 entities it maps are in the model"])
        let (_, own) = try Self.found(for: try history("Post"), near: modelPath)
        #expect(own.elsewhere.isEmpty && own.stale.count == 1)
    }
}
