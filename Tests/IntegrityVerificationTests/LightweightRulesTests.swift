import DataGeneration
import Foundation
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import IntegrityVerification

/// Every rule of Core Data's lightweight migration (``LightweightCase/all``) through the engine's inference,
/// its in-place migration of a generated store, and the verifier, which re-derives the mapping on its own:
/// all four must agree with what Core Data does.
@Suite("Lightweight rules, one table for engine and verifier")
struct LightweightRulesTests {
    @Test(arguments: LightweightCase.all)
    func everyRuleAgreesEverywhere(_ rule: LightweightCase) throws {
        let source = try ModelVersion(name: "V1", entities: rule.source)
        let destination = try ModelVersion(name: "V2", entities: rule.destination)
        let plan: LightweightPlan
        do {
            plan = try MappingInference.plan(from: source, to: destination)
        } catch {
            guard case .refuses(let name, let entity, let property) = rule.outcome else {
                Issue.record("refused: \(error)")
                return
            }
            #expect(
                error.problems.contains { $0.rule.rawValue == name && $0.entity == entity && $0.property == property },
                "\(error)")
            return
        }
        if case .refuses = rule.outcome { Issue.record("inferred, but Core Data refuses: \(plan.changes)") }
        let listed = Set(plan.changes.map { "\([$0.entity] + ($0.property.map { [$0] } ?? []))" })
        for expected in rule.changes {
            let parts = expected.split(separator: " ").map(String.init)
            let subject = parts[0].split(separator: ".").map(String.init)
            #expect(
                plan.changes.contains {
                    $0.entity == subject[0] && $0.property == subject.dropFirst().first
                        && $0.change.rawValue == parts[1]
                }, "\(expected) not in \(plan.changes) (\(listed.count) subjects)")
        }
        let flagged = plan.changes.filter { $0.change == .needsValue }.map { "\($0.entity).\($0.property ?? "")" }
        if case .needsValue(let entity, let property) = rule.outcome {
            #expect(flagged == ["\(entity).\(property)"])
        } else {
            #expect(flagged.isEmpty, "\(flagged)")
        }
        #expect(
            plan.changes.contains { $0.change == .dataLoss } == rule.changes.contains { $0.hasSuffix(" dataLoss") },
            "\(plan.changes)")

        try withTemporaryFolder { folder in
            let store = try Self.generate(rule, version: source, size: 20, in: folder, name: "full")
            let migrated = folder.appendingPathComponent("migrated.sqlite").path
            try FileManager.default.copyItem(atPath: store, toPath: migrated)
            if case .needsValue(let entity, let property) = rule.outcome {
                #expect {
                    try InPlaceMigration(plan: plan).run(storeAt: migrated)
                } throws: { error in
                    (error as? MigrationError)?.code == .validation
                        && "\(error)".contains("(entity=\(entity), ") && "\(error)".contains("=\(property))")
                }
                // A store without objects of the entity migrates, and the verifier agrees.
                let empty = try Self.generate(rule, version: source, size: 0, in: folder, name: "empty")
                let emptied = folder.appendingPathComponent("empty-migrated.sqlite").path
                try FileManager.default.copyItem(atPath: empty, toPath: emptied)
                _ = try InPlaceMigration(plan: plan).run(storeAt: emptied)
                try Self.verify(source, destination, empty, emptied)
                return
            }
            _ = try InPlaceMigration(plan: plan).run(storeAt: migrated)
            try Self.verify(source, destination, store, migrated)
            for (to, from) in rule.kept {
                let before = try Self.setValues(from, in: store, version: source)
                #expect(before > 0, "\(from) has no values to carry")
                #expect(try Self.setValues(to, in: migrated, version: destination) == before, "\(to) ← \(from)")
            }
        }
    }

    static func generate(
        _ rule: LightweightCase, version: ModelVersion, size: Int, in folder: URL, name: String
    ) throws -> String {
        let path = folder.appendingPathComponent("\(name).sqlite").path
        let dataset = Dataset(
            seed: 5, objects: Dictionary(uniqueKeysWithValues: version.entities.map { ($0.name, 1.0) }),
            relationships: rule.fills.mapValues { RelationshipFill(fill: $0) }, nullRatio: 0.4)
        _ = try StoreGenerator(version: version, dataset: dataset, size: size).generate(at: path)
        return path
    }

    static func verify(_ source: ModelVersion, _ destination: ModelVersion, _ from: String, _ to: String) throws {
        let result = try IntegrityVerifier(source: source, destination: destination)
            .verify(sourceStoreAt: from, destinationStoreAt: to)
        #expect(result.passed, "\(result.summary)")
        #expect(result.notChecked.isEmpty, "\(result.notChecked)")
    }

    /// How many objects hold a value of stored attribute or to-one `Entity.property`.
    static func setValues(_ key: String, in path: String, version: ModelVersion) throws -> Int64 {
        let parts = key.split(separator: ".").map(String.init)
        let store = try Store.open(at: path, version: version)
        let table = store.layout.table(for: parts[0])
        let column = try #require(table.column(for: parts[1], of: parts[0], version: version))
        return try store.connection.scalar(
            "SELECT COUNT(\(quoted(column.name))) FROM \(quoted(table.name)) WHERE Z_ENT = "
                + "\(store.layout.entityNumbers[parts[0]]!)")?.int64 ?? 0
    }
}
