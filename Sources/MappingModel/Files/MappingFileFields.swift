import Yams

/// Where in a mapping file the reader is: the file, and the entity mapping and property being read.
struct MappingFileContext {
    var file: String
    var mapping: String?
    var property: String?

    /// An error at `node`'s line that names this place.
    func error(_ code: MappingError.Code, _ message: String, at node: Node?) -> MappingError {
        MappingError(code, message, file: file, line: node?.mark?.line, mapping: mapping, property: property)
    }
}

/// One YAML mapping of a mapping file, read key by key; errors name the file, line and key.
struct MappingFileFields {
    /// The mapping node itself.
    let node: Node
    /// Where the mapping is.
    var context: MappingFileContext
    /// The entries, in the order written.
    let entries: [(key: String, keyNode: Node, value: Node)]

    /// Wraps `node`, which must be a mapping with plain string keys; `what` names it in errors.
    init(_ node: Node, what: String, context: MappingFileContext) throws(MappingError) {
        guard let mapping = node.mapping else {
            throw context.error(.malformedFile, "\(what) must be a mapping of keys to values", at: node)
        }
        var entries: [(key: String, keyNode: Node, value: Node)] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                throw context.error(.malformedFile, "a key of \(what) is not a plain name", at: key)
            }
            entries.append((name, key, value))
        }
        self.node = node
        self.context = context
        self.entries = entries
    }

    /// The line of the mapping.
    var line: Int? { node.mark?.line }

    /// The line of `key`, when present.
    func line(of key: String) -> Int? { entries.last { $0.key == key }?.keyNode.mark?.line }

    /// Rejects any key not in `allowed`, to catch typos.
    func allow(_ allowed: [String]) throws(MappingError) {
        for entry in entries where !allowed.contains(entry.key) {
            throw context.error(
                .malformedFile, "unknown key '\(entry.key)' (expected one of: \(allowed.joined(separator: ", ")))",
                at: entry.keyNode)
        }
    }

    /// The value of `key`, or nil when it is absent or null.
    func value(_ key: String) -> Node? {
        guard let value = entries.last(where: { $0.key == key })?.value else { return nil }
        return Self.isNull(value) ? nil : value
    }

    /// The text of the scalar at `key`.
    func string(_ key: String) throws(MappingError) -> String? {
        guard let value = value(key) else { return nil }
        guard let scalar = value.scalar else {
            throw context.error(.malformedFile, "'\(key)' must be a single value, not a list or mapping", at: value)
        }
        return scalar.string
    }

    /// The text at `key`, which must be present and not empty.
    func requiredString(_ key: String, of what: String) throws(MappingError) -> String {
        guard let text = try string(key), !text.isEmpty else {
            throw context.error(.malformedFile, "\(what) has no '\(key)'", at: node)
        }
        return text
    }

    /// The mapping of texts to texts at `key` (user info); empty when absent.
    func stringMap(_ key: String) throws(MappingError) -> [String: String] {
        guard let value = value(key) else { return [:] }
        guard let mapping = value.mapping else {
            throw context.error(.malformedFile, "'\(key)' must be a mapping of keys to values", at: value)
        }
        var result: [String: String] = [:]
        for (entryKey, entryValue) in mapping {
            guard let name = entryKey.scalar?.string, let text = entryValue.scalar?.string else {
                throw context.error(.malformedFile, "'\(key)' must map names to single values", at: entryKey)
            }
            result[name] = Self.isNull(entryValue) ? "" : text
        }
        return result
    }

    /// Whether `node` is a plain null scalar (`~`, `null` or nothing).
    static func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain || scalar.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }
}
