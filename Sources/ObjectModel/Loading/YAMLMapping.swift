import Foundation
package import Yams

/// Where in a model file the reader is: the file and the version, entity and property being read.
struct YAMLContext: YAMLErrorContext {
    var file: String
    var version: String?
    var entity: String?
    var property: String?

    /// An error at `node`'s line that names this place.
    func error(_ code: ModelError.Code, _ message: String, at node: Node?) -> ModelError {
        ModelError(
            code, message, file: file, line: node?.mark?.line, version: version, entity: entity, property: property)
    }
}

/// One mapping of a model file, read key by key with typed accessors whose errors name the file, line and key.

extension YAMLContext {
    func malformed(_ message: String, at node: Node?) -> ModelError {
        error(.malformedFile, message, at: node)
    }
}

/// The fields of a model file's YAML mapping, read with ``YAMLContext``'s errors.
typealias YAMLMapping = YAMLFields<YAMLContext>

/// Makes the error for a malformed YAML value, placed at its node: each kind of file brings its own error type.
package protocol YAMLErrorContext {
    /// The error type of the file being read.
    associatedtype Failure: Error
    /// An error for a value that is not what the file format expects, at `node`'s line.
    func malformed(_ message: String, at node: Node?) -> Failure
}

/// The keys and values of one YAML mapping, read with line numbers for every error: the shared reader of
/// model files and mapping files.
package struct YAMLFields<Context: YAMLErrorContext> {
    /// The mapping node itself.
    package let node: Node
    /// Where the mapping is.
    package var context: Context
    /// The entries in file order, with each key's node for its line.
    package let entries: [(key: String, keyNode: Node, value: Node)]

    /// Wraps `node`, which must be a mapping with plain string keys; `what` names it in errors.
    package init(_ node: Node, what: String, context: Context) throws(Context.Failure) {
        guard let mapping = node.mapping else {
            throw context.malformed("\(what) must be a mapping of keys to values", at: node)
        }
        var entries: [(key: String, keyNode: Node, value: Node)] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                throw context.malformed("a key of \(what) is not a plain name", at: key)
            }
            entries.append((name, key, value))
        }
        self.node = node
        self.context = context
        self.entries = entries
    }

    /// The line of the mapping.
    package var line: Int? { node.mark?.line }

    /// The line of `key`, when the mapping has it.
    package func line(of key: String) -> Int? { entries.last { $0.key == key }?.keyNode.mark?.line }

    /// Whether `key` is present (even with a null value).
    package func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// Rejects any key not in `allowed`, to catch typos.
    package func allow(_ allowed: [String]) throws(Context.Failure) {
        for entry in entries where !allowed.contains(entry.key) {
            throw context.malformed(
                "unknown key '\(entry.key)' (expected one of: \(allowed.joined(separator: ", ")))", at: entry.keyNode)
        }
    }

    /// The value of `key`, or nil when it is absent or null (`~`, `null` or nothing).
    package func value(_ key: String) -> Node? {
        guard let value = entries.last(where: { $0.key == key })?.value else { return nil }
        return Self.isNull(value) ? nil : value
    }

    /// The text of the scalar at `key`.
    package func string(_ key: String) throws(Context.Failure) -> String? {
        guard let value = value(key) else { return nil }
        guard let scalar = value.scalar else {
            throw context.malformed("'\(key)' must be a single value, not a list or mapping", at: value)
        }
        return scalar.string
    }

    /// The text of the scalar at `key`, which must be present and not empty.
    package func requiredString(_ key: String, of what: String) throws(Context.Failure) -> String {
        guard let text = try string(key), !text.isEmpty else {
            throw context.malformed("\(what) has no '\(key)'", at: node)
        }
        return text
    }

    /// The boolean at `key`: `true`/`false` (also `yes`/`no`).
    package func bool(_ key: String) throws(Context.Failure) -> Bool? {
        guard let text = try string(key) else { return nil }
        switch text.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default:
            throw context.malformed("'\(key)' must be true or false, not '\(text)'", at: value(key))
        }
    }

    /// The whole number at `key`.
    package func int(_ key: String) throws(Context.Failure) -> Int? {
        guard let text = try string(key) else { return nil }
        guard let number = Int(text) else {
            throw context.malformed("'\(key)' must be a whole number, not '\(text)'", at: value(key))
        }
        return number
    }

    /// The items of the list at `key`; empty when absent.
    package func list(_ key: String) throws(Context.Failure) -> [Node] {
        guard let value = value(key) else { return [] }
        guard let sequence = value.sequence else {
            throw context.malformed("'\(key)' must be a list", at: value)
        }
        return Array(sequence)
    }

    /// The list of names at `key`; empty when absent.
    package func strings(_ key: String) throws(Context.Failure) -> [String] {
        try Self.strings(list(key), key: key, context: context)
    }

    /// The texts of `nodes`, which must all be scalars.
    package static func strings(_ nodes: [Node], key: String, context: Context) throws(Context.Failure) -> [String] {
        var result: [String] = []
        for item in nodes {
            guard let text = item.scalar?.string, !isNull(item) else {
                throw context.malformed("'\(key)' must be a list of names", at: item)
            }
            result.append(text)
        }
        return result
    }

    /// The mapping of texts to texts at `key` (user info); empty when absent.
    package func stringMap(_ key: String) throws(Context.Failure) -> [String: String] {
        guard let value = value(key) else { return [:] }
        guard let mapping = value.mapping else {
            throw context.malformed("'\(key)' must be a mapping of keys to values", at: value)
        }
        var result: [String: String] = [:]
        for (entryKey, entryValue) in mapping {
            guard let name = entryKey.scalar?.string, let text = entryValue.scalar?.string else {
                throw context.malformed("'\(key)' must map names to single values", at: entryKey)
            }
            result[name] = Self.isNull(entryValue) ? "" : text
        }
        return result
    }

    /// Whether `node` is a plain null scalar (`~`, `null` or nothing).
    package static func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain || scalar.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }
}

/// Why a file's text is not YAML, with the line where the parser stopped: each kind of file turns it into its
/// own error.
package struct YAMLSyntaxError: Error {
    /// `not valid YAML: …` or `duplicate key(s): …`.
    package let message: String
    /// The line, from 1, when the parser knows it.
    package let line: Int?
}

/// Parses the text of a model, mapping or scenario file into nodes that keep their line numbers. A `.json`
/// file is read as YAML once its tabs, which JSON allows as white space and YAML does not, are spaces (valid
/// JSON has no raw tab inside a string).
///
/// Composed with Yams' `Resolver.basic` (no implicit typing): every reader takes a scalar's text and
/// converts it itself, so the default resolver's seven regular expressions, compiled on first use (about 17
/// million instructions, more than reading a whole model file), would buy nothing. Duplicate keys are still
/// found: two keys are equal when their texts are.
///
/// - Returns: nil for an empty document.
package func composeYAML(_ text: String, file: String) throws(YAMLSyntaxError) -> Node? {
    let source = file.lowercased().hasSuffix(".json") ? text.replacingOccurrences(of: "\t", with: " ") : text
    do {
        return try Yams.compose(yaml: source, .basic)
    } catch let error as YamlError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text), " } ?? ""
            throw YAMLSyntaxError(message: "not valid YAML: \(detail)\(problem)", line: mark.line)
        case .duplicatedKeysInMapping(let duplicates, let context):
            throw YAMLSyntaxError(
                message: "duplicate key(s): \(duplicates.joined(separator: ", "))", line: context.mark.line)
        default:
            throw YAMLSyntaxError(message: "not valid YAML (\(error))", line: nil)
        }
    } catch {
        throw YAMLSyntaxError(message: "not valid YAML (\(error))", line: nil)
    }
}
