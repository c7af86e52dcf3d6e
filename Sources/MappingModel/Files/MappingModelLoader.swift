import Foundation
import ObjectModel
import Yams

/// Reads mapping models from YAML or JSON files (JSON is read as YAML, so errors keep their line numbers).
///
/// ```yaml
/// name: V1toV2                                   # optional; default: the file name
/// sourceVersion: CoreDataMigration_Example       # optional; checked when given
/// destinationVersion: CoreDataMigration_Example 2
/// entityMappings:
///   - name: PostToPost                           # optional; default: PostToPost, AddPost, RemovePost
///     kind: transform                            # add, remove, copy, transform or custom
///     source: Post
///     destination: Post
///     sourceHash: 1b5e…                          # optional, 64 hex digits or base64; checked when given
///     filter: "$source.postID != nil"            # optional
///     policy: MyPolicy                           # optional (required for custom)
///     attributes:
///       hexColor: $source.color
///     relationships:
///       author: 'FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "author", $source.author)'
///     userInfo: { note: "…" }
/// ```
///
/// A property's value is its expression, nothing (left to the policy or default), or
/// `{ expression: …, userInfo: { … } }`. Unknown keys are errors.
public enum MappingModelLoader {
    private static let topKeys = ["name", "sourceVersion", "destinationVersion", "entityMappings"]
    private static let mappingKeys = [
        "name", "kind", "source", "destination", "sourceHash", "destinationHash", "filter", "policy", "attributes",
        "relationships", "userInfo",
    ]

    /// Reads the mapping model at `path`: an Xcode `.xcmappingmodel` folder (or its `xcmapping.xml`), a
    /// compiled `.cdm`, or a YAML/JSON mapping file.
    ///
    /// - Throws: ``MappingError`` naming the file, line, key, entity mapping and property (for an Xcode
    ///   file: the object and field).
    public static func load(path: String) throws(MappingError) -> MappingModel {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if trimmed.hasSuffix(".xcmappingmodel") || trimmed.hasSuffix("xcmapping.xml") {
            return try XcodeMappingReader.load(path: trimmed)
        }
        if trimmed.hasSuffix(".cdm") { return try CompiledMappingReader.load(path: trimmed) }
        let text = try readText(path: path)
        let base = (path as NSString).lastPathComponent
        let name = (base as NSString).deletingPathExtension
        return try load(text: text, file: path, defaultName: name)
    }

    /// Reads mapping-file `text`; `file` names it in errors, `defaultName` is the name when the text has none.
    public static func load(
        text: String, file: String, defaultName: String = "Mapping"
    ) throws(MappingError)
        -> MappingModel
    {
        let root = try composeDocument(text, file: file)
        let context = MappingFileContext(file: file)
        let top = try MappingFileFields(root, what: "the mapping file", context: context)
        try top.allow(topKeys)
        guard let listNode = top.value("entityMappings") else {
            throw context.error(.malformedFile, "the mapping file has no 'entityMappings'", at: root)
        }
        guard let items = listNode.sequence else {
            throw context.error(.malformedFile, "'entityMappings' must be a list", at: listNode)
        }
        var lines = MappingFileLines(file: file)
        lines.record(top.line(of: "sourceVersion"), mapping: nil, key: "sourceVersion")
        lines.record(top.line(of: "destinationVersion"), mapping: nil, key: "destinationVersion")
        var mappings: [EntityMapping] = []
        for item in items {
            mappings.append(try readEntityMapping(item, context: context, lines: &lines))
        }
        var model = MappingModel(
            name: try top.string("name") ?? defaultName, sourceVersion: try top.string("sourceVersion"),
            destinationVersion: try top.string("destinationVersion"), entityMappings: mappings)
        model.lines = lines
        return model
    }

    private static func readEntityMapping(
        _ node: Node,
        context: MappingFileContext,
        lines: inout MappingFileLines
    ) throws(MappingError) -> EntityMapping {
        var fields = try MappingFileFields(node, what: "an entity mapping", context: context)
        let kindName = try fields.requiredString("kind", of: "an entity mapping")
        let source = try fields.string("source")
        let destination = try fields.string("destination")
        let defaultName =
            source.map { src in destination.map { "\(src)To\($0)" } ?? "Remove\(src)" }
            ?? destination.map { "Add\($0)" } ?? "Mapping"
        let name = try fields.string("name") ?? defaultName
        fields.context.mapping = name
        try fields.allow(mappingKeys)
        guard let kind = EntityMapping.Kind(rawValue: kindName) else {
            let kinds = EntityMapping.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw fields.context.error(
                .malformedFile, "unknown kind '\(kindName)' (expected one of: \(kinds))", at: fields.value("kind"))
        }
        lines.record(fields.line, mapping: name)
        for key in mappingKeys { lines.record(fields.line(of: key), mapping: name, key: key) }
        var mapping = EntityMapping(
            name: name, kind: kind, sourceEntity: source, destinationEntity: destination,
            sourceEntityVersionHash: try hash("sourceHash", in: fields),
            destinationEntityVersionHash: try hash("destinationHash", in: fields),
            sourceFilter: try fields.string("filter"), policy: try fields.string("policy"),
            userInfo: try fields.stringMap("userInfo"))
        if let problem = mapping.kindProblem {
            throw fields.context.error(.invalidKind, problem, at: fields.value("kind"))
        }
        mapping.attributeMappings = try properties("attributes", in: fields, lines: &lines)
        mapping.relationshipMappings = try properties("relationships", in: fields, lines: &lines)
        if mapping.kind == .remove && !(mapping.attributeMappings.isEmpty && mapping.relationshipMappings.isEmpty) {
            throw fields.context.error(
                .invalidKind, "a remove mapping has no attribute or relationship mappings",
                at: fields.value("attributes") ?? fields.value("relationships"))
        }
        return mapping
    }

    private static func hash(_ key: String, in fields: MappingFileFields) throws(MappingError) -> VersionHash? {
        guard let text = try fields.string(key) else { return nil }
        if let hash = VersionHash(hex: text) { return hash }
        if let data = Data(base64Encoded: text), let hash = VersionHash(bytes: Array(data)) { return hash }
        throw fields.context.error(
            .malformedFile, "'\(key)' must be 64 hexadecimal digits or the base64 text of 32 bytes, not '\(text)'",
            at: fields.value(key))
    }

    private static func properties(
        _ key: String,
        in fields: MappingFileFields,
        lines: inout MappingFileLines
    ) throws(MappingError) -> [PropertyMapping] {
        guard let node = fields.value(key) else { return [] }
        let entries = try MappingFileFields(node, what: "'\(key)'", context: fields.context).entries
        var result: [PropertyMapping] = []
        for entry in entries {
            var context = fields.context
            context.property = entry.key
            lines.record(entry.keyNode.mark?.line, mapping: context.mapping, key: key, property: entry.key)
            var property = PropertyMapping(name: entry.key)
            if entry.value.mapping != nil {
                let details = try MappingFileFields(entry.value, what: "a property mapping", context: context)
                try details.allow(["expression", "userInfo"])
                property.valueExpression = try details.string("expression")
                property.userInfo = try details.stringMap("userInfo")
            } else if !MappingFileFields.isNull(entry.value) {
                guard let text = entry.value.scalar?.string else {
                    throw context.error(
                        .malformedFile,
                        "a property's value must be an expression, nothing, or "
                            + "{ expression, userInfo }", at: entry.value)
                }
                property.valueExpression = text
            }
            result.append(property)
        }
        return result
    }

    /// The UTF-8 text of the file at `path`.
    static func readText(path: String) throws(MappingError) -> String {
        do {
            return try InputLimits.readText(path)
        } catch {
            throw MappingError(.unreadableFile, error.message, file: path)
        }
    }

    /// The root node of the YAML `text` of `file`, which must not be empty.
    static func composeDocument(_ text: String, file: String) throws(MappingError) -> Node {
        let root: Node?
        do {
            root = try composeYAML(text, file: file)
        } catch {
            throw MappingError(.malformedFile, error.message, file: file, line: error.line)
        }
        guard let root, !MappingFileFields.isNull(root) else {
            throw MappingError(.malformedFile, "the file is empty", file: file)
        }
        return root
    }
}
