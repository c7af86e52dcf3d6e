import Foundation
import ObjectModel
import Yams

/// The keys `shape` adds to dataset files (``AttributeShape``, ``FanOutShape``): read here, written here.
extension Dataset {
    /// The shape keys of an attribute entry, or nil when it has none.
    static func attributeShape(
        _ fields: DatasetFields, key: String, context: DatasetContext
    ) throws(GenerationError) -> AttributeShape? {
        guard AttributeShape.keys.contains(where: fields.has) else { return nil }
        var shape = AttributeShape()
        shape.quantiles = try quantiles(fields, "\(key).quantiles", "quantiles", context: context)
        shape.lengths = try quantiles(fields, "\(key).lengths", "lengths", context: context)
        if let node = fields.value("distinctShare") {
            let share = try number(node, key: "\(key).distinctShare", context: context)
            guard (0...1).contains(share) else {
                throw context.malformed("'\(key).distinctShare' must be between 0 and 1", at: node)
            }
            shape.distinctShare = share
        }
        if let node = fields.value("frequencies") {
            let table = try DatasetFields(node, what: "'\(key).frequencies'", context: context)
            var frequencies: [String: Double] = [:]
            for entry in table.entries {
                let share = try number(entry.value, key: "\(key).frequencies.\(entry.key)", context: context)
                guard (0...1).contains(share) else {
                    throw context.malformed(
                        "'\(key).frequencies.\(entry.key)' must be between 0 and 1", at: entry.value)
                }
                frequencies[entry.key] = share
            }
            shape.frequencies = frequencies
        }
        return shape
    }

    /// The shape keys of a relationship entry, or nil when it has none; `fanOut` is required with the others.
    static func fanOutShape(
        _ fields: DatasetFields, key: String, context: DatasetContext
    ) throws(GenerationError) -> FanOutShape? {
        guard FanOutShape.keys.contains(where: fields.has) else { return nil }
        guard let fanOut = try quantiles(fields, "\(key).fanOut", "fanOut", context: context) else {
            throw context.malformed("'\(key)' gives 'empty' or 'shared' without 'fanOut'", at: fields.node)
        }
        guard fanOut.values[0] >= 0 else { throw context.malformed("'\(key).fanOut' must be from 0", at: fields.node) }
        let empty = try fields.value("empty").map { node throws(GenerationError) in
            try number(node, key: "\(key).empty", context: context)
        }
        let shared = try fields.value("shared").map { node throws(GenerationError) in
            try number(node, key: "\(key).shared", context: context)
        }
        let mean = try fields.value("mean").map { node throws(GenerationError) in
            try number(node, key: "\(key).mean", context: context)
        }
        let inKeyOrder = try fields.value("inKeyOrder").map { node throws(GenerationError) in
            try number(node, key: "\(key).inKeyOrder", context: context)
        }
        let byKey = try quantiles(fields, "\(key).byKey", "byKey", context: context)
        if let byKey, byKey.values[0] < 0 || byKey.values[byKey.values.count - 1] > 1 {
            throw context.malformed("'\(key).byKey' must be key positions from 0 to 1", at: fields.value("byKey"))
        }
        if let mean, !(0...Double(InputLimits.fanOut)).contains(mean) {
            throw context.malformed("'\(key).mean' must be from 0 to \(InputLimits.fanOut)", at: fields.value("mean"))
        }
        for (name, value) in [("empty", empty), ("shared", shared), ("inKeyOrder", inKeyOrder)]
        where value.map({ !(0...1).contains($0) }) ?? false {
            throw context.malformed("'\(key).\(name)' must be between 0 and 1", at: fields.value(name))
        }
        return FanOutShape(
            fanOut: fanOut, empty: empty ?? 0, mean: mean, shared: shared, inKeyOrder: inKeyOrder, byKey: byKey)
    }

    private static func quantiles(
        _ fields: DatasetFields, _ key: String, _ name: String, context: DatasetContext
    ) throws(GenerationError) -> Quantiles? {
        guard let node = fields.value(name) else { return nil }
        let items = node.sequence.map(Array.init) ?? []
        let values = items.compactMap { $0.scalar.flatMap { Double($0.string) } }
        guard values.count == items.count, let quantiles = Quantiles(values: values) else {
            throw context.malformed(
                "'\(key)' must be \(Quantiles.levels.count) ascending numbers (the quantiles p0, p5, …, p95, p96, "
                    + "p97, p98, p99, p99.5, p99.9, p100)", at: node)
        }
        return quantiles
    }

    /// The dataset as a YAML file: the header comment, then every key in a stable order, one entry a line.
    public func shapeFileText(header: [String]) -> String {
        var lines = header.map { "# \($0)" }
        lines.append("seed: \(seed)")
        lines.append("objects:")
        for (name, multiple) in objects.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(Self.yamlKey(name)): \(Self.number(multiple))")
        }
        if !relationships.isEmpty {
            lines.append("relationships:")
            for (name, fill) in relationships.sorted(by: { $0.key < $1.key }) {
                var parts: [String] = []
                if let value = fill.fill { parts.append("fill: \(Self.number(value))") }
                if let count = fill.count { parts.append("count: [\(count.min), \(count.max)]") }
                if let shape = fill.shape {
                    parts.append("fanOut: \(Self.list(shape.fanOut))")
                    parts.append("empty: \(Self.number(shape.empty))")
                    if let mean = shape.mean { parts.append("mean: \(Self.number(mean))") }
                    if let shared = shape.shared { parts.append("shared: \(Self.number(shared))") }
                    if let order = shape.inKeyOrder { parts.append("inKeyOrder: \(Self.number(order))") }
                    if let byKey = shape.byKey { parts.append("byKey: \(Self.list(byKey))") }
                }
                lines.append("  \(Self.yamlKey(name)): { \(parts.joined(separator: ", ")) }")
            }
        }
        if !attributes.isEmpty {
            lines.append("attributes:")
            for (name, fill) in attributes.sorted(by: { $0.key < $1.key }) {
                var parts: [String] = []
                if let value = fill.nullRatio { parts.append("nullRatio: \(Self.number(value))") }
                if let length = fill.length { parts.append("length: [\(length.min), \(length.max)]") }
                if let distinct = fill.distinct { parts.append("distinct: \(distinct)") }
                if let shape = fill.shape {
                    if let quantiles = shape.quantiles { parts.append("quantiles: \(Self.list(quantiles))") }
                    if let lengths = shape.lengths { parts.append("lengths: \(Self.list(lengths))") }
                    if let share = shape.distinctShare { parts.append("distinctShare: \(Self.number(share))") }
                    if let frequencies = shape.frequencies {
                        let table = frequencies.sorted { $0.key < $1.key }.map {
                            "\(Self.yamlKey($0.key)): \(Self.number($0.value))"
                        }
                        parts.append("frequencies: { \(table.joined(separator: ", ")) }")
                    }
                }
                lines.append("  \(Self.yamlKey(name)): { \(parts.joined(separator: ", ")) }")
            }
        }
        lines.append("stringLength: [\(stringLength.min), \(stringLength.max)]")
        lines.append("binaryLength: [\(binaryLength.min), \(binaryLength.max)]")
        lines.append("nullRatio: \(Self.number(nullRatio))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The dataset as JSON (which dataset files may be too), keys sorted.
    public func shapeFileJSON() throws -> String {
        func fill(_ fill: AttributeFill) -> [String: Any] {
            var entry: [String: Any] = [:]
            entry["nullRatio"] = fill.nullRatio
            entry["length"] = fill.length.map { [$0.min, $0.max] }
            entry["distinct"] = fill.distinct
            entry["quantiles"] = fill.shape?.quantiles?.values
            entry["lengths"] = fill.shape?.lengths?.values
            entry["distinctShare"] = fill.shape?.distinctShare
            entry["frequencies"] = fill.shape?.frequencies
            return entry
        }
        func fill(_ fill: RelationshipFill) -> [String: Any] {
            var entry: [String: Any] = [:]
            entry["fill"] = fill.fill
            entry["count"] = fill.count.map { [$0.min, $0.max] }
            entry["fanOut"] = fill.shape?.fanOut.values
            entry["empty"] = fill.shape?.empty
            entry["mean"] = fill.shape?.mean
            entry["shared"] = fill.shape?.shared
            entry["inKeyOrder"] = fill.shape?.inKeyOrder
            entry["byKey"] = fill.shape?.byKey?.values
            return entry
        }
        let object: [String: Any] = [
            "seed": seed, "objects": objects, "relationships": relationships.mapValues(fill),
            "attributes": attributes.mapValues(fill), "stringLength": [stringLength.min, stringLength.max],
            "binaryLength": [binaryLength.min, binaryLength.max], "nullRatio": nullRatio,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A number as YAML reads it back exactly: whole numbers without a fraction, others in Swift's shortest form.
    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func list(_ quantiles: Quantiles) -> String {
        "[\(quantiles.values.map(number).joined(separator: ", "))]"
    }

    /// A key quoted when YAML would read it as something else than the plain string.
    private static func yamlKey(_ key: String) -> String {
        let plain = key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }
        return plain && !["true", "false", "null", "yes", "no", "on", "off", "~"].contains(key.lowercased())
            ? key
            : "\"\(key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
    }
}

extension Dataset {
    /// Checks the shape keys against `version`: `fanOut` on to-many relationships only, lengths and fan-outs
    /// within the documented bounds, frequencies on booleans and integers only.
    func checkShapes(against version: ModelVersion) throws(GenerationError) {
        for (name, fill) in relationships.sorted(by: { $0.key < $1.key }) {
            guard let shape = fill.shape else { continue }
            let key = "relationships.\(name)"
            let (entity, property) = Self.split(name)
            if version.relationship(property, of: entity)?.isToMany == false {
                throw error(key, "'fanOut' is for to-many relationships; use 'fill'")
            }
            if shape.fanOut.values.last! > Double(InputLimits.fanOut) {
                throw error(key, "'fanOut' exceeds the limit of \(InputLimits.fanOut)")
            }
        }
        for (name, fill) in attributes.sorted(by: { $0.key < $1.key }) {
            guard let shape = fill.shape else { continue }
            let key = "attributes.\(name)"
            if let lengths = shape.lengths,
                lengths.values.first! < 0 || lengths.values.last! > Double(InputLimits.valueLength)
            {
                throw error(key, "'lengths' must be within 0…\(InputLimits.valueLength)")
            }
            let (entity, property) = Self.split(name)
            let type = version.attribute(property, of: entity)?.type
            if shape.frequencies != nil, type?.integerRange == nil {
                throw error(key, "'frequencies' are for boolean and integer attributes")
            }
            for value in (shape.frequencies ?? [:]).keys where Int64(value) == nil && type != .boolean {
                throw error(key, "'frequencies' has '\(value)', which is not a whole number")
            }
        }
    }
}
