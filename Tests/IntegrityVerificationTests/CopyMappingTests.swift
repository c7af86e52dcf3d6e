import DataGeneration
import Foundation
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import IntegrityVerification

/// Mapping models as Xcode compiles them (xcmappingmodel.md §5–6): a copy mapping whose new destination
/// properties have no value expression, and an undefined entity mapping, migrated and verified.
@Suite("Mapping models as Xcode compiles them")
struct CopyMappingTests {
    /// Version 2 gives `Shelf` an optional `note`, a `rating` with default 3 and a to-many `books` (required,
    /// minimum 0: an empty set is valid, lightweight.md (h)) whose inverse `Book.shelf` is new; `requiredCode`
    /// also gives `Book` a required `code` without default, which only Core Data's validation refuses.
    static func history(requiredCode: Bool, in folder: URL) throws -> ModelHistory {
        let code = requiredCode ? ", { name: code, type: String }" : ""
        let text = """
            versions:
              - name: V1
                entities:
                  - name: Shelf
                    attributes: [{ name: label, type: String }]
                  - name: Book
                    attributes: [{ name: title, type: String }]
              - name: V2
                entities:
                  - name: Shelf
                    attributes:
                      - { name: label, type: String }
                      - { name: note, type: String, optional: true }
                      - { name: rating, type: Integer 16, default: 3 }
                    relationships: [{ name: books, destination: Book, inverse: shelf, toMany: true, optional: false }]
                  - name: Book
                    attributes: [{ name: title, type: String }\(code)]
                    relationships: [{ name: shelf, destination: Shelf, inverse: books }]
            """
        let path = folder.appendingPathComponent("model.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try ModelLoader.load(path: path)
    }

    /// Copy mappings as Xcode writes them: an expression for each property the source has, none for the new ones.
    static func mapping(requiredCode: Bool) throws -> MappingModel {
        try MappingModelLoader.load(
            text: """
                sourceVersion: V1
                destinationVersion: V2
                entityMappings:
                  - name: ShelfToShelf
                    kind: copy
                    source: Shelf
                    destination: Shelf
                    attributes: { label: $source.label, note: , rating: }
                    relationships: { books: }
                  - name: BookToBook
                    kind: copy
                    source: Book
                    destination: Book
                    attributes: { title: $source.title\(requiredCode ? ", code: " : "") }
                    relationships: { shelf: }
                """, file: "v1-v2.yaml")
    }

    /// Generates a store at V1 with `shelves` shelves and `books` times as many books, migrates it with the copy
    /// mappings, and returns the history, the destination and the verifier's result.
    static func migrate(
        requiredCode: Bool, shelves: Int = 40, books: Double = 1, in folder: URL
    ) throws -> (history: ModelHistory, destination: String, verdict: VerificationResult) {
        let history = try history(requiredCode: requiredCode, in: folder)
        let (v1, v2) = (try history.requireVersion("V1"), try history.requireVersion("V2"))
        let source = folder.appendingPathComponent("source.sqlite").path
        let destination = folder.appendingPathComponent("destination.sqlite").path
        let dataset = Dataset(seed: 9, objects: ["Shelf": 1, "Book": books])
        _ = try StoreGenerator(version: v1, dataset: dataset, size: shelves).generate(at: source)
        let model = try mapping(requiredCode: requiredCode)
        _ = try MigrationManager(source: v1, destination: v2).migrate(
            storeAt: source, to: destination, mappingModels: [model])
        let verdict = try IntegrityVerifier(source: v1, destination: v2, mappingModels: [model])
            .verify(sourceStoreAt: source, destinationStoreAt: destination)
        return (history, destination, verdict)
    }

    /// The new optional attribute is nil, the defaulted one holds its default, the new to-many is an empty set
    /// (and its new inverse nil), every object and old value is carried over, and the verifier agrees.
    @Test func aCopyMappingLeavesNewPropertiesNilDefaultOrEmpty() throws {
        try withTemporaryFolder { folder in
            let (history, destination, verdict) = try Self.migrate(requiredCode: false, in: folder)
            #expect(verdict.passed, "\(verdict.violations)")
            #expect(verdict.notChecked.isEmpty, "\(verdict.notChecked)")
            let store = try Store.open(at: destination, version: try history.requireVersion("V2"), readOnly: true)
            let row = try store.connection.rows(
                "SELECT COUNT(*), COUNT(ZNOTE), SUM(ZRATING = 3), COUNT(ZLABEL) FROM ZSHELF")
            #expect(row.first?.map(\.int64) == [40, 0, 40, 40])
            #expect(try store.connection.scalar("SELECT COUNT(*) FROM ZBOOK WHERE ZSHELF IS NULL")?.int64 == 40)
            #expect(try store.connection.scalar("SELECT COUNT(ZTITLE) FROM ZBOOK")?.int64 == 40)
        }
    }

    /// A new required attribute without default and without expression: Xcode compiles it, Core Data runs it,
    /// and the destination's validation refuses the save when objects lack the value, with them counted; a
    /// store without books migrates and verifies.
    @Test func aRequiredValueWithoutDefaultFailsOnlyWhereObjectsLackIt() throws {
        try withTemporaryFolder { folder in
            #expect {
                _ = try Self.migrate(requiredCode: true, in: folder)
            } throws: { error in
                let text = "\(error)"
                return (error as? MigrationError)?.code == .validation
                    && text.contains("Book.code is required but nil: 40 objects")
            }
        }
        try withTemporaryFolder { folder in
            let (_, _, verdict) = try Self.migrate(requiredCode: true, books: 0, in: folder)
            #expect(verdict.passed, "\(verdict.violations)")
        }
    }

    /// wibosco's own Migration1to2 with an entity mapping added that names neither a source nor a destination
    /// entity (the undefined mapping Xcode compiles, rileytestut/Delta's `Mapping`): skipped, and the real
    /// version 1 store (1,001 posts) migrates to version 2 and verifies.
    @Test func anUndefinedEntityMappingIsSkippedWhenTheRealStoreMigrates() throws {
        let original = try String(
            contentsOf: Fixtures.mappingModels.appendingPathComponent("Migration1to2.xcmappingmodel/xcmapping.xml"),
            encoding: .utf8)
        let undefined = """
                <object type="XDDEVENTITYMAPPING" id="z199">
                    <attribute name="name" type="string">Mapping</attribute>
                    <attribute name="mappingtypename" type="string">Undefined</attribute>
                    <attribute name="mappingnumber" type="int16">2</attribute>
                    <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z104"></relationship>
                </object>
            </database>
            """
        var text = original.replacingOccurrences(
            of: #"destination="XDDEVENTITYMAPPING" idrefs="z105">"#,
            with: #"destination="XDDEVENTITYMAPPING" idrefs="z105 z199">"#)
        text = text.replacingOccurrences(of: "</database>", with: undefined)
        #expect(text.contains("z105 z199") && text.contains(#"id="z199""#), "the edits must apply")
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let (v1, v2) = (
            try history.requireVersion("CoreDataMigration_Example"),
            try history.requireVersion("CoreDataMigration_Example 2")
        )
        try withTemporaryFolder { folder in
            let bundle = folder.appendingPathComponent("Undefined.xcmappingmodel")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try text.write(to: bundle.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
            let model = try MappingModelLoader.load(path: bundle.path).identifyingVersions(in: history)
            #expect(model.entityMappings.map(\.name) == ["PostToPost"])
            try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { store in
                let destination = folder.appendingPathComponent("v2.sqlite").path
                let report = try MigrationManager(source: v1, destination: v2).migrate(
                    storeAt: store.path, to: destination, mappingModels: [model])
                #expect(report.objects["Post"] == 1001)
                let verdict = try IntegrityVerifier(source: v1, destination: v2, mappingModels: [model])
                    .verify(sourceStoreAt: store.path, destinationStoreAt: destination)
                #expect(verdict.passed, "\(verdict.violations)")
            }
        }
    }
}
