import Foundation

/// How a report names a file: relative to the working directory when the file lies under it, else absolute;
/// with `.`, `..` and symbolic links resolved by the file system, so that `Scenarios/../Tests/x.cdm` reads
/// `Tests/x.cdm` and names the very file that was read. A path that cannot be resolved is shown as given.
enum DisplayPath {
    static func of(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        let absolute = String(cString: resolved)
        guard let here = realpath(FileManager.default.currentDirectoryPath, nil) else { return absolute }
        defer { free(here) }
        let directory = String(cString: here)
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
