import DataGeneration
import Foundation
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures

@testable import IntegrityVerification

/// A small library model whose V1 → V2 step renames `Book.title` to `name` and adds `Book.isbn`, with an ordered
/// one-to-many, a many-to-many with a maximum count, a one-to-one and a uniqueness constraint.
enum Shelf {
    static func entities(renamed: Bool) -> [Entity] {
        let author = Entity(
            name: "Author",
            attributes: [
                Attribute(name: "name", type: .string), Attribute(name: "born", type: .date, isOptional: true),
            ],
            relationships: [
                Relationship(name: "books", destination: "Book", inverse: "author", isToMany: true, isOrdered: true),
                Relationship(name: "tags", destination: "Tag", inverse: "authors", isToMany: true, maxCount: 3),
            ])
        var bookAttributes = [
            Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32, isOptional: true),
        ]
        if renamed {
            bookAttributes = [
                Attribute(name: "name", type: .string, renamingIdentifier: "title"),
                Attribute(name: "pages", type: .integer32, isOptional: true),
                Attribute(name: "isbn", type: .string, isOptional: true),
            ]
        }
        let book = Entity(
            name: "Book", attributes: bookAttributes,
            relationships: [
                Relationship(name: "author", destination: "Author", inverse: "books", isOptional: false),
                Relationship(name: "cover", destination: "Cover", inverse: "book"),
            ])
        let cover = Entity(
            name: "Cover", attributes: [Attribute(name: "color", type: .string)],
            relationships: [Relationship(name: "book", destination: "Book", inverse: "cover")])
        let tag = Entity(
            name: "Tag", attributes: [Attribute(name: "label", type: .string)],
            relationships: [Relationship(name: "authors", destination: "Author", inverse: "tags", isToMany: true)],
            uniquenessConstraints: [["label"]])
        return [author, book, cover, tag]
    }

    static func v1() throws -> ModelVersion { try ModelVersion(name: "V1", entities: entities(renamed: false)) }
    static func v2() throws -> ModelVersion { try ModelVersion(name: "V2", entities: entities(renamed: true)) }

    static let dataset = Dataset(
        seed: 5, objects: ["Author": 0.25, "Book": 1, "Cover": 0.5, "Tag": 0.2],
        relationships: [
            "Author.tags": RelationshipFill(count: IntRange(0, 3)), "Book.cover": RelationshipFill(fill: 0.5),
        ],
        attributes: ["Tag.label": AttributeFill(nullRatio: 0, length: IntRange(20, 24))])

    /// Migrates a fresh V1 store with the engine into `v2.sqlite` in a temporary folder, then calls `body`.
    static func withMigratedStores<R>(
        storage: StorageMode = .streaming,
        mappings: [MappingModel] = [],
        _ body: (_ source: String, _ destination: String) throws -> R
    ) throws -> R {
        let step = try Step(source: v1(), destination: v2(), dataset: dataset, size: 120)
        return try step.withMigratedStores(
            how: .engine(MigrationOptions(storage: storage)), mappings: mappings, body)
    }

    /// Verifies `destination` against `source` with the inferred correspondence, or `mappings`; with
    /// `rowsPerRange`, comparing objects in ranges of that many source keys, as a large store's are.
    static func verify(
        _ source: String, _ destination: String, mappings: [MappingModel] = [], rowsPerRange: Int64? = nil
    ) throws
        -> VerificationResult
    {
        let verifier = try IntegrityVerifier(source: try v1(), destination: try v2(), mappingModels: mappings)
        guard let rowsPerRange else {
            return try verifier.verify(sourceStoreAt: source, destinationStoreAt: destination)
        }
        return try verifier.verify(sourceStoreAt: source, destinationStoreAt: destination, rowsPerRange: rowsPerRange)
    }

    /// Runs `sql` on the store at `path`, outside the verifier.
    static func corrupt(_ path: String, _ sql: String) throws {
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute(sql)
    }
}

/// One migration step under test: two versions, a generated source store, and how the engine migrates it.
struct Step: Sendable {
    /// How the destination store is made.
    enum Migration: Sendable {
        /// The three-stage engine, with the mapping models as given or split one pass per entity mapping.
        case engine(MigrationOptions, perEntityPasses: Bool = false)
        /// The in-place lightweight step: SQL on a copy of the source store.
        case inPlace
    }

    let source: ModelVersion
    let destination: ModelVersion
    let dataset: Dataset
    let size: Int

    /// Generates the source store, migrates it into `v2.sqlite` (the inferred mapping when `mappings` is
    /// empty), then calls `body` with both paths; everything lives in a temporary folder.
    func withMigratedStores<R>(
        how migration: Migration,
        mappings: [MappingModel] = [],
        policies: PolicyRegistry = .builtIn(),
        _ body: (_ source: String, _ destination: String) throws -> R
    ) throws -> R {
        try withTemporaryFolder { folder in
            let sourcePath = folder.appendingPathComponent("v1.sqlite").path
            let destinationPath = folder.appendingPathComponent("v2.sqlite").path
            _ = try StoreGenerator(version: source, dataset: dataset, size: size).generate(at: sourcePath)
            switch migration {
            case .inPlace:
                try FileManager.default.copyItem(atPath: sourcePath, toPath: destinationPath)
                _ = try InPlaceMigration(plan: MappingInference.plan(from: source, to: destination))
                    .run(storeAt: destinationPath)
            case .engine(let options, let perEntityPasses):
                let models = try mappings.isEmpty ? [MappingInference.infer(from: source, to: destination)] : mappings
                _ = try MigrationManager(source: source, destination: destination, policies: policies, options: options)
                    .migrate(
                        storeAt: sourcePath, to: destinationPath,
                        mappingModels: perEntityPasses ? models.flatMap(PassSplit.perEntity) : models)
            }
            return try body(sourcePath, destinationPath)
        }
    }

    /// Verifies `destinationPath` against `sourcePath`, with `mappings` (one per pass) or the inferred one.
    func verify(
        _ sourcePath: String, _ destinationPath: String, mappings: [MappingModel] = []
    ) throws
        -> VerificationResult
    {
        try IntegrityVerifier(source: source, destination: destination, mappingModels: mappings)
            .verify(sourceStoreAt: sourcePath, destinationStoreAt: destinationPath)
    }
}

extension VerificationResult {
    /// The group of `kind` on `entity` and `property`, if any.
    func group(_ kind: ViolationKind, _ entity: String?, _ property: String? = nil) -> ViolationGroup? {
        violations.first { $0.kind == kind && $0.entity == entity && $0.property == property }
    }

    /// `kind entity.property ×count` per group, for failure messages.
    var summary: String {
        let groups = violations.map { group in
            "\(group.kind.rawValue) \([group.entity, group.property].compactMap { $0 }.joined(separator: ".")) "
                + "×\(group.count) \(group.examples.first?.detail ?? "")"
        }
        let skipped = notChecked.map { "not checked: \($0.kind.rawValue) \($0.entity ?? "") \($0.reason)" }
        return (groups + skipped).joined(separator: "\n")
    }
}
