import Foundation
import ObjectModel
import Yams

/// Where a dataset was read from, for errors: the file and the line of each key (`relationships.Author.books`).
/// Not part of the dataset's value: two datasets that say the same are equal wherever they came from.
struct DatasetSource: Sendable, Hashable {
    /// The dataset file; nil for a dataset made in code.
    var file: String?
    /// The line of each key path, from 1.
    var lines: [String: Int] = [:]

    /// `file:line: ` of `key` (the file alone when the key has no line), or nothing for a dataset made in code.
    func place(of key: String) -> String {
        file.map { "\($0)\(lines[key].map { ":\($0)" } ?? ""): " } ?? ""
    }

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// Where in a dataset file the reader is, for errors.
struct DatasetContext: YAMLErrorContext {
    let file: String

    func malformed(_ message: String, at node: Node?) -> GenerationError {
        GenerationError("\(file)\(node?.mark.map { ":\($0.line)" } ?? ""): \(message)")
    }
}

typealias DatasetFields = YAMLFields<DatasetContext>

extension Dataset {
    static let keys = ["seed", "objects", "relationships", "attributes", "stringLength", "binaryLength", "nullRatio"]

    /// Reads a dataset file (YAML, or JSON, which YAML reads too). Unknown keys and values of the wrong shape
    /// are refused here; whether the dataset fits a model, and its bounds, are checked by ``StoreGenerator``,
    /// whose errors name this file and the key's line.
    ///
    /// - Throws: ``GenerationError`` naming the file, the line and the key of what is wrong.
    public static func load(path: String) throws(GenerationError) -> Dataset {
        let context = DatasetContext(file: path)
        let text: String
        do {
            text = try InputLimits.readText(path)
        } catch {
            throw GenerationError("\(path): \(error.message)")
        }
        let composed: Node?
        do {
            composed = try composeYAML(text, file: path)
        } catch {
            throw GenerationError("\(path)\(error.line.map { ":\($0)" } ?? ""): \(error.message)")
        }
        var dataset = Dataset()
        var lines: [String: Int] = [:]
        if let root = composed {
            let fields = try DatasetFields(root, what: "a dataset", context: context)
            try fields.allow(keys)
            for entry in fields.entries { lines[entry.key] = entry.keyNode.mark?.line }
            if let seed = try fields.string("seed") {
                guard let value = UInt64(seed) else {
                    throw context.malformed(
                        "'seed' must be a whole number from 0, not '\(seed)'", at: fields.value("seed"))
                }
                dataset.seed = value
            }
            for (key, node) in try entries(fields, "objects", context: context, lines: &lines) {
                dataset.objects[key] = try number(node, key: "objects.\(key)", context: context)
            }
            for (key, node) in try entries(fields, "relationships", context: context, lines: &lines) {
                let fill = try DatasetFields(node, what: "'relationships.\(key)'", context: context)
                try fill.allow(["fill", "count"] + FanOutShape.keys)
                dataset.relationships[key] = RelationshipFill(
                    fill: try fill.value("fill").map { node throws(GenerationError) in
                        try number(node, key: "relationships.\(key).fill", context: context)
                    },
                    count: try fill.value("count").map { node throws(GenerationError) in
                        try range(node, key: "relationships.\(key).count", context: context)
                    })
                dataset.relationships[key]?.shape = try fanOutShape(fill, key: "relationships.\(key)", context: context)
            }
            for (key, node) in try entries(fields, "attributes", context: context, lines: &lines) {
                let fill = try DatasetFields(node, what: "'attributes.\(key)'", context: context)
                try fill.allow(["nullRatio", "length", "distinct"] + AttributeShape.keys)
                dataset.attributes[key] = AttributeFill(
                    nullRatio: try fill.value("nullRatio").map { node throws(GenerationError) in
                        try number(node, key: "attributes.\(key).nullRatio", context: context)
                    },
                    length: try fill.value("length").map { node throws(GenerationError) in
                        try range(node, key: "attributes.\(key).length", context: context)
                    },
                    distinct: try fill.int("distinct"))
                dataset.attributes[key]?.shape = try attributeShape(fill, key: "attributes.\(key)", context: context)
            }
            if let node = fields.value("stringLength") {
                dataset.stringLength = try range(node, key: "stringLength", context: context)
            }
            if let node = fields.value("binaryLength") {
                dataset.binaryLength = try range(node, key: "binaryLength", context: context)
            }
            if let node = fields.value("nullRatio") {
                dataset.nullRatio = try number(node, key: "nullRatio", context: context)
            }
        }
        dataset.source = DatasetSource(file: path, lines: lines)
        return dataset
    }

    /// The entries of the mapping at `key` (`objects`, `relationships`, `attributes`), each key's line recorded
    /// as `key.entry`.
    private static func entries(
        _ fields: DatasetFields, _ key: String, context: DatasetContext, lines: inout [String: Int]
    ) throws(GenerationError) -> [(String, Node)] {
        guard let node = fields.value(key) else { return [] }
        let inner = try DatasetFields(node, what: "'\(key)'", context: context)
        for entry in inner.entries { lines["\(key).\(entry.key)"] = entry.keyNode.mark?.line }
        return inner.entries.map { ($0.key, $0.value) }
    }

    static func number(_ node: Node, key: String, context: DatasetContext) throws(GenerationError) -> Double {
        guard let text = node.scalar?.string, let value = Double(text), value.isFinite else {
            throw context.malformed("'\(key)' must be a number", at: node)
        }
        return value
    }

    /// `[min, max]` with 0 ≤ min ≤ max, or one whole number.
    private static func range(_ node: Node, key: String, context: DatasetContext) throws(GenerationError) -> IntRange {
        if let text = node.scalar?.string, let value = Int(text), value >= 0 { return IntRange(value, value) }
        let items = node.sequence.map(Array.init) ?? []
        let values = items.compactMap { $0.scalar.flatMap { Int($0.string) } }
        guard items.count == 2, values.count == 2, values[0] >= 0, values[0] <= values[1] else {
            throw context.malformed("'\(key)' must be [min, max] with 0 ≤ min ≤ max, or one whole number", at: node)
        }
        return IntRange(values[0], values[1])
    }
}
