public import Foundation

/// Real files written by Xcode and Core Data (wibosco/CoreDataMigration-Example, MIT; see Fixtures/LICENSE).
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

    /// The fixture stores and the model version each was written at.
    public static let stores: [(file: String, version: String)] = [
        ("CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example"),
        ("CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example 2"),
        ("CoreDataMigration_Example_3.sqlite", "CoreDataMigration_Example 3"),
        ("CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration_Example 4"),
    ]

    /// Copies the store `file` (and its `-wal` sidecar, if any) into a fresh temporary folder, runs `body`
    /// with the copy's URL, and removes the folder afterwards, also when `body` throws.
    public static func withStoreCopy<R>(_ file: String, _ body: (URL) throws -> R) throws -> R {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString)")
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: folder) }
        let source = root.appendingPathComponent("stores").appendingPathComponent(file)
        let copy = folder.appendingPathComponent(file)
        try manager.copyItem(at: source, to: copy)
        let wal = URL(fileURLWithPath: source.path + "-wal")
        if manager.fileExists(atPath: wal.path) {
            try manager.copyItem(at: wal, to: URL(fileURLWithPath: copy.path + "-wal"))
        }
        return try body(copy)
    }
}
