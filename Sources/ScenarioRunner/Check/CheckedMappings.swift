import Foundation
import MappingModel
import ObjectModel
import ReportModel

/// The mapping models a check migrates with — those given (files or folders) and those found beside an Xcode
/// bundle — and what is wrong with them: stale ones (Core Data skips them), ones that skip versions or go
/// backwards.
struct CheckedMappings {
    /// The mapping models that identify steps of the history.
    var models: [MappingModel] = []
    /// The findings about mapping models.
    var findings: [Finding] = []

    /// Suffixes of the files read from a folder given as a mapping.
    static let suffixes = [".xcmappingmodel", ".cdm", ".yaml", ".yml", ".json"]

    /// Reads the mapping files in `paths` (a folder stands for the mapping files in it and below), then
    /// those found beside the bundle at `modelPath`.
    ///
    /// - Throws: ``MappingError`` for a file that cannot be read.
    init(paths: [String], history: ModelHistory, modelPath: String, bindings: PolicyBindings) throws {
        var usable: [String] = []
        for path in try paths.flatMap(Self.files) {
            let model = try MappingModelLoader.load(path: path)
            if model.identifiesVersionsByHash && model.versionMatch(in: history).isStale {
                findings.append(Self.stale(model, file: path, history: history))
            } else {
                usable.append(path)
            }
        }
        var staleFound: [String] = []
        models = try MappingModelLoader.load(
            paths: usable, for: history, modelPath: modelPath, bindings: bindings,
            stale: { staleFound.append($0.file ?? "") },
            elsewhere: { model, owner in findings.append(Self.otherModels(model, owner: owner)) })
        for file in staleFound {
            findings.append(Self.stale(try MappingModelLoader.load(path: file), file: file, history: history))
        }
        // A mapping model that goes backwards never runs: it is a finding, not a step's mapping. One that skips
        // versions runs on Core Data's path only, for a store at its source version: a warning, and kept.
        var fitting: [MappingModel] = []
        for model in models {
            let finding = Self.direction(of: model, in: history)
            if let finding { findings.append(finding) }
            if finding?.code != "backwardMappingModel" { fitting.append(model) }
        }
        models = fitting
    }

    /// Runs the entity mappings whose policy class is bound to none of `registered` as `choice` says, with a
    /// `policyNotSimulated` warning for each one run with the base policy.
    mutating func runUnboundPolicies(_ choice: UnboundPolicies, registered: Set<String>) {
        let (run, unbound) = choice.apply(to: models, registered: registered)
        models = run
        findings += unbound.map { $0.finding(among: run) }
    }

    /// The files a `--mapping` path stands for: itself, or the mapping files in a folder, in path order.
    static func files(_ path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard !path.hasSuffix(".xcmappingmodel"), !path.hasSuffix(".xcmappingmodel/"),
            FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
        else { return [path] }
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            guard suffixes.contains(where: relative.hasSuffix) else { continue }
            found.append((path as NSString).appendingPathComponent(relative))
            if relative.hasSuffix(".xcmappingmodel") { enumerator?.skipDescendants() }
        }
        guard !found.isEmpty else {
            throw MappingError(
                .unreadableFile, "the folder holds no mapping model (\(suffixes.joined(separator: ", ")))", file: path)
        }
        return found.sorted()
    }

    private static func stale(_ model: MappingModel, file: String, history: ModelHistory) -> Finding {
        let match = model.versionMatch(in: history)
        let side = match.source.version == nil ? match.source : match.destination
        let entities = side.differingEntities
        return Finding(
            code: "staleMappingModel", severity: .error, from: match.source.named, to: match.destination.named,
            entity: entities.count == 1 ? entities[0] : nil, property: nil,
            message: "\(file): the mapping model '\(model.name)' matches no version of the model by entity hashes "
                + "(entities that differ: \(entities.joined(separator: ", "))): Core Data skips it and infers the "
                + "step, so its mappings and policies never run; make it again from the versions as they are now")
    }

    /// The note for a mapping model found beside the bundle that is another model's, with why.
    private static func otherModels(_ model: MappingModel, owner: String) -> Finding {
        Finding(
            code: "otherModelsMappingModel", severity: .note, from: model.sourceVersion, to: model.destinationVersion,
            entity: nil, property: nil,
            message: "\(model.file ?? model.name): found beside the model, matches none of its versions by entity "
                + "hashes and is another model's (\(owner)): ignored, as Core Data ignores it")
    }

    /// A finding for a mapping model that skips versions of the history or goes backwards, or nil.
    private static func direction(of model: MappingModel, in history: ModelHistory) -> Finding? {
        guard let from = model.sourceVersion, let to = model.destinationVersion,
            let source = history.index(of: from), let destination = history.index(of: to),
            destination != source + 1
        else { return nil }
        let file = model.file ?? model.name
        if destination <= source {
            return Finding(
                code: "backwardMappingModel", severity: .warning, from: from, to: to, entity: nil, property: nil,
                message: "\(file): the mapping model goes from '\(from)' back to '\(to)': no migration to a later "
                    + "version runs it (were its source and destination models swapped?)")
        }
        let skipped = history.versions[(source + 1)..<destination].map(\.name)
        return Finding(
            code: "mappingModelSkipsVersions", severity: .warning, from: from, to: to, entity: nil, property: nil,
            message:
                "\(file): the mapping model skips \(skipped.joined(separator: ", ")): Core Data runs it for a store "
                + "at '\(from)' migrated straight to '\(to)', a progressive migration never runs it")
    }
}

extension UnboundPolicy {
    /// The `policyNotSimulated` warning for this entity mapping, whose mapping model is among `models`.
    func finding(among models: [MappingModel]) -> Finding {
        let model = models.first { ($0.file ?? $0.name) == mappingModel }
        return Finding(
            code: "policyNotSimulated", severity: .warning, from: model?.sourceVersion, to: model?.destinationVersion,
            entity: nil, property: nil, message: message)
    }
}
