import MappingModel
import MigrationEngine
import ObjectModel
import ReportModel

extension ModelChecker {
    /// Whether the two versions have identical entity hashes, so that Core Data migrates nothing between them.
    func isIdentical(from: String, to: String) -> Bool {
        history.version(named: from)?.versionHashes == history.version(named: to)?.versionHashes
    }

    /// Why the step `from` → `to` cannot run, if it cannot: Core Data refuses it (no mapping model, and none
    /// can be inferred), or its mapping models do not compile (such as a policy class bound to nothing).
    func blocked(from: String, to: String) -> (outcome: CheckStep.Outcome, reason: String)? {
        blocked.first { $0.key.from == from && $0.key.to == to }?.value
    }

    /// What the model and its mapping models say before any store is migrated: versions with identical hashes,
    /// and for each step run (`links`) without a mapping model, what Core Data's inference refuses, fails on
    /// or loses. `inferenceSource` names the version an inferred step starts from, among those with the hashes
    /// of its source (lightweight.md (g)).
    static func modelFindings(
        history: ModelHistory, chain: [String], links: [Link], mappingModels: [MappingModel],
        policies: PolicyRegistry, inferenceSource: (String, String) -> String?
    ) -> (findings: [Finding], blocked: [Link: (outcome: CheckStep.Outcome, reason: String)]) {
        var findings: [Finding] = []
        var blocked: [Link: (outcome: CheckStep.Outcome, reason: String)] = [:]
        let versions = chain.compactMap { history.version(named: $0) }
        for (index, earlier) in versions.enumerated() {
            for later in versions[(index + 1)...] where later.versionHashes == earlier.versionHashes {
                findings.append(identical(earlier, later))
            }
        }
        for link in links where !history.areIdentical(link.from, link.to) {
            guard let source = history.version(named: link.from), let destination = history.version(named: link.to)
            else { continue }
            let models = StoreMigrator.mappingModels(mappingModels, from: link.from, to: link.to, in: history)
            if !models.isEmpty {
                do {
                    _ = try MigrationManager(source: source, destination: destination, policies: policies)
                        .compile(models)
                } catch {
                    blocked[link] = (.failed, "its mapping model does not compile: \(error)")
                    findings.append(
                        Finding(
                            code: "invalidMappingModel", severity: .error, from: link.from, to: link.to,
                            entity: nil, property: nil,
                            message: "the mapping model cannot run: \(error)"))
                }
                continue
            }
            let start = inferenceSource(link.from, link.to).flatMap { history.version(named: $0) } ?? source
            do {
                let plan = try MappingInference.plan(from: start, to: destination)
                findings += plan.changes.compactMap { finding(for: $0, link: link) }
            } catch {
                blocked[link] = (.refused, "no mapping model, and Core Data cannot infer one")
                findings += error.problems.map { problem in
                    Finding(
                        code: "needsMappingModel", severity: .error, from: link.from, to: link.to,
                        entity: problem.entity, property: problem.property,
                        message: "Core Data refuses to infer this step (134190, \(problem.rule.rawValue): "
                            + "\(problem.detail)): add a mapping model for \(link.from) → \(link.to)")
                }
            }
        }
        return (findings, blocked)
    }

    private static func finding(for change: LightweightChange, link: Link) -> Finding? {
        switch change.change {
        case .needsValue:
            Finding(
                code: "needsValue", severity: .error, from: link.from, to: link.to, entity: change.entity,
                property: change.property,
                message: "inferred, but fails on every device whose store holds such objects (Core Data's 134110): "
                    + "\(change.detail); give it a default value, or a mapping model that sets it")
        case .dataLoss:
            Finding(
                code: "dataLoss", severity: .error, from: link.from, to: link.to, entity: change.entity,
                property: change.property,
                message: "inferred, and silently loses data: \(change.detail); set a renaming identifier, or add a "
                    + "mapping model that carries the values over")
        default:
            nil
        }
    }

    /// Two versions with the same entity hashes: one version to Core Data, which runs no step between them and
    /// places a store of either at the one its step needs. A renaming identifier that only the later sets is
    /// therefore never a loss by itself: Core Data's single step from such a store starts at the oldest of them
    /// whose identifiers lose nothing (lightweight.md (g), Wire 2.46/2.47's stray `Conversation` identifier, whose
    /// stores keep every conversation), and where none does, the step's own `dataLoss` finding says so. A warning,
    /// then, never an error; a progressive walk that differs has its `pathsDiffer`.
    private static func identical(_ earlier: ModelVersion, _ later: ModelVersion) -> Finding {
        let renamings = later.entities.flatMap { entity in
            let before = earlier.entity(named: entity.name)
            var names: [String] = []
            if entity.renamingIdentifier != before?.renamingIdentifier && entity.renamingIdentifier != nil {
                names.append(entity.name)
            }
            for attribute in entity.attributes where attribute.renamingIdentifier != nil {
                let old = before?.attributes.first { $0.name == attribute.name }?.renamingIdentifier
                if old != attribute.renamingIdentifier { names.append("\(entity.name).\(attribute.name)") }
            }
            for relationship in entity.relationships where relationship.renamingIdentifier != nil {
                let old = before?.relationships.first { $0.name == relationship.name }?.renamingIdentifier
                if old != relationship.renamingIdentifier { names.append("\(entity.name).\(relationship.name)") }
            }
            return names
        }
        let subject = renamings.count == 1 ? renamings[0].split(separator: ".").map(String.init) : []
        let message =
            renamings.isEmpty
            ? "the two versions have identical entity hashes: Core Data sees no change between them, and places "
                + "a store of either at '\(earlier.name)'"
            : "the two versions have identical entity hashes, so Core Data sees one version and runs no step "
                + "between them: a store of either is migrated from the one whose renaming identifiers keep its data, "
                + "so the renaming identifiers '\(later.name)' sets (\(renamings.joined(separator: ", "))) take "
                + "no step of their own; to make them one, change a hash (a versionHashModifier)"
        return Finding(
            code: "identicalVersionHashes", severity: .warning, from: earlier.name,
            to: later.name, entity: subject.first, property: subject.count > 1 ? subject[1] : nil, message: message)
    }
}

/// A step between two versions.
struct Link: Hashable, Sendable {
    let from: String
    let to: String
    /// Whether it is a store's single step to the target (Core Data's path), rather than one consecutive step
    /// of a progressive migration.
    var isDirect = true
}
