public import Foundation

/// Real files written by Xcode and Core Data, each folder under the MIT licence kept beside it:
/// wibosco/CoreDataMigration-Example (the top level: the model bundle, `Mappings/`, `stores/`; `Fixtures/LICENSE`),
/// alemar11/CoreDataPlus (`coredataplus/`), JohnEstropia/CoreStore (`corestore-evolution/`) and
/// wojciech-kulik/CoreDataVsRealm (`coredatavsrealm/`). `shared/fixtures/README.md` says what each shows.
///
/// Tests never open the store files in place: SQLite folds a `-wal` file into its store when it opens it,
/// which would destroy the fixture. ``withStoreCopy(_:_:)`` hands out a private copy instead.
public enum Fixtures {
    /// The folder that holds the fixture files.
    public static var root: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures", isDirectory: true)
    }

    /// The four-version Xcode model bundle `CoreDataMigration_Example.xcdatamodeld`.
    public static var modelBundle: URL {
        root.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld", isDirectory: true)
    }

    /// wibosco's two Xcode mapping models, `Migration1to2.xcmappingmodel` and `Migration2to3.xcmappingmodel`.
    public static var mappingModels: URL { root.appendingPathComponent("Mappings", isDirectory: true) }

    /// CoreDataPlus: `SampleModel/` (bundle, stores V1 and V2, `V2toV3.xcmappingmodel` and its compiled `.cdm`)
    /// and `SampleModel3/` (bundle and a store at version 1).
    public static var coreDataPlus: URL { root.appendingPathComponent("coredataplus", isDirectory: true) }

    /// CoreStore's EvolutionDemo bundles and its two mapping models, one of them a downgrade.
    public static var coreStoreEvolution: URL {
        root.appendingPathComponent("corestore-evolution", isDirectory: true)
    }

    /// CoreDataVsRealm's two-version model and its `v1_to_v2` mapping model (String → Integer 16).
    public static var coreDataVsRealm: URL { root.appendingPathComponent("coredatavsrealm", isDirectory: true) }

    /// The fixture stores and the model version each was written at.
    public static let stores: [(file: String, version: String)] = [
        ("CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example"),
        ("CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example 2"),
        ("CoreDataMigration_Example_3.sqlite", "CoreDataMigration_Example 3"),
        ("CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration_Example 4"),
    ]

    /// Every fixture store Core Data wrote (those of `../shared/fixtures`) with its model bundle.
    public static var allStores: [(store: URL, bundle: URL)] {
        let sampleModel = coreDataPlus.appendingPathComponent("SampleModel")
        let bundle = sampleModel.appendingPathComponent("SampleModel.xcdatamodeld")
        return stores.map { (root.appendingPathComponent("stores").appendingPathComponent($0.file), modelBundle) } + [
            (sampleModel.appendingPathComponent("Fixtures/SampleModel_V1.sqlite"), bundle),
            (sampleModel.appendingPathComponent("Fixtures/SampleModel_V2.sqlite"), bundle),
            (
                coreDataPlus.appendingPathComponent("SampleModel3/Fixtures/SampleModel3_V1.sqlite"),
                coreDataPlus.appendingPathComponent("SampleModel3/SampleModel3.xcdatamodeld")
            ),
        ]
    }

    /// Copies the store `file` (and its `-wal` sidecar, if any) into a fresh temporary folder, runs `body`
    /// with the copy's URL, and removes the folder afterwards, also when `body` throws.
    public static func withStoreCopy<R>(_ file: String, _ body: (URL) throws -> R) throws -> R {
        try withStoreCopy(at: root.appendingPathComponent("stores").appendingPathComponent(file), body)
    }

    /// Copies the store at `source` (any fixture store, e.g. under ``coreDataPlus``) with its `-wal` sidecar,
    /// if any, into a fresh temporary folder, runs `body` with the copy's URL, and removes the folder afterwards.
    public static func withStoreCopy<R>(at source: URL, _ body: (URL) throws -> R) throws -> R {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString)")
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(source.lastPathComponent)
        try manager.copyItem(at: source, to: copy)
        let wal = URL(fileURLWithPath: source.path + "-wal")
        if manager.fileExists(atPath: wal.path) {
            try manager.copyItem(at: wal, to: URL(fileURLWithPath: copy.path + "-wal"))
        }
        return try body(copy)
    }
}
