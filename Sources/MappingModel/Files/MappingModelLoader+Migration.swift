import Foundation
public import ObjectModel

extension MappingModelLoader {
    /// The mapping models for migrating across `history`: each file in `paths`, then — when `modelPath` is an
    /// Xcode `.xcdatamodeld` bundle — the `.xcmappingmodel` and `.cdm` files found in the folder that holds it
    /// and below, as Core Data searches its bundle, for the steps no given file covers. Xcode mapping models
    /// get the versions their entity hashes identify and the policies `bindings` binds.
    ///
    /// - Parameters:
    ///   - takesStep: whether the migration takes the step from one version to the other; a found mapping
    ///     model for a step it does not take is skipped (a given one is kept, for the caller to refuse).
    ///   - stale: told of a found Xcode mapping model that names versions of `history` but matches none by
    ///     hash — skipped, as Core Data skips it, but worth a warning.
    ///   - elsewhere: told (mapping model, why) of a found Xcode mapping model that names versions of `history`, matches
    ///     none by hash and is another model's (see ``owner(of:history:near:)``): skipped, and not stale.
    /// - Throws: ``MappingError`` for a file that cannot be read, and ``MappingError/Code/staleMapping`` for a
    ///   given Xcode mapping model that matches no version.
    public static func load(
        paths: [String],
        for history: ModelHistory,
        modelPath: String? = nil,
        bindings: PolicyBindings = PolicyBindings(),
        takesStep: (String, String) -> Bool = { _, _ in true },
        stale: (MappingError) -> Void = { _ in },
        elsewhere: (MappingModel, String) -> Void = { _, _ in }
    ) throws(MappingError) -> [MappingModel] {
        var models: [MappingModel] = []
        for path in paths {
            let model = try load(path: path).identifyingVersions(in: history).binding(bindings)
            try refuseRepeated(model, after: models)
            models.append(model)
        }
        guard let modelPath, modelPath.hasSuffix(".xcdatamodeld") || modelPath.hasSuffix(".xcdatamodeld/") else {
            return models
        }
        let given = Set(models.map { Step(from: $0.sourceVersion, to: $0.destinationVersion) })
        var found: [Step: MappingModel] = [:]
        var neighbours = OtherModels(near: modelPath)
        for path in xcodeMappingFiles(near: modelPath) {
            let model = try load(path: path)
            let match = model.versionMatch(in: history)
            if match.isStale {
                let named = [match.source.named, match.destination.named].compactMap { $0 }
                if named.contains(where: { history.version(named: $0) != nil }) {
                    if let owner = owner(of: model, history: history, near: &neighbours) {
                        elsewhere(model, owner)
                    } else {
                        do {
                            _ = try model.identifyingVersions(in: history)
                        } catch {
                            stale(error)
                        }
                    }
                }
                continue
            }
            let step = Step(from: match.source.version, to: match.destination.version)
            if let from = step.from, let to = step.to, !takesStep(from, to) { continue }
            // A .cdm compiled from an .xcmappingmodel beside it is the same mapping: keep the first one found.
            guard !given.contains(step), found[step] == nil else { continue }
            var identified = model
            identified.sourceVersion = step.from
            identified.destinationVersion = step.to
            found[step] = identified.binding(bindings)
        }
        return models + found.values.sorted { $0.name < $1.name }
    }

    /// Refuses `model` when an earlier mapping model of the same step already holds one of its entity mappings
    /// (same name, source and destination entity): the same file given twice, or an `.xcmappingmodel` and the
    /// `.cdm` compiled from it. Run as passes, they would make every object of that mapping twice.
    private static func refuseRepeated(_ model: MappingModel, after earlier: [MappingModel]) throws(MappingError) {
        func key(_ mapping: EntityMapping) -> [String?] {
            [mapping.name, mapping.sourceEntity, mapping.destinationEntity]
        }
        for other in earlier
        where other.sourceVersion == model.sourceVersion && other.destinationVersion == model.destinationVersion {
            let keys = Set(other.entityMappings.map(key))
            guard let repeated = model.entityMappings.first(where: { keys.contains(key($0)) }) else { continue }
            throw MappingError(
                .duplicateName,
                "given twice for one step, so each pass would make its objects again: give the mapping model once "
                    + "(an .xcmappingmodel and its .cdm are one; the other is \(other.file ?? other.name))",
                file: model.file, mapping: repeated.name)
        }
    }

    private struct Step: Hashable {
        var from: String?
        var to: String?
    }

    /// The `.xcmappingmodel` folders and `.cdm` files under the folder holding the bundle at `modelPath`,
    /// `.xcmappingmodel` first, each list in path order.
    static func xcodeMappingFiles(near modelPath: String) -> [String] {
        let files = xcodeFiles(near: modelPath, suffixes: [".xcmappingmodel", ".cdm"])
        return files.filter { $0.hasSuffix(".xcmappingmodel") } + files.filter { $0.hasSuffix(".cdm") }
    }

    /// The files and bundles whose names end in one of `suffixes` in the folder that holds `modelPath` and below,
    /// in path order (hidden folders left out, a bundle's contents not searched).
    static func xcodeFiles(near modelPath: String, suffixes: [String]) -> [String] {
        let folder = (modelPath as NSString).deletingLastPathComponent
        let root = folder.isEmpty ? "." : folder
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let path = (root as NSString).appendingPathComponent(relative)
            if (relative as NSString).lastPathComponent.hasPrefix(".") {
                enumerator?.skipDescendants()  // .build, .git and the like hold no mapping model of the app's
            } else if suffixes.contains(where: relative.hasSuffix) {
                found.append(path)
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                    enumerator?.skipDescendants()
                }
            }
        }
        return found.sorted()
    }

    /// Why `model`, found beside the bundle of `history` and matching none of its versions by hash, is another
    /// model's and not a stale one of this history's, or nil when it is this history's. It is another model's
    /// when fewer than half of the entities it maps (source and destination, by name) are in any version of
    /// `history`, or when both its sides match versions of another `.xcdatamodeld` bundle in the folder searched
    /// (CoreStore keeps several bundles of one entity beside their mapping models). A mapping model of this
    /// history made before one of its versions was edited maps the same entities and fits no other bundle: stale.
    static func owner(of model: MappingModel, history: ModelHistory, near others: inout OtherModels) -> String? {
        var mapped = Set(model.embedded.map { Array($0.source.keys) + Array($0.destination.keys) } ?? [])
        for mapping in model.entityMappings {
            mapped.formUnion([mapping.sourceEntity, mapping.destinationEntity].compactMap { $0 })
        }
        let known = Set(history.versions.flatMap { $0.versionHashes.keys })
        let shared = mapped.intersection(known).count
        if !mapped.isEmpty, shared * 2 < mapped.count {
            return "\(shared) of the \(mapped.count) entities it maps are in \(history.source ?? "the model")"
        }
        for (path, other) in others.histories() {
            let match = model.versionMatch(in: other)
            guard !match.isStale else { continue }
            return "its entity hashes match \(path) ('\(match.source.version ?? "")' to "
                + "'\(match.destination.version ?? "")'), another model in the folder"
        }
        return nil
    }
}

/// The other `.xcdatamodeld` bundles in the folder tree searched for a bundle's mapping models, read when first
/// asked for; one that cannot be read is left out.
struct OtherModels {
    private let modelPath: String
    private var read: [(path: String, history: ModelHistory)]?

    init(near modelPath: String) { self.modelPath = modelPath }

    mutating func histories() -> [(path: String, history: ModelHistory)] {
        if let read { return read }
        let own = URL(fileURLWithPath: modelPath).standardizedFileURL.path
        var histories: [(path: String, history: ModelHistory)] = []
        for path in MappingModelLoader.xcodeFiles(near: modelPath, suffixes: [".xcdatamodeld"])
        where URL(fileURLWithPath: path).standardizedFileURL.path != own {
            if let history = try? ModelLoader.load(path: path) { histories.append((path, history)) }
        }
        read = histories
        return histories
    }
}
