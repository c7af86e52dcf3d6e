import Foundation
import Yams

/// Reads our own model files: YAML, or JSON (which is read as YAML, so errors keep their line numbers).
///
/// A file holds all versions of a model, oldest first:
///
/// ```yaml
/// currentVersion: V2          # optional; default: the last version
/// versions:
///   - name: V1
///     entities:
///       - name: Author
///         attributes:
///           - { name: name, type: String }
///           - { name: born, type: Date, optional: true }
///         relationships:
///           - { name: books, destination: Book, inverse: author, toMany: true, deleteRule: Cascade }
/// ```
///
/// or a single version (top-level `name` and `entities`). Keys:
/// - version: `name`, `entities`, `versionIdentifiers`;
/// - entity: `name`, `parent`, `abstract`, `attributes`, `relationships`, `renamingIdentifier`,
///   `versionHashModifier`, `uniquenessConstraints` (a list of lists of property names; a single name is a
///   one-property constraint), `indexes` (`{ name, properties }`), `userInfo`;
/// - attribute: `name`, `type`, `optional` (default false), `transient`, `default`, `renamingIdentifier`,
///   `versionHashModifier`, `allowsExternalBinaryDataStorage`, `preserveAfterDeletion`, `indexed`, `userInfo`;
/// - relationship: `name`, `destination`, `inverse`, `toMany`, `ordered`, `optional` (default true), `transient`,
///   `minCount`, `maxCount`, `deleteRule`, `renamingIdentifier`, `versionHashModifier`, `indexed`, `userInfo`.
///
/// Unknown keys are errors. Types are Xcode's names (`Integer 16`, `String`, …), also written without spaces
/// in any case (`integer32`, `string`), or `int16`/`int32`/`int64`/`bool`. Defaults are read as Xcode reads
/// `defaultValueString`; dates also as ISO 8601 text, binary values as base64.
enum ModelFileReader {
    private static let versionKeys = ["name", "entities", "versionIdentifiers"]
    private static let entityKeys = [
        "name", "parent", "abstract", "attributes", "relationships", "renamingIdentifier", "versionHashModifier",
        "uniquenessConstraints", "indexes", "userInfo",
    ]
    private static let attributeKeys = [
        "name", "type", "optional", "transient", "default", "renamingIdentifier", "versionHashModifier",
        "allowsExternalBinaryDataStorage", "preserveAfterDeletion", "indexed", "userInfo",
    ]
    private static let relationshipKeys = [
        "name", "destination", "inverse", "toMany", "ordered", "optional", "transient", "minCount", "maxCount",
        "deleteRule", "renamingIdentifier", "versionHashModifier", "indexed", "userInfo",
    ]

    /// Reads the model file at `path`.
    static func read(path: String, currentVersion: String?, order: [String]?) throws(ModelError) -> ModelHistory {
        let text: String
        do {
            text = try InputLimits.readText(path)
        } catch {
            throw ModelError(.unreadableFile, error.message, file: path)
        }
        return try read(text: text, file: path, currentVersion: currentVersion, order: order)
    }

    /// Reads model-file `text`; `file` names it in errors.
    static func read(
        text: String,
        file: String,
        currentVersion: String?,
        order: [String]?
    ) throws(ModelError) -> ModelHistory {
        let context = YAMLContext(file: file)
        let root: Node?
        do {
            root = try composeYAML(text, file: file)
        } catch {
            throw ModelError(.malformedFile, error.message, file: file, line: error.line)
        }
        guard let root, !YAMLMapping.isNull(root) else {
            throw ModelError(.emptyModel, "the file is empty", file: file)
        }
        let top = try YAMLMapping(root, what: "the model file", context: context)
        var versionNodes: [Node]
        var fileCurrent: String?
        if top.has("versions") {
            try top.allow(["currentVersion", "versions"])
            versionNodes = try top.list("versions")
            fileCurrent = try top.string("currentVersion")
        } else if top.has("entities") || top.has("name") {
            try top.allow(versionKeys)
            versionNodes = [root]
        } else {
            throw context.error(
                .malformedFile, "expected 'versions' (a list of versions), or 'name' and 'entities' (one version)",
                at: root)
        }
        var versions: [ModelVersion] = []
        for node in versionNodes {
            versions.append(try readVersion(node, context: context))
        }
        versions = try ModelLoader.arrange(versions, name: \.name, by: order, file: file)
        return try ModelHistory(versions: versions, currentVersion: currentVersion ?? fileCurrent, source: file)
    }

    // MARK: - Parts

    private static func readVersion(_ node: Node, context: YAMLContext) throws(ModelError) -> ModelVersion {
        var mapping = try YAMLMapping(node, what: "a version", context: context)
        let name = try mapping.requiredString("name", of: "a version")
        mapping.context.version = name
        try mapping.allow(versionKeys)
        var lines = SourceLines(file: context.file, versionLine: mapping.line)
        var warnings: [String] = []
        var entities: [Entity] = []
        for entityNode in try mapping.list("entities") {
            entities.append(try readEntity(entityNode, context: mapping.context, lines: &lines, warnings: &warnings))
        }
        return try lines.makeVersion(
            name: name, entities: entities, versionIdentifiers: try mapping.strings("versionIdentifiers"),
            warnings: warnings)
    }

    private static func readEntity(
        _ node: Node,
        context: YAMLContext,
        lines: inout SourceLines,
        warnings: inout [String]
    ) throws(ModelError) -> Entity {
        var mapping = try YAMLMapping(node, what: "an entity", context: context)
        let name = try mapping.requiredString("name", of: "an entity")
        mapping.context.entity = name
        try mapping.allow(entityKeys)
        lines.record(entity: name, line: mapping.line)
        var entity = Entity(
            name: name, parent: try mapping.string("parent"), isAbstract: try mapping.bool("abstract") ?? false,
            renamingIdentifier: try mapping.string("renamingIdentifier"),
            versionHashModifier: try mapping.string("versionHashModifier"), userInfo: try mapping.stringMap("userInfo"))
        for item in try mapping.list("attributes") {
            let attribute = try readAttribute(item, context: mapping.context, warnings: &warnings)
            lines.record(property: attribute.name, of: name, line: item.mark?.line)
            entity.attributes.append(attribute)
        }
        for item in try mapping.list("relationships") {
            let relationship = try readRelationship(item, context: mapping.context)
            lines.record(property: relationship.name, of: name, line: item.mark?.line)
            entity.relationships.append(relationship)
        }
        for item in try mapping.list("uniquenessConstraints") {
            if let sequence = item.sequence {
                entity.uniquenessConstraints.append(
                    try YAMLMapping.strings(Array(sequence), key: "uniquenessConstraints", context: mapping.context))
            } else {
                entity.uniquenessConstraints.append(
                    try YAMLMapping.strings([item], key: "uniquenessConstraints", context: mapping.context))
            }
        }
        for item in try mapping.list("indexes") {
            let index = try YAMLMapping(item, what: "an index", context: mapping.context)
            try index.allow(["name", "properties"])
            let properties = try index.strings("properties")
            guard !properties.isEmpty else {
                throw mapping.context.error(.malformedFile, "an index needs 'properties'", at: item)
            }
            let indexName = try index.string("name") ?? "by" + properties.joined(separator: "_")
            entity.indexes.append(Index(name: indexName, properties: properties))
        }
        return entity
    }

    private static func readAttribute(
        _ node: Node,
        context: YAMLContext,
        warnings: inout [String]
    ) throws(ModelError) -> Attribute {
        var mapping = try YAMLMapping(node, what: "an attribute", context: context)
        let name = try mapping.requiredString("name", of: "an attribute")
        mapping.context.property = name
        try mapping.allow(attributeKeys)
        var type = AttributeType.undefined
        if let typeName = try mapping.string("type") {
            guard let known = attributeType(named: typeName) else {
                let expected = AttributeType.allCases.map(\.rawValue).joined(separator: ", ")
                throw mapping.context.error(
                    .unknownAttributeType, "unknown attribute type '\(typeName)' (expected one of: \(expected))",
                    at: mapping.value("type"))
            }
            type = known
        }
        var attribute = Attribute(
            name: name, type: type, isOptional: try mapping.bool("optional") ?? false,
            isTransient: try mapping.bool("transient") ?? false,
            renamingIdentifier: try mapping.string("renamingIdentifier"),
            versionHashModifier: try mapping.string("versionHashModifier"),
            allowsExternalBinaryDataStorage: try mapping.bool("allowsExternalBinaryDataStorage") ?? false,
            preserveAfterDeletion: try mapping.bool("preserveAfterDeletion") ?? false,
            isIndexed: try mapping.bool("indexed") ?? false, userInfo: try mapping.stringMap("userInfo"))
        if let valueNode = mapping.value("default") {
            guard let text = valueNode.scalar?.string else {
                throw mapping.context.error(.invalidDefaultValue, "'default' must be a single value", at: valueNode)
            }
            guard let (value, coercion) = defaultValue(text, type: type) else {
                throw mapping.context.error(
                    .invalidDefaultValue, "default value '\(text)' is not a valid \(type.rawValue)", at: valueNode)
            }
            if let coercion {
                warnings.append(
                    mapping.context.error(.invalidDefaultValue, "default value \(coercion)", at: valueNode).description)
            }
            attribute.defaultValue = value
        }
        return attribute
    }

    private static func readRelationship(_ node: Node, context: YAMLContext) throws(ModelError) -> Relationship {
        var mapping = try YAMLMapping(node, what: "a relationship", context: context)
        let name = try mapping.requiredString("name", of: "a relationship")
        mapping.context.property = name
        try mapping.allow(relationshipKeys)
        let destination = try mapping.requiredString("destination", of: "a relationship")
        var deleteRule = DeleteRule.nullify
        if let ruleName = try mapping.string("deleteRule") {
            let key = normalized(ruleName)
            guard let rule = DeleteRule.allCases.first(where: { normalized($0.rawValue) == key }) else {
                let expected = DeleteRule.allCases.map(\.rawValue).joined(separator: ", ")
                throw mapping.context.error(
                    .invalidProperty, "unknown delete rule '\(ruleName)' (expected one of: \(expected))",
                    at: mapping.value("deleteRule"))
            }
            deleteRule = rule
        }
        return Relationship(
            name: name, destination: destination, inverse: try mapping.string("inverse"),
            isToMany: try mapping.bool("toMany") ?? false, isOrdered: try mapping.bool("ordered") ?? false,
            isOptional: try mapping.bool("optional") ?? true, isTransient: try mapping.bool("transient") ?? false,
            minCount: try mapping.int("minCount") ?? 0, maxCount: try mapping.int("maxCount"), deleteRule: deleteRule,
            renamingIdentifier: try mapping.string("renamingIdentifier"),
            versionHashModifier: try mapping.string("versionHashModifier"),
            isIndexed: try mapping.bool("indexed") ?? false, userInfo: try mapping.stringMap("userInfo"))
    }

    // MARK: - Values

    /// The attribute type named `name`: Xcode's name, the same without spaces in any case, or a short alias.
    static func attributeType(named name: String) -> AttributeType? {
        if let type = AttributeType(rawValue: name) { return type }
        let key = normalized(name)
        let aliases: [String: AttributeType] = [
            "int16": .integer16, "int32": .integer32, "int64": .integer64, "bool": .boolean,
        ]
        return aliases[key] ?? AttributeType.allCases.first { normalized($0.rawValue) == key }
    }

    /// Reads a default value: as Xcode's `defaultValueString`, dates also as ISO 8601, binary data as base64.
    static func defaultValue(_ text: String, type: AttributeType) -> (value: AttributeValue, coercion: String?)? {
        switch type {
        case .date:
            if let seconds = Double(text.trimmingCharacters(in: .whitespaces)) { return (.date(seconds), nil) }
            return isoDate(text).map { (.date($0.timeIntervalSinceReferenceDate), nil) }
        case .binary, .transformable:
            return Data(base64Encoded: text).map { (.binary(Array($0)), nil) }
        default:
            return AttributeValue.parse(text, as: type)
        }
    }

    private static func isoDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        let options: [ISO8601DateFormatter.Options] = [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ]
        for option in options {
            formatter.formatOptions = option
            if let date = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) { return date }
        }
        return nil
    }

    private static func normalized(_ name: String) -> String {
        name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" }
    }
}
