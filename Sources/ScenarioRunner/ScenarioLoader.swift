import Foundation
import MappingModel
import MigrationEngine
import ObjectModel
import ReportModel
import Yams

/// A problem in a scenario file, naming the file, the line and the key.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// The scenario file.
    public let file: String
    /// The line, from 1, when known.
    public let line: Int?
    /// What is wrong.
    public let message: String

    /// `Scenarios/x.yaml:12: 'sizes.quick' must be a list of whole numbers`.
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}

/// Where in a scenario file the reader is, for errors.
struct ScenarioContext: YAMLErrorContext {
    let file: String

    func malformed(_ message: String, at node: Node?) -> ScenarioError {
        ScenarioError(file: file, line: node?.mark?.line, message: message)
    }
}

typealias ScenarioFields = YAMLFields<ScenarioContext>

/// Reads scenario files (YAML; JSON is read as YAML, so errors keep their line numbers).
public enum ScenarioLoader {
    static let keys = [
        "name", "title", "description", "model", "chain", "mappings", "policies", "unboundPolicies", "dataset", "store",
        "sizes", "modes",
        "crossPass",
        "repetitions", "expect", "budgets", "thresholds", "instructions",
    ]

    /// Reads the scenario file at `path`; relative paths inside it are resolved against its folder.
    ///
    /// - Throws: ``ScenarioError`` naming the file, line and key of the first problem.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        let context = ScenarioContext(file: path)
        let text: String
        do {
            text = try InputLimits.readText(path)
        } catch {
            throw ScenarioError(file: path, line: nil, message: error.message)
        }
        let composed: Node?
        do {
            composed = try composeYAML(text, file: path)
        } catch {
            throw ScenarioError(file: path, line: error.line, message: error.message)
        }
        guard let root = composed else { throw ScenarioError(file: path, line: nil, message: "the file is empty") }
        let fields = try ScenarioFields(root, what: "a scenario", context: context)
        try fields.allow(keys)
        let folder = (path as NSString).deletingLastPathComponent
        func resolve(_ relative: String) -> String {
            relative.hasPrefix("/") ? relative : (folder.isEmpty ? relative : "\(folder)/\(relative)")
        }
        let name = try fields.requiredString("name", of: "the scenario")
        guard name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
            throw context.malformed(
                "'name' must be lowercase letters, digits and dashes, not '\(name)'", at: fields.value("name"))
        }
        let chain = try fields.strings("chain")
        guard chain.count >= 2 else {
            throw context.malformed(
                "'chain' must list at least two versions, oldest first", at: fields.value("chain") ?? fields.node)
        }
        let sizes = try sizePair(fields, key: "sizes", context: context)
        let repetitions = try repetitionPair(fields, context: context)
        let expect = try fields.value("expect").map { node throws(ScenarioError) in
            try ScenarioFields(node, what: "'expect'", context: context)
        }
        try expect?.allow(["integrity"])
        let integrity = try expect?.string("integrity").map { text throws(ScenarioError) in
            guard let value = IntegrityExpectation(rawValue: text) else {
                throw context.malformed(
                    "'expect.integrity' must be clean or violations, not '\(text)'", at: expect?.value("integrity"))
            }
            return value
        }
        let crossPass = try fields.string("crossPass").map { text throws(ScenarioError) in
            guard let value = CrossPassRelationships(rawValue: text) else {
                throw context.malformed(
                    "'crossPass' must be resolve or core-data, not '\(text)'", at: fields.value("crossPass"))
            }
            return value
        }
        // A scenario migrates a generated store or the user's own, not both; the store must be one.
        if fields.value("dataset") != nil, let store = fields.value("store") {
            throw context.malformed(
                "'store' and 'dataset' cannot both be given: a scenario migrates a store generated from its dataset, "
                    + "or the store it names", at: store)
        }
        if let text = try fields.string("store"), let problem = storeProblem(resolve(text)) {
            throw context.malformed("'store' names \(resolve(text)), which \(problem)", at: fields.value("store"))
        }
        // `dataset: { like: store }`: the shape of a store, read when the scenario runs.
        var datasetLike: String?
        if let node = fields.value("dataset"), node.mapping != nil {
            let like = try ScenarioFields(node, what: "'dataset'", context: context)
            try like.allow(["like"])
            datasetLike = resolve(try like.requiredString("like", of: "'dataset'"))
        }
        var scenario = Scenario(
            name: name,
            title: try fields.string("title") ?? name,
            description: try fields.string("description")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "",
            file: path,
            model: resolve(try fields.requiredString("model", of: "the scenario")),
            chain: chain,
            mappings: try fields.strings("mappings").map(resolve),
            policies: try policies(fields.value("policies"), file: path, resolve: resolve),
            dataset: try datasetLike == nil ? fields.string("dataset").map(resolve) : nil,
            datasetLike: datasetLike,
            store: try fields.string("store").map(resolve),
            quickSizes: sizes.quick, fullSizes: sizes.full,
            modes: try modes(fields, context: context),
            crossPass: crossPass ?? .resolve,
            quickRepetitions: repetitions.quick, fullRepetitions: repetitions.full,
            integrity: integrity ?? .clean,
            budgets: try fields.list("budgets").map { node throws(ScenarioError) in
                try budget(node, context: context)
            })
        if let text = try fields.string("unboundPolicies") {
            guard let value = UnboundPolicies(rawValue: text) else {
                throw context.malformed(
                    "'unboundPolicies' must be error or base, not '\(text)'", at: fields.value("unboundPolicies"))
            }
            scenario.unboundPolicies = value
        }
        let pathGiven = try fields.value("modes").map { node throws(ScenarioError) in
            try ScenarioFields(node, what: "'modes'", context: context).has("path")
        }
        if pathGiven != true { scenario.choosePathFromMappings() }
        scenario.countThresholds = try countThresholds(fields, context: context)
        scenario.instructions = try fields.bool("instructions") ?? false
        return scenario
    }

    /// `thresholds: {allocations: 2%, sqliteSteps: 0.005}`: a count's relative threshold, as a percentage or
    /// a fraction.
    private static func countThresholds(
        _ fields: ScenarioFields, context: ScenarioContext
    ) throws(ScenarioError) -> [String: Double] {
        var thresholds: [String: Double] = [:]
        for (key, text) in try fields.stringMap("thresholds") {
            guard let metric = MetricDefinition.named(key), metric.noise == .count else {
                let allowed = MetricDefinition.counts.map(\.key).joined(separator: ", ")
                throw context.malformed(
                    "'thresholds' names '\(key)', which is not a count; expected one of: \(allowed)",
                    at: fields.value("thresholds"))
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let value = trimmed.hasSuffix("%") ? Double(trimmed.dropLast()).map { $0 / 100 } : Double(trimmed)
            guard let value, value >= 0, value < 10 else {
                throw context.malformed(
                    "'thresholds.\(key)' must be a fraction such as 0.02 or a percentage such as 2%, not '\(text)'",
                    at: fields.value("thresholds"))
            }
            thresholds[key] = value
        }
        return thresholds
    }

    private static func sizePair(
        _ fields: ScenarioFields, key: String, context: ScenarioContext
    ) throws(ScenarioError) -> (quick: [Int], full: [Int]) {
        guard let node = fields.value(key) else {
            throw context.malformed("the scenario has no '\(key)' (quick: […], full: […])", at: fields.node)
        }
        let sizes = try ScenarioFields(node, what: "'\(key)'", context: context)
        try sizes.allow(["quick", "full"])
        func numbers(_ name: String) throws(ScenarioError) -> [Int] {
            let texts = try sizes.strings(name)
            var result: [Int] = []
            for text in texts {
                guard let number = Int(text.replacingOccurrences(of: "_", with: "")),
                    (1...InputLimits.size).contains(number)
                else {
                    throw context.malformed(
                        "'\(key).\(name)' must list whole numbers from 1 to \(InputLimits.size), not '\(text)'",
                        at: sizes.value(name))
                }
                result.append(number)
            }
            guard (1...InputLimits.sizesPerList).contains(result.count) else {
                throw context.malformed(
                    "'\(key).\(name)' must list 1 to \(InputLimits.sizesPerList) sizes", at: sizes.value(name) ?? node)
            }
            return result
        }
        return (try numbers("quick"), try numbers("full"))
    }

    private static func repetitionPair(
        _ fields: ScenarioFields, context: ScenarioContext
    ) throws(ScenarioError) -> (quick: Int, full: Int) {
        guard let node = fields.value("repetitions") else { return (1, 3) }
        let repetitions = try ScenarioFields(node, what: "'repetitions'", context: context)
        try repetitions.allow(["quick", "full"])
        let quick = try repetitions.int("quick") ?? 1
        let full = try repetitions.int("full") ?? 3
        let allowed = 1...InputLimits.repetitions
        guard allowed.contains(quick), allowed.contains(full) else {
            throw context.malformed("'repetitions' must be from 1 to \(InputLimits.repetitions)", at: node)
        }
        return (quick, full)
    }

    private static func modes(_ fields: ScenarioFields, context: ScenarioContext) throws(ScenarioError) -> ModeMatrix {
        var matrix = ModeMatrix()
        guard let node = fields.value("modes") else { return matrix }
        let modes = try ScenarioFields(node, what: "'modes'", context: context)
        try modes.allow(["passes", "storage", "path"])
        func parse<Value: RawRepresentable & CaseIterable>(
            _ key: String, _ type: Value.Type
        ) throws(ScenarioError) -> [Value]? where Value.RawValue == String {
            guard modes.has(key) else { return nil }
            let texts = try modes.strings(key)
            var values: [Value] = []
            for text in texts {
                guard let value = Value(rawValue: text) else {
                    let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
                    throw context.malformed(
                        "'modes.\(key)' holds '\(text)'; expected one of: \(allowed)", at: modes.value(key))
                }
                values.append(value)
            }
            guard !values.isEmpty else {
                throw context.malformed("'modes.\(key)' must list at least one mode", at: modes.value(key) ?? node)
            }
            return values
        }
        if let passes = try parse("passes", PassMode.self) { matrix.passes = passes }
        if let storage = try parse("storage", StorageMode.self) { matrix.storage = storage }
        if let path = try parse("path", MigrationPath.self) { matrix.path = path }
        return matrix
    }

    private static func budget(_ node: Node, context: ScenarioContext) throws(ScenarioError) -> Budget {
        let fields = try ScenarioFields(node, what: "a budget", context: context)
        try fields.allow(["name", "metric", "max", "when"])
        let metricText = try fields.requiredString("metric", of: "a budget")
        guard let metric = Budget.Metric.named(metricText) else {
            let allowed = Budget.Metric.all.map(\.key).joined(separator: ", ")
            throw context.malformed(
                "a budget's 'metric' is '\(metricText)'; expected one of: \(allowed)", at: fields.value("metric"))
        }
        let maxText = try fields.requiredString("max", of: "a budget")
        guard let max = quantity(maxText), max.isFinite, max >= 0 else {
            throw context.malformed(
                "a budget's 'max' must be a number (finite, from 0), optionally with KiB, MiB or GiB, not '\(maxText)'",
                at: fields.value("max"))
        }
        var condition = Budget.Condition()
        if let when = fields.value("when") {
            let selector = try ScenarioFields(when, what: "a budget's 'when'", context: context)
            try selector.allow(["storage", "passes", "path", "minSize", "maxSize"])
            func mode<Value: RawRepresentable>(_ key: String) throws(ScenarioError) -> Value?
            where Value.RawValue == String {
                guard let text = try selector.string(key) else { return nil }
                guard let value = Value(rawValue: text) else {
                    throw context.malformed("'when.\(key)' has unknown mode '\(text)'", at: selector.value(key))
                }
                return value
            }
            condition.storage = try mode("storage")
            condition.passes = try mode("passes")
            condition.path = try mode("path")
            condition.minSize = try selector.int("minSize")
            condition.maxSize = try selector.int("maxSize")
        }
        return Budget(
            name: try fields.string("name") ?? metric.key, metric: metric, max: max, condition: condition)
    }

    /// Why the file at `path` cannot be a scenario's store, read from its first bytes only (the user's store is
    /// never opened where it is); nil when it starts as an SQLite database does.
    static func storeProblem(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "does not exist" }
        guard !isFolder.boolValue else { return "is a folder, not a store" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot be read" }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header == Data("SQLite format 3\u{0}".utf8) else { return "is not a store (not an SQLite database)" }
        return nil
    }

    /// `64 MiB`, `1.5 GiB`, `3.0`, `512 KiB` as a number (bytes for the binary units).
    package static func quantity(_ text: String) -> Double? {
        let units: [(String, Double)] = [("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1_024)]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (unit, scale) in units where trimmed.hasSuffix(unit) {
            return Double(trimmed.dropLast(unit.count).trimmingCharacters(in: .whitespaces)).map { $0 * scale }
        }
        return Double(trimmed)
    }

    /// The `policies` key: a binding file's path, or the bindings themselves (`{ Class: Policy }`).
    private static func policies(
        _ node: Node?,
        file: String,
        resolve: (String) -> String
    ) throws(ScenarioError) -> PolicyBindings {
        guard let node else { return PolicyBindings() }
        do {
            if node.mapping == nil, let path = node.scalar?.string {
                return try PolicyBindings.load(path: resolve(path))
            }
            return try PolicyBindings(node: node, file: file)
        } catch {
            // An inline binding's error is placed in the scenario; a binding file's names that file.
            let detail = error.file == file ? error.message : "\(error)"
            throw ScenarioError(
                file: file, line: error.file == file ? error.line : node.mark?.line, message: "'policies': \(detail)")
        }
    }
}
