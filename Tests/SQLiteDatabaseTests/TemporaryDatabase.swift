import Foundation

/// Runs `body` with the URL of a database file in a fresh temporary folder, and removes the folder afterwards,
/// also when `body` throws. The file itself is not created.
func withTemporaryDatabase<R>(_ body: (URL) throws -> R) throws -> R {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("SQLiteDatabaseTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder.appendingPathComponent("test.sqlite"))
}

/// An error thrown by test bodies to exercise clean-up paths.
struct ExpectedFailure: Error, Equatable {}
