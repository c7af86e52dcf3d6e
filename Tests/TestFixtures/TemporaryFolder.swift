public import Foundation

/// Creates a fresh temporary folder, runs `body` with its URL, and removes the folder afterwards, also when
/// `body` throws.
public func withTemporaryFolder<R>(_ body: (URL) throws -> R) throws -> R {
    let manager = FileManager.default
    let folder = manager.temporaryDirectory.appendingPathComponent("mb-test-\(UUID().uuidString)")
    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? manager.removeItem(at: folder) }
    return try body(folder)
}

/// Writes `text` to `name` inside `folder` (creating intermediate folders) and returns the file's path.
@discardableResult
public func write(_ text: String, to name: String, in folder: URL) throws -> String {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url.path
}
