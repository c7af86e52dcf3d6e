import Foundation

/// Writes a ``ModelHistory`` as a YAML model file of our own, which ``ModelLoader`` reads back.
///
/// Use it to convert an Xcode bundle into a file that is easy to read, diff and edit by hand:
///
/// ```swift
/// let history = try ModelLoader.load(path: "Library.xcdatamodeld")
/// try ModelWriter.write(history, toPath: "Scenarios/models/library.yaml")
/// ```
///
/// Only what differs from the defaults is written (`optional: false` on an attribute, `optional: true` on a
/// relationship, a to-one's `maxCount: 1` are left out). Reading the text back gives equal versions with
/// equal version hashes.
public enum ModelWriter {
    /// The YAML text of `history`, all versions oldest first, with its current version.
    public static func yamlText(of history: ModelHistory) -> String {
        var lines: [String] = []
        if let source = history.source {
            lines.append("# Model history read from \(URL(fileURLWithPath: source).lastPathComponent).")
        }
        lines.append("currentVersion: \(scalar(history.currentVersionName))")
        lines.append("versions:")
        for version in history.versions {
            lines.append("  - name: \(scalar(version.name))")
            if !version.versionIdentifiers.isEmpty {
                lines.append("    versionIdentifiers: \(list(version.versionIdentifiers))")
            }
            lines.append(version.entities.isEmpty ? "    entities: []" : "    entities:")
            for entity in version.entities {
                lines += entityLines(entity)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the YAML text of `history` to the file at `path`, replacing it.
    ///
    /// - Throws: ``ModelError`` with code `unreadableFile` when the file cannot be written.
    public static func write(_ history: ModelHistory, toPath path: String) throws(ModelError) {
        do {
            try Data(yamlText(of: history).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ModelError(.unreadableFile, "cannot write the file (\(error.localizedDescription))", file: path)
        }
    }

    // MARK: - Parts

    private static func entityLines(_ entity: Entity) -> [String] {
        var lines = ["      - name: \(scalar(entity.name))"]
        let indent = "        "
        if let parent = entity.parent { lines.append(indent + "parent: \(scalar(parent))") }
        if entity.isAbstract { lines.append(indent + "abstract: true") }
        if let identifier = entity.renamingIdentifier {
            lines.append(indent + "renamingIdentifier: \(scalar(identifier))")
        }
        if let modifier = entity.versionHashModifier {
            lines.append(indent + "versionHashModifier: \(scalar(modifier))")
        }
        if !entity.userInfo.isEmpty { lines.append(indent + "userInfo: \(map(entity.userInfo))") }
        if !entity.uniquenessConstraints.isEmpty {
            let constraints = entity.uniquenessConstraints.map(list).joined(separator: ", ")
            lines.append(indent + "uniquenessConstraints: [\(constraints)]")
        }
        if !entity.indexes.isEmpty {
            lines.append(indent + "indexes:")
            for index in entity.indexes {
                lines.append(indent + "  - { name: \(scalar(index.name)), properties: \(list(index.properties)) }")
            }
        }
        if !entity.attributes.isEmpty {
            lines.append(indent + "attributes:")
            lines += entity.attributes.map { indent + "  - " + flow(attributeFields($0)) }
        }
        if !entity.relationships.isEmpty {
            lines.append(indent + "relationships:")
            lines += entity.relationships.map { indent + "  - " + flow(relationshipFields($0)) }
        }
        return lines
    }

    private static func attributeFields(_ attribute: Attribute) -> [(String, String)] {
        var fields = [("name", scalar(attribute.name))]
        if attribute.type != .undefined { fields.append(("type", scalar(attribute.type.rawValue))) }
        if attribute.isOptional { fields.append(("optional", "true")) }
        if attribute.isTransient { fields.append(("transient", "true")) }
        if let value = attribute.defaultValue { fields.append(("default", text(of: value))) }
        fields += commonFields(attribute.renamingIdentifier, attribute.versionHashModifier)
        if attribute.allowsExternalBinaryDataStorage { fields.append(("allowsExternalBinaryDataStorage", "true")) }
        if attribute.preserveAfterDeletion { fields.append(("preserveAfterDeletion", "true")) }
        if attribute.isIndexed { fields.append(("indexed", "true")) }
        if !attribute.userInfo.isEmpty { fields.append(("userInfo", map(attribute.userInfo))) }
        return fields
    }

    private static func relationshipFields(_ relationship: Relationship) -> [(String, String)] {
        var fields = [("name", scalar(relationship.name)), ("destination", scalar(relationship.destination))]
        if let inverse = relationship.inverse { fields.append(("inverse", scalar(inverse))) }
        if relationship.isToMany { fields.append(("toMany", "true")) }
        if relationship.isOrdered { fields.append(("ordered", "true")) }
        if !relationship.isOptional { fields.append(("optional", "false")) }
        if relationship.isTransient { fields.append(("transient", "true")) }
        if relationship.minCount != 0 { fields.append(("minCount", "\(relationship.minCount)")) }
        if relationship.maxCount != (relationship.isToMany ? 0 : 1) {
            fields.append(("maxCount", "\(relationship.maxCount)"))
        }
        if relationship.deleteRule != .nullify {
            fields.append(("deleteRule", scalar(relationship.deleteRule.rawValue)))
        }
        fields += commonFields(relationship.renamingIdentifier, relationship.versionHashModifier)
        if relationship.isIndexed { fields.append(("indexed", "true")) }
        if !relationship.userInfo.isEmpty { fields.append(("userInfo", map(relationship.userInfo))) }
        return fields
    }

    private static func commonFields(_ renamingIdentifier: String?, _ modifier: String?) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let renamingIdentifier { fields.append(("renamingIdentifier", scalar(renamingIdentifier))) }
        if let modifier { fields.append(("versionHashModifier", scalar(modifier))) }
        return fields
    }

    // MARK: - YAML text

    /// A default value as the reader reads it back for the same attribute type.
    private static func text(of value: AttributeValue) -> String {
        switch value {
        case .integer(let number): "\(number)"
        case .double(let number): number.isFinite ? "\(number)" : quoted("\(number)")
        case .decimal(let text): quoted(text)
        case .string(let text): quoted(text)
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let seconds): "\(seconds)"
        case .binary(let bytes): quoted(Data(bytes).base64EncodedString())
        case .uuid(let uuid): quoted(uuid.uuidString)
        case .uri(let text): quoted(text)
        }
    }

    private static func flow(_ fields: [(String, String)]) -> String {
        "{ " + fields.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
    }

    private static func list(_ items: [String]) -> String {
        "[" + items.map(scalar).joined(separator: ", ") + "]"
    }

    private static func map(_ pairs: [String: String]) -> String {
        let entries = pairs.keys.sorted().map { "\(quoted($0)): \(quoted(pairs[$0] ?? ""))" }
        return "{ " + entries.joined(separator: ", ") + " }"
    }

    private static let reservedWords: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null"]

    /// `text` as a plain scalar when that reads back as the same text in any YAML context, else double-quoted.
    private static func scalar(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last,
            first.properties.isAlphabetic || first == "_", last != " ",
            scalars.allSatisfy({
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || " _.-".unicodeScalars.contains($0)
            }),
            !reservedWords.contains(text.lowercased())
        else { return quoted(text) }
        return text
    }

    /// `text` in YAML's double-quoted style, with every character that needs it escaped.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0xFEFF || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    result +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
