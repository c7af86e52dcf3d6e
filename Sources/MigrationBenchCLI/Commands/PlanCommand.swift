import ArgumentParser
import MappingModel
import MigrationEngine
import PersistentStore

/// `migration-bench plan`: the steps a store needs, before anything runs.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "List the migration steps a store needs to reach a version, without changing anything.",
        discussion: """
            The store's version is detected from the hashes in its metadata. Each step is lightweight (inferred, \
            run as SQL inside the store) or heavyweight (run with the mapping models listed for its passes; a \
            policy class bound to nothing, or anything else migrate would refuse, is a warning). A store \
            already at the target, or at a version whose entity hashes equal the target's, needs no step. The \
            path is direct (Core Data's: one step from the store's version to the target, with the mapping \
            model whose entity hashes match both ends, else the inferred mapping) or chained (one step per \
            version, as a progressive migration); the plan says which and why. A lightweight step lists its changes as Core Data's inferred \
            mapping makes them: a required value existing objects may lack (needsValue: the step fails on the \
            first such object) and data Core Data drops without an error (dataLoss) are warnings. JSON: \
            {"from": "V1", "to": "V3", "path": "direct", "pathReason": "…", "steps": [{"from": "V1", "to": "V2", "kind": "lightweight", "changes": \
            [{"entity": "Book", "property": "title", "change": "renamed", "detail": "from 'name'"}, …]}, …]}.
            """)

    @OptionGroup var options: ChainOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingInputErrors {
            let migrator = try options.migrator()
            let plan = try WriteAheadLog.leavingNoSidecars(of: [options.store]) {
                try migrator.requiredMigrations(forStoreAt: options.store, to: options.to)
            }
            // Why a step would fail before migrating anything (an unbound policy class, say), said now.
            let problems = plan.steps.map { step -> String? in
                do {
                    try migrator.check(step)
                    return nil
                } catch {
                    return oneLine("\(error)")
                }
            }
            if json {
                let steps = zip(plan.steps, problems).map(StepJSON.init)
                try printJSON(
                    PlanJSON(
                        from: plan.from, to: plan.to, path: plan.path, pathReason: plan.pathReason, steps: steps))
                return
            }
            guard !plan.isEmpty else {
                let same =
                    plan.from == plan.to ? "" : " (its entity hashes are \(plan.to)'s: one version to Core Data)"
                print("\(options.store) is at \(plan.from)\(same): no migration needed")
                return
            }
            print("\(options.store): \(plan.from) → \(plan.to) in \(plan.steps.count) step(s)")
            print("  path: \(plan.path.rawValue): \(plan.pathReason)")
            for (index, step) in plan.steps.enumerated() {
                let passes = step.kind == .heavyweight ? ", \(step.mappingModels.count) pass(es)" : ""
                let through = step.through.isEmpty ? "" : " through \(step.through.joined(separator: ", "))"
                print("  \(index + 1). \(step.name)\(through): \(step.kind.rawValue)\(passes)")
                if step.kind == .heavyweight {
                    for (pass, model) in step.mappingModels.enumerated() {
                        print("       pass \(pass + 1): \(model.file ?? model.name)")
                    }
                }
                if let problem = problems[index] { print("       warning: migrate will fail: \(problem)") }
                for change in step.changes {
                    let warning = [.needsValue, .dataLoss].contains(change.change) ? "warning: " : ""
                    print("       \(warning)\(change)")
                }
            }
        }
    }

    private struct PlanJSON: Encodable {
        let from: String
        let to: String
        let path: MigrationPath
        /// Why that path.
        let pathReason: String
        let steps: [StepJSON]
    }

    private struct StepJSON: Encodable {
        let from: String
        let to: String
        let kind: MigrationStepPlan.Kind
        let through: [String]?
        let changes: [LightweightChange]?
        /// The file (or name) of each pass's mapping model, for a heavyweight step.
        let mappingModels: [String]?
        /// Why the step would fail before migrating anything.
        let problem: String?

        init(_ step: MigrationStepPlan, problem: String?) {
            from = step.from
            to = step.to
            kind = step.kind
            through = step.through.isEmpty ? nil : step.through
            changes = step.kind == .lightweight ? step.changes : nil
            mappingModels = step.kind == .heavyweight ? step.mappingModels.map { $0.file ?? $0.name } : nil
            self.problem = problem
        }
    }
}
