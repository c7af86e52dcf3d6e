import DataGeneration
import Foundation
import MigrationEngine
import ObjectModel
import Testing

@testable import IntegrityVerification

/// An optional attribute made required with a default: a lightweight step fills the objects that had no
/// value with the default, and the verifier expects exactly that.
@Suite("Optional made required with a default")
struct RequiredWithDefaultTests {
    static func step() throws -> Step {
        let item = { (optional: Bool) in
            Entity(
                name: "Item",
                attributes: [
                    Attribute(name: "label", type: .string),
                    Attribute(
                        name: "pages", type: .integer32, isOptional: optional,
                        defaultValue: optional ? nil : .integer(7)),
                ])
        }
        return Step(
            source: try ModelVersion(name: "V1", entities: [item(true)]),
            destination: try ModelVersion(name: "V2", entities: [item(false)]),
            dataset: Dataset(seed: 3, objects: ["Item": 1], attributes: ["Item.pages": AttributeFill(nullRatio: 0.5)]),
            size: 200)
    }

    @Test(arguments: [Step.Migration.inPlace, .engine(MigrationOptions(storage: .streaming))])
    func theDefaultFillsMissingValuesAndVerifiesClean(migration: Step.Migration) throws {
        let step = try Self.step()
        try step.withMigratedStores(how: migration) { source, destination in
            let result = try step.verify(source, destination)
            #expect(result.passed, "\(result.summary)")

            try Shelf.corrupt(destination, "UPDATE ZITEM SET ZPAGES = 8 WHERE ZPAGES = 7")
            let corrupted = try step.verify(source, destination)
            #expect((corrupted.group(.attributeValue, "Item", "pages")?.count ?? 0) > 0, "\(corrupted.summary)")
        }
    }
}
