import DataGeneration
import Foundation
import Instrumentation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import ReportModel

/// Runs the steps of a check: generates a store at each step's source version, migrates a copy to its
/// destination (Core Data's single step, or one consecutive step of a progressive migration), verifies and
/// measures it, and collects the steps, the findings about them and the report's cells.
struct ChainRunner {
    let checker: ModelChecker
    /// Core Data's path: a store's version straight to the target.
    let migrator: StoreMigrator
    /// One consecutive step.
    let progressive: StoreMigrator
    let meter: PhaseMeter
    private(set) var steps: [CheckStep] = []
    private(set) var findings: [Finding] = []
    /// Seconds of generation, migration and verification: what the check measures, not its overhead.
    private(set) var measuredSeconds = 0.0
    /// Seconds of migration alone.
    private(set) var stepSeconds = 0.0
    /// Seconds of verification alone.
    private(set) var verifySeconds = 0.0
    /// What each cell measured, by cell id, before it became the report's cell.
    private(set) var samples: [String: CellSample] = [:]

    init(checker: ModelChecker, heap: any HeapStatistics) throws {
        self.checker = checker
        var migrator = try StoreMigrator(history: checker.history, mappingModels: checker.mappings.models)
        migrator.policies = checker.options.policies
        migrator.path = .direct
        self.migrator = migrator
        migrator.path = .chained
        progressive = migrator
        meter = PhaseMeter(heap: heap)
    }

    /// Generates a store at `link.from` with `size` objects per entity and migrates it to `link.to`.
    mutating func run(_ link: Link, size: Int, folder: String, event: (CheckStep) -> Void) throws -> Cell {
        let history = checker.history
        let (from, to) = (link.from, link.to)
        let first = meter.samples.count
        let source = "\(folder)/source.sqlite"
        let version = try history.requireVersion(from)
        let generator = try StoreGenerator(
            version: version, dataset: checker.dataset.applying(to: version, in: history), size: size)
        meter.begin("generate")
        let generated = try generator.generate(at: source)
        let edges = generated.relationships.values.reduce(0, +)
        measure(meter.end(objects: generated.totalObjects, edges: edges))

        var stepPhases: [PhaseSample] = []
        var verification = VerificationSummary(passed: true, checked: 0, violations: [], notChecked: [])
        var failure: String?
        let migrator = link.isDirect ? self.migrator : progressive
        var step = CheckStep(
            origin: from, size: size, from: from, to: to, kind: "lightweight", mapping: nil, outcome: .refused,
            seconds: nil, peakHeapBytes: nil, verifySeconds: nil, failure: nil)
        defer {
            steps.append(step)
            event(step)
        }
        let mappingModels = StoreMigrator.mappingModels(checker.mappings.models, from: from, to: to, in: history)
        if !mappingModels.isEmpty {
            step.kind = MigrationStepPlan.Kind.heavyweight.rawValue
            step.mapping = mappingModels.map { $0.file.map(DisplayPath.of) ?? $0.name }.joined(separator: ", ")
        }
        if let (outcome, reason) = checker.blocked(from: from, to: to) {
            step.outcome = outcome
            step.failure = reason
            failure = "\(from) → \(to): \(reason)"
        } else if let plan = try migrator.plan(from: from, to: to).steps.first {
            let next = "\(folder)/step.sqlite"
            try Self.link(source, to: next)
            let untouched = try Self.fingerprint(source)
            meter.begin(plan.name)
            do {
                try migrator.migrateStore(at: next, to: to)
                guard try Self.fingerprint(source) == untouched else {
                    throw CheckError("the migration wrote to its source store, which it must only read")
                }
                let sample = meter.end(objects: generated.totalObjects)
                measure(sample)
                if let sample {
                    stepSeconds += sample.wallSeconds
                    stepPhases.append(sample)
                    step.seconds = sample.wallSeconds
                    step.peakHeapBytes = sample.heapPeakBytes
                }
                budgets(step)

                meter.begin("verify \(plan.name)", group: plan.name)
                let result = try ScenarioSetup.verify(
                    plan, history: history, mappingModels: checker.mappings.models, source: source,
                    destination: next, onOneThread: meter.countsUnderCallgrind)
                let verified = meter.end(objects: generated.totalObjects, edges: edges)
                measure(verified)
                verifySeconds += verified?.wallSeconds ?? 0
                step.verifySeconds = verified?.wallSeconds
                verification.add(result, step: plan.name, checked: generated.totalObjects + edges)
                step.outcome = result.passed ? .passed : .integrityFailure
                if !result.passed { violations(result, step: step) }
            } catch {
                let sample = meter.end(objects: generated.totalObjects)
                measure(sample)
                // A migration that fails is a migration's time too, not the check's own overhead.
                stepSeconds += sample?.wallSeconds ?? 0
                step.seconds = sample?.wallSeconds
                step.outcome = .failed
                step.failure = "\(error)"
                failure = "\(plan.name): \(error)"
                failed(step)
            }
        } else {
            step.kind = "none"  // the store is already at `to` as far as Core Data can tell
            step.outcome = .passed
        }
        let sample = CellSample(
            phases: Array(meter.samples[first...]), total: totalPhase(stepPhases), floorSeconds: 0,
            steps: [], objects: generated.totalObjects, edges: edges, verification: verification, memorySeries: [],
            unavailable: meter.unavailable, countingMethods: meter.countingMethods)
        meter.samples.removeSubrange(first...)
        samples[spec(link, size: size).id] = sample
        return cell(link, size: size, sample: sample, failure: failure)
    }

    /// A second name for the store at `source`, for the step to migrate: the migrator only reads the store it
    /// is given and renames its result over that name, so the source keeps its content for the verifier
    /// without a copy (a copy where the file system has no hard links).
    private static func link(_ source: String, to path: String) throws {
        do {
            try FileManager.default.linkItem(atPath: source, toPath: path)
        } catch {
            try FileManager.default.copyItem(atPath: source, toPath: path)
        }
    }

    /// The size and modification time of a store's file, to notice a write.
    private static func fingerprint(_ path: String) throws -> FileStamp {
        guard let stamp = FileStamp(of: path) else { throw CheckError("the store \(path) is gone") }
        return stamp
    }

    private mutating func measure(_ sample: PhaseSample?) {
        measuredSeconds += sample?.wallSeconds ?? 0
    }

    private func totalPhase(_ steps: [PhaseSample]) -> PhaseSample {
        PhaseSample.combining(steps, name: "migration")
    }

    /// A finding for a step that threw, unless a finding already says why it must (such as `needsValue`).
    private mutating func failed(_ step: CheckStep) {
        let explained = (checker.staticFindings + findings).contains {
            $0.severity == .error && $0.from == step.from && $0.to == step.to
        }
        guard !explained else { return }
        findings.append(
            Finding(
                code: "migrationFailed", severity: .error, from: step.from, to: step.to, entity: nil, property: nil,
                message: "the step failed on a store generated at \(step.origin) with \(step.size) objects per "
                    + "entity: \(step.failure ?? "")"))
    }

    private mutating func violations(_ result: VerificationResult, step: CheckStep) {
        for group in result.violations {
            findings.append(
                Finding(
                    code: "verificationFailed", severity: .error, from: step.from, to: step.to, entity: group.entity,
                    property: group.property,
                    message: "the migrated store fails verification (\(group.kind.rawValue), \(group.count) "
                        + "object(s) or edge(s); store generated at \(step.origin), \(step.size) objects per entity)"
                        + (group.examples.first.map { ": \($0.detail)" } ?? "")))
        }
    }

    private mutating func budgets(_ step: CheckStep) {
        if let limit = checker.options.maxStepSeconds, let seconds = step.seconds, seconds > limit {
            findings.append(
                Finding(
                    code: Finding.timeBudgetCode, severity: .error, from: step.from, to: step.to, entity: nil,
                    property: nil,
                    message: String(
                        format: "the step took %.3f s, over its budget of %.3f s (store generated at %@, %d objects "
                            + "per entity)", seconds, limit, step.origin, step.size)))
        }
        if let limit = checker.options.maxStepHeapBytes, let peak = step.peakHeapBytes, peak > limit {
            findings.append(
                Finding(
                    code: Finding.memoryBudgetCode, severity: .error, from: step.from, to: step.to, entity: nil,
                    property: nil,
                    message: "the step's heap peaked at \(peak) bytes, over its budget of \(limit) bytes (store "
                        + "generated at \(step.origin), \(step.size) objects per entity)"))
        }
    }

    /// The report's cell of the store generated at `link.from` with `size` objects per entity, before it runs.
    func spec(_ link: Link, size: Int) -> CellSpec {
        CellSpec(
            scenarioFile: checker.modelPath, scenario: ModelChecker.scenarioName(link), size: size,
            mode: CellMode(passes: .single, storage: migrator.options.storage, path: link.isDirect ? .direct : .chained)
        )
    }

    private func cell(_ link: Link, size: Int, sample: CellSample, failure: String?) -> Cell {
        let name = ModelChecker.scenarioName(link)
        let spec = spec(link, size: size)
        let scenario = Scenario(
            name: name, title: name, description: "", file: checker.modelPath, model: checker.modelPath,
            chain: [], mappings: [], policies: checker.options.bindings, dataset: checker.options.dataset,
            store: nil, quickSizes: [size], fullSizes: [size], modes: ModeMatrix(), crossPass: .resolve,
            quickRepetitions: 1, fullRepetitions: 1, integrity: .clean, budgets: [])
        var cell = CellAggregation.cell(
            spec, scenario: scenario, samples: [sample], failure: failure.map { (.error, $0) })
        cell.floor = nil
        return cell
    }
}

/// A step that broke what a check relies on.
struct CheckError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
