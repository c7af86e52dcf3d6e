import Foundation
import ScenarioRunner

/// Finds and loads scenario files: by path, by name in `Scenarios/`, or all of them.
enum ScenarioFiles {
    static let folder = "Scenarios"

    /// The files `arguments` name (a path, or a scenario name in `Scenarios/`), or every scenario file in
    /// `Scenarios/` when there are none.
    static func resolve(_ arguments: [String]) throws -> [String] {
        guard !arguments.isEmpty else {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let files = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map {
                "\(folder)/\($0)"
            }
            guard !files.isEmpty else { throw InputError("\(folder)/: no scenario files (*.yaml) here") }
            return files
        }
        return try arguments.map { argument in
            if FileManager.default.fileExists(atPath: argument) { return argument }
            for candidate in ["\(folder)/\(argument).yaml", "\(folder)/\(argument).json"]
            where FileManager.default.fileExists(atPath: candidate) {
                return candidate
            }
            throw InputError("\(argument): no such scenario file, and no \(folder)/\(argument).yaml")
        }
    }

    /// Loads every file; the first bad one is the error, naming file, line and key.
    static func load(_ arguments: [String]) throws -> [Scenario] {
        let scenarios = try resolve(arguments).map { path throws(ScenarioError) in try ScenarioLoader.load(path: path) }
        var seen: [String: String] = [:]
        for scenario in scenarios {
            if let other = seen[scenario.name] {
                throw InputError("\(scenario.file): scenario name '\(scenario.name)' is also used by \(other)")
            }
            seen[scenario.name] = scenario.file
        }
        return scenarios
    }
}
