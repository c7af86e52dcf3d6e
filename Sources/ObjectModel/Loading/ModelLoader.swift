import Foundation

/// Reads a ``ModelHistory`` from a model file or an Xcode model bundle.
///
/// Three kinds of path are understood, by their extension:
/// - `Name.xcdatamodeld`: an Xcode bundle of versions, each a `Version.xcdatamodel` folder with a `contents` file;
/// - `Version.xcdatamodel`: a single Xcode model version;
/// - `.yaml`, `.yml` or `.json`: a model file of our own (see ``ModelWriter`` for its format).
///
/// ```swift
/// let history = try ModelLoader.load(path: "Scenarios/models/Library.xcdatamodeld")
/// let history2 = try ModelLoader.load(path: "Model.xcdatamodeld", order: ["Model", "Model 2", "Model 10"])
/// ```
public enum ModelLoader {
    /// Reads a model history from a path: an `.xcdatamodeld` bundle, a single `.xcdatamodel` folder, a YAML
    /// (.yaml/.yml) or JSON (.json) model file of our own.
    ///
    /// `currentVersion` overrides the bundle's `.xccurrentversion` / the file's `currentVersion`.
    ///
    /// `order` gives the version order explicitly, oldest first, by name; the history then holds exactly those
    /// versions (the others are neither read nor validated), so that a long history can be cut down. Without
    /// it, a model file keeps the order in which it lists its versions, and an Xcode bundle is sorted by
    /// ``naturalVersionOrder(_:)``, a convenience that suits names such as `Model`, `Model 2` … `Model 10`.
    ///
    /// - Throws: ``ModelError`` naming the file, line, version, entity and property at fault.
    public static func load(
        path: String,
        currentVersion: String? = nil,
        order: [String]? = nil
    ) throws(ModelError) -> ModelHistory {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            throw ModelError(.unreadableFile, "no such file or folder", file: trimmed)
        }
        let fileExtension = URL(fileURLWithPath: trimmed).pathExtension.lowercased()
        switch fileExtension {
        case "xcdatamodeld" where isDirectory.boolValue:
            return try XcodeModelReader.readBundle(
                path: trimmed, currentVersion: currentVersion, order: order)
        case "xcdatamodel" where isDirectory.boolValue:
            return try XcodeModelReader.readSingleVersion(
                path: trimmed, currentVersion: currentVersion, order: order)
        case "yaml", "yml", "json":
            guard !isDirectory.boolValue else { fallthrough }
            return try ModelFileReader.read(path: trimmed, currentVersion: currentVersion, order: order)
        default:
            throw ModelError(
                .unreadableFile,
                "not a model: expected an .xcdatamodeld or .xcdatamodel folder, or a .yaml, .yml or .json file",
                file: trimmed)
        }
    }

    /// Sorts version names in natural order: runs of digits compare by their numeric value, everything else
    /// by Unicode code units, so `Model` < `Model 2` < `Model 10` and `App 1.9` < `App 1.10`.
    ///
    /// Version names follow no single rule, so this is only a convenience: give the order explicitly
    /// (``load(path:currentVersion:order:)``'s `order`) when the names do not sort this way.
    public static func naturalVersionOrder(_ names: [String]) -> [String] {
        names.sorted { lhs, rhs in
            switch naturalCompare(lhs, rhs) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
            }
        }
    }

    /// Orders `available` versions by `order`, or returns them unchanged when there is no order. The order must
    /// name every version once: a version left out would silently vanish from the history (a store at it then
    /// matches no version), so that is refused as a name it lacks is.
    static func arrange<Item>(
        _ available: [Item],
        name: (Item) -> String,
        by order: [String]?,
        file: String
    ) throws(ModelError) -> [Item] {
        guard let order else { return available }
        var byName: [String: Item] = [:]
        for item in available { byName[name(item)] = item }
        var result: [Item] = []
        for wanted in order {
            guard let item = byName[wanted] else {
                throw ModelError(
                    .unknownVersion,
                    "the version order names '\(wanted)', which is not one of: "
                        + available.map(name).joined(separator: ", "),
                    file: file)
            }
            guard !result.contains(where: { name($0) == wanted }) else {
                throw ModelError(.unknownVersion, "the version order names '\(wanted)' twice", file: file)
            }
            result.append(item)
        }
        let missing = available.map(name).filter { !order.contains($0) }
        guard missing.isEmpty else {
            throw ModelError(
                .unknownVersion,
                "the version order leaves out \(missing.map { "'\($0)'" }.joined(separator: ", ")): give every version "
                    + "of the model, oldest first",
                file: file)
        }
        return result
    }

    /// Joins a folder path and a name without turning a relative path into an absolute one.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func naturalCompare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let left = chunks(lhs)
        let right = chunks(rhs)
        for (a, b) in zip(left, right) {
            let result: ComparisonResult
            switch (a, b) {
            case (.number(let x), .number(let y)):
                result = compareDigits(x, y)
            case (.number, .text):
                result = .orderedAscending
            case (.text, .number):
                result = .orderedDescending
            case (.text(let x), .text(let y)):
                result =
                    x == y ? .orderedSame : x.lexicographicallyPrecedes(y) ? .orderedAscending : .orderedDescending
            }
            if result != .orderedSame { return result }
        }
        if left.count == right.count { return .orderedSame }
        return left.count < right.count ? .orderedAscending : .orderedDescending
    }

    private enum Chunk {
        case text([UInt16])
        case number([UInt16])
    }

    private static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

    private static func chunks(_ name: String) -> [Chunk] {
        var result: [Chunk] = []
        var current: [UInt16] = []
        var inNumber = false
        for unit in name.utf16 {
            if !current.isEmpty && isDigit(unit) != inNumber {
                result.append(inNumber ? .number(current) : .text(current))
                current = []
            }
            inNumber = isDigit(unit)
            current.append(unit)
        }
        if !current.isEmpty { result.append(inNumber ? .number(current) : .text(current)) }
        return result
    }

    /// Compares two runs of decimal digits by value, without overflow: fewer significant digits is smaller.
    private static func compareDigits(_ lhs: [UInt16], _ rhs: [UInt16]) -> ComparisonResult {
        let left = lhs.drop { $0 == 0x30 }
        let right = rhs.drop { $0 == 0x30 }
        if left.count != right.count { return left.count < right.count ? .orderedAscending : .orderedDescending }
        if left.elementsEqual(right) { return .orderedSame }
        return left.lexicographicallyPrecedes(right) ? .orderedAscending : .orderedDescending
    }
}
