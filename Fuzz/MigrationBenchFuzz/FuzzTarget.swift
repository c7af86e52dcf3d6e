import Foundation
import ObjectModel
import PersistentStore
import ScenarioRunner

@testable import MappingModel

/// The readers of hostile input, each fed bytes by libFuzzer (`scripts/fuzz`). A reader may throw its own
/// error for any input; it must never trap, crash or hang.
enum FuzzTarget: String, CaseIterable {
    case expression, model, mapping, scenario, xcodeModel = "xcode-model", metadata

    /// The target named by `FUZZ_TARGET`.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data("set FUZZ_TARGET to one of: \(allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(64)
        }
        return target
    }()

    /// A private folder for the files the file-based readers need.
    static let folder: String = {
        let path = NSTemporaryDirectory() + "migration-bench-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The library model (V1 and V2) that expressions are compiled against, from `Scenarios/models`.
    static let library: ModelHistory = {
        do {
            return try ModelLoader.load(path: "Scenarios/models/library.yaml")
        } catch {
            FileHandle.standardError.write(Data("run from the package folder: \(error)\n".utf8))
            exit(70)
        }
    }()

    func run(_ data: Data) {
        switch self {
        case .expression:
            guard let text = String(data: data, encoding: .utf8) else { return }
            Self.compile(text)
        case .model:
            _ = try? ModelLoader.load(path: Self.write(data, as: "model.yaml"))
        case .mapping:
            guard let text = String(data: data, encoding: .utf8) else { return }
            guard let model = try? MappingModelLoader.load(text: text, file: "fuzz.yaml") else { return }
            let versions = Self.library.versions
            _ = try? model.validated(source: versions[0], destination: versions[versions.count - 1])
        case .scenario:
            _ = try? ScenarioLoader.load(path: Self.write(data, as: "scenario.yaml"))
        case .xcodeModel:
            let folder = Self.folder + "/Fuzz.xcdatamodel"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? data.write(to: URL(fileURLWithPath: folder + "/contents"))
            _ = try? ModelLoader.load(path: folder)
        case .metadata:
            _ = try? StoreMetadata(plist: [UInt8](data), uuid: "fuzz")
        }
    }

    private static func compile(_ text: String) {
        let versions = library.versions
        let (source, destination) = (versions[0], versions[versions.count - 1])
        guard let entity = source.entities.first?.name, let target = destination.entities.first?.name else { return }
        let mapping = EntityMapping(name: "Fuzz", kind: .transform, sourceEntity: entity, destinationEntity: target)
        for purpose in [ExpressionScope.Purpose.value, .filter] {
            let scope = ExpressionScope(
                source: source, destination: destination, entityMapping: mapping, entityMappings: [mapping],
                property: nil, purpose: purpose)
            _ = try? ExpressionCompiler(scope: scope).compile(text)
        }
    }

    private static func write(_ data: Data, as name: String) -> String {
        let path = folder + "/" + name
        try? data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
