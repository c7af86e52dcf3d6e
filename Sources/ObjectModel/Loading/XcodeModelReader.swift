import Foundation

/// Reads Xcode model bundles (`Name.xcdatamodeld`) and single versions (`Version.xcdatamodel`).
///
/// A bundle is a folder of version folders, each holding an XML `contents` file, plus an optional
/// `.xccurrentversion` property list naming the current version (see `shared/formats/xcdatamodel.md`).
enum XcodeModelReader {
    private static let versionExtension = ".xcdatamodel"

    /// Reads every version of the bundle at `path` (or those that `order` names, in that order).
    static func readBundle(path: String, currentVersion: String?, order: [String]?) throws(ModelError) -> ModelHistory {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ModelError(.unreadableFile, "cannot list the bundle (\(error.localizedDescription))", file: path)
        }
        let candidates = entries.filter { $0.hasSuffix(versionExtension) && !$0.hasPrefix(".") }.sorted()
        // A version entry that is no folder — a symbolic link that loops or leads nowhere, a file — was skipped,
        // and the bundle read without that version.
        for entry in candidates where !isFolder(join(path, entry)) {
            let link = try? FileManager.default.destinationOfSymbolicLink(atPath: join(path, entry))
            throw ModelError(
                .unreadableFile,
                link == nil
                    ? "the version entry is not a folder"
                    : "the version folder is a symbolic link that loops or leads nowhere (to '\(link!)')",
                file: join(path, entry))
        }
        let names = candidates.map { String($0.dropLast(versionExtension.count)) }
        guard !names.isEmpty else {
            throw ModelError(.emptyModel, "the bundle holds no \(versionExtension) version folders", file: path)
        }
        let ordered = try ModelLoader.arrange(
            ModelLoader.naturalVersionOrder(names), name: { $0 }, by: order, file: path)

        var current = currentVersion
        if current == nil, let bundleCurrent = try readCurrentVersionName(bundle: path) {
            guard names.contains(bundleCurrent) else {
                throw ModelError(
                    .unknownVersion,
                    "the current version '\(bundleCurrent)' is not in the bundle, which holds: "
                        + ModelLoader.naturalVersionOrder(names).joined(separator: ", "),
                    file: join(path, ".xccurrentversion"))
            }
            current = bundleCurrent
        }

        var versions: [ModelVersion] = []
        for name in ordered {
            versions.append(try readVersion(folder: join(path, name + versionExtension), name: name))
        }
        return try ModelHistory(versions: versions, currentVersion: current, source: path)
    }

    /// Reads a lone `Version.xcdatamodel` folder as a history of one version.
    static func readSingleVersion(
        path: String,
        currentVersion: String?,
        order: [String]?
    ) throws(ModelError) -> ModelHistory {
        let folderName = URL(fileURLWithPath: path).lastPathComponent
        let name = String(folderName.dropLast(versionExtension.count))
        let names = try ModelLoader.arrange([name], name: { $0 }, by: order, file: path)
        var versions: [ModelVersion] = []
        for name in names {
            versions.append(try readVersion(folder: path, name: name))
        }
        return try ModelHistory(versions: versions, currentVersion: currentVersion, source: path)
    }

    /// Reads one version folder's `contents`.
    static func readVersion(folder: String, name: String) throws(ModelError) -> ModelVersion {
        let contents = join(folder, "contents")
        let manager = FileManager.default
        guard manager.fileExists(atPath: contents) else {
            if manager.fileExists(atPath: join(folder, "elements"))
                || manager.fileExists(atPath: join(folder, "layout"))
            {
                throw ModelError(
                    .legacyBinaryBundle,
                    "Xcode 3 binary model (elements/layout files, no contents); open and re-save it in a current Xcode",
                    file: folder, version: name)
            }
            throw ModelError(.unreadableFile, "the version folder has no contents file", file: folder, version: name)
        }
        let data: Data
        do {
            data = try InputLimits.read(contents)
        } catch {
            throw ModelError(.unreadableFile, error.message, file: contents, version: name)
        }
        return try XcodeContentsParser.parse(data: data, file: contents, version: name)
    }

    /// The version that the bundle's `.xccurrentversion` names, without its extension; nil when the file is
    /// missing, empty or names none.
    static func readCurrentVersionName(bundle: String) throws(ModelError) -> String? {
        let file = join(bundle, ".xccurrentversion")
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let data: Data
        do {
            data = try InputLimits.read(file)
        } catch {
            throw ModelError(.unreadableFile, error.message, file: file)
        }
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return nil }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ModelError(.malformedFile, "not a property list (\(InputLimits.describe(error)))", file: file)
        }
        guard let dictionary = plist as? [String: Any] else {
            throw ModelError(.malformedFile, "the property list is not a dictionary", file: file)
        }
        guard let folderName = dictionary["_XCCurrentVersionName"] as? String, !folderName.isEmpty else { return nil }
        return folderName.hasSuffix(versionExtension) ? String(folderName.dropLast(versionExtension.count)) : folderName
    }

    private static func join(_ folder: String, _ name: String) -> String { ModelLoader.join(folder, name) }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
