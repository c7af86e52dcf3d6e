import DataGeneration
import Foundation
public import Instrumentation
import IntegrityVerification
import MappingModel
public import MigrationEngine
import ObjectModel
import PersistentStore
import ReportModel
import SQLiteDatabase

/// One cell of the matrix: a scenario at one size in one mode.
public struct CellSpec: Sendable, Hashable, Codable {
    /// The scenario file.
    public let scenarioFile: String
    /// The scenario's name.
    public let scenario: String
    /// Objects in the generated store.
    public let size: Int
    /// The modes.
    public let mode: CellMode
    /// Whether the cell runs under valgrind to count instructions (not part of ``id``: the counts of a cell
    /// compare with its baseline's whichever way they were taken, when the methods agree).
    public var countInstructions = false
    /// Whether the engine's profiler breaks each step down per entity mapping and stage (see ``Cell/breakdown``;
    /// on unless `--no-breakdown`; not part of ``id``).
    public var breakdown = true
    /// Which repetition of the cell this is, from 1 (not part of ``id``).
    public var repetition = 1

    /// Creates a cell.
    public init(scenarioFile: String, scenario: String, size: Int, mode: CellMode) {
        self.scenarioFile = scenarioFile
        self.scenario = scenario
        self.size = size
        self.mode = mode
    }

    /// `library-chain/100000/single+streaming+chained`.
    public var id: String { "\(scenario)/\(size)/\(mode.slug)" }
}

/// What one run of a cell measured, written by the child process that ran it.
public struct CellSample: Sendable, Hashable, Codable {
    /// Every phase, in order: generate, then per step its passes and stages, the step, its verification.
    public var phases: [PhaseSample]
    /// The whole migration: every step together.
    public var total: PhaseSample
    /// Seconds the floor took: every row of each step's source copied with `INSERT … SELECT`.
    public var floorSeconds: Double
    /// The steps run.
    public var steps: [MigrationStepPlan.Summary]
    /// Objects in the source store.
    public var objects: Int
    /// Relationship edges in the source store.
    public var edges: Int
    /// The verifier's findings over every step.
    public var verification: VerificationSummary
    /// Heap and resident memory over the migration, sampled every 20 ms.
    public var memorySeries: [MemoryPoint]
    /// Each count that could not be measured, keyed by metric, with why.
    public var unavailable: [String: String]
    /// How each measured count was taken, keyed by metric.
    public var countingMethods: [String: String]
    /// True when the run was timed under valgrind (`run --instructions`): its times are valgrind's.
    public var underValgrind: Bool? = nil
    /// What the engine's profiler measured of every step, when the cell breaks steps down.
    public var profile: MigrationProfile?
    /// Each step's wall time, measured around the whole step.
    public var stepSeconds: [Double] = []
    /// The seconds of each step the phase meter spent on its own reads and resets, outside every phase of the step
    /// (``PhaseMeter/ownSeconds``).
    public var meterSeconds: [Double] = []

    /// Fills in the instructions of every phase and of every segment of the profile from callgrind's profile parts
    /// (see ``CallgrindParts``), or records why they are missing; and takes out of each phase's bytes written the
    /// bytes of its parts, `dumped` by index, which callgrind wrote from inside the process as the phase went
    /// (``CallgrindParts/dumpedBytes(inFiles:)``).
    public mutating func addInstructions(_ parts: [Int: Int], method: String, dumped: [Int: Int] = [:]) {
        let key = MetricDefinition.instructions.key
        func fill(_ phase: inout PhaseSample) -> Bool {
            guard let indices = phase.instructionParts else { return false }
            phase.bytesWritten -= indices.reduce(0) { $0 + (dumped[$1] ?? 0) }
            guard indices.allSatisfy({ parts[$0] != nil }) else { return false }
            phase.counts[key] = indices.reduce(0) { $0 + (parts[$1] ?? 0) }
            return true
        }
        var complete = fill(&total)
        for index in phases.indices { complete = fill(&phases[index]) && complete }
        var misplaced = false
        for index in profile?.segments.indices ?? 0..<0 {
            guard let segment = profile?.segments[index], let part = segment.instructionPart else { continue }
            // A segment's part must be one of its own stage's phase's parts, or the phase's rest (its parts less its
            // segments') means nothing: the segment then stays uncounted and the cell's instructions unavailable.
            let name = CellExecution.phaseName(of: segment)
            guard phases.contains(where: { $0.name == name && $0.instructionParts?.contains(part) == true }) else {
                misplaced = true
                continue
            }
            profile?.segments[index].instructions = parts[part]
        }
        // Valgrind writes a little more than its parts besides (about 100 to 300 bytes a phase, not the same in
        // every run): bytes written under it compare only with bytes written under it.
        let written = MetricDefinition.bytesWritten.key
        if let method = countingMethods[written], !dumped.isEmpty {
            countingMethods[written] = method + " under valgrind, its profile parts taken out"
        }
        if misplaced {
            unavailable[key] = "a profiler segment's profile part lies outside its stage's phase"
        } else if complete {
            countingMethods[key] = method
            unavailable[key] = nil
        } else {
            unavailable[key] = "callgrind wrote no profile part for some phases"
        }
    }
}

/// The verifier's findings for a cell, over all its steps.
public struct VerificationSummary: Sendable, Hashable, Codable {
    /// One group of violations.
    public struct Group: Sendable, Hashable, Codable {
        /// The kind of violation.
        public var kind: String
        /// The entity, if the violation is in one.
        public var entity: String?
        /// The property, if the violation is in one.
        public var property: String?
        /// How many objects or edges break the rule.
        public var count: Int
        /// The first examples, each naming its step.
        public var examples: [String]
    }

    /// No violation in any step.
    public var passed: Bool
    /// Objects and edges of the source stores checked, over all steps.
    public var checked: Int
    /// Violations, each named with its step.
    public var violations: [Group]
    /// Checks that could not be made.
    public var notChecked: [String]
}

/// One sample of memory over time.
public struct MemoryPoint: Sendable, Hashable, Codable {
    /// Seconds since the migration started.
    public var seconds: Double
    /// Heap allocated; nil when jemalloc is not the allocator.
    public var heapBytes: Int?
    /// Resident set.
    public var residentBytes: Int
}

/// Runs one repetition of a cell in this process: generates the source store, migrates it step by step
/// (each step through ``StoreMigrator``, safe swap included), verifies each step with the independent
/// verifier, and measures the floor.
public struct CellExecution {
    let scenario: Scenario
    let spec: CellSpec
    let heap: any HeapStatistics
    let folder: String

    /// A run of `spec` whose files go in `folder` (removed by the caller).
    public init(scenario: Scenario, spec: CellSpec, heap: any HeapStatistics, folder: String) {
        self.scenario = scenario
        self.spec = spec
        self.heap = heap
        self.folder = folder
    }

    /// Runs the cell.
    public func run() throws -> CellSample {
        let setup = try ScenarioSetup(scenario: scenario)
        let meter = PhaseMeter(heap: heap)
        let source = "\(folder)/source.sqlite"
        let (objects, edges) = try makeSource(at: source, setup: setup, meter: meter)

        var migrator = try setup.migrator()
        let profiler =
            spec.breakdown
            ? MigrationProfiler(heap: heap, peaks: meter.heapPeaks, instructions: meter.instructions) : nil
        migrator.profiler = profiler
        var profile = MigrationProfile()
        var stepSeconds: [Double] = []
        var meterSeconds: [Double] = []
        migrator.options.storage = spec.mode.storage
        migrator.options.crossPassRelationships = scenario.crossPass
        migrator.passes = spec.mode.passes
        migrator.path = spec.mode.path
        let plan = try migrator.plan(from: scenario.chain[0], to: scenario.chain[scenario.chain.count - 1])

        var current = source
        var stepPhases: [PhaseSample] = []
        var floorSeconds = 0.0
        var verification = VerificationSummary(passed: true, checked: 0, violations: [], notChecked: [])
        let sampler = MemorySampler(heap: heap)
        for (index, step) in plan.steps.enumerated() {
            let next = "\(folder)/step-\(index + 1).sqlite"
            try FileManager.default.copyItem(atPath: current, toPath: next)
            sampler.resume()
            profiler?.reset()
            let meterBefore = meter.ownSeconds
            let clock = ContinuousClock.now
            var parts = try migrate(step, at: next, with: migrator, meter: meter)
            stepSeconds.append((ContinuousClock.now - clock).seconds)
            meterSeconds.append(meter.ownSeconds - meterBefore)
            sampler.pause()
            if let profiler {
                var stepProfile = profiler.profile
                for index in stepProfile.segments.indices { stepProfile.segments[index].step = stepSeconds.count }
                for index in stepProfile.statements.indices { stepProfile.statements[index].step = stepSeconds.count }
                Self.count(&parts, from: stepProfile.segments)
                profile.segments += stepProfile.segments
                profile.statements += stepProfile.statements
            }
            meter.samples += parts
            var stepPhase = PhaseSample.combining(parts, name: step.name)
            if profiler != nil {
                // The objects and edges the step made; without the profile, the store's objects, as before.
                stepPhase.objects = parts.reduce(0) { $0 + $1.objects }
                stepPhase.edges = parts.reduce(0) { $0 + $1.edges }
            } else {
                stepPhase.objects = objects
            }
            stepPhases.append(stepPhase)
            meter.samples.append(stepPhase)

            meter.begin("verify \(step.name)")
            let result = try setup.verify(
                step, source: current, destination: next, onOneThread: meter.countsUnderCallgrind)
            meter.end(objects: objects, edges: edges)
            verification.add(result, step: step.name, checked: objects + edges)

            floorSeconds += try CopyFloor.copySeconds(of: current, into: "\(folder)/floor-\(index + 1).sqlite")
            if current != source { Store.remove(at: current) }
            current = next
        }
        var total = PhaseSample.combining(stepPhases, name: "migration")
        total.objects = objects
        total.edges = edges
        return CellSample(
            phases: meter.samples, total: total, floorSeconds: floorSeconds, steps: plan.steps.map(\.summary),
            objects: objects, edges: edges, verification: verification, memorySeries: sampler.points,
            unavailable: meter.unavailable, countingMethods: meter.countingMethods,
            profile: profiler == nil ? nil : profile, stepSeconds: stepSeconds, meterSeconds: meterSeconds)
    }

    /// Gives each stage's phase of a step the objects and edges the profiler counted in it.
    static func count(_ parts: inout [PhaseSample], from segments: [ProfileSegment]) {
        for index in parts.indices {
            let inPhase = segments.filter { phaseName(of: $0) == parts[index].name }
            parts[index].objects = inPhase.reduce(0) { $0 + $1.objectsCreated }
            parts[index].edges = inPhase.reduce(0) { $0 + $1.edgesMade }
        }
    }

    /// The name of the phase `segment` falls in: `pass 1 · creating objects`, or `SQL in place`.
    static func phaseName(of segment: ProfileSegment) -> String {
        phaseName(pass: segment.pass, stage: segment.stage)
    }

    /// The name of stage `stage` of pass `pass` (from 1) as a phase: `pass 1 · creating objects`; the stage
    /// alone when it belongs to no pass (`SQL in place`).
    static func phaseName(pass: Int?, stage: String) -> String {
        pass.map { "pass \($0) · \(stage)" } ?? stage
    }

    /// Generates the source store at the chain's first version, or copies the scenario's store (a user's
    /// own, which is never opened where it is: its `-wal` is copied with it).
    private func makeSource(at path: String, setup: ScenarioSetup, meter: PhaseMeter) throws -> (Int, Int) {
        if let store = scenario.store {
            meter.begin("copy")
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store + suffix) {
                try FileManager.default.copyItem(atPath: store + suffix, toPath: path + suffix)
            }
            let opened = try Store.open(at: path, version: try setup.history.requireVersion(scenario.chain[0]))
            let objects = try opened.objectCounts().values.reduce(0, +)
            let edges = try opened.edgeCounts().values.reduce(0, +)
            meter.end(objects: objects, edges: edges)
            return (objects, edges)
        }
        let version = try setup.history.requireVersion(scenario.chain[0])
        let generator = try StoreGenerator(
            version: version, dataset: setup.dataset.applying(to: version, in: setup.history), size: spec.size)
        meter.begin("generate")
        let generated = try generator.generate(at: path)
        let edges = generated.relationships.values.reduce(0, +)
        meter.end(objects: generated.totalObjects, edges: edges)
        return (generated.totalObjects, edges)
    }

    /// Migrates a copy through one step, measuring each part: preparation, each pass's stages (or the
    /// lightweight SQL), and the swap; returns them, taken out of the meter's samples (the caller adds them back
    /// once it has counted their objects).
    private func migrate(
        _ step: MigrationStepPlan, at path: String, with migrator: StoreMigrator, meter: PhaseMeter
    ) throws -> [PhaseSample] {
        let first = meter.samples.count
        var part = ""
        var stage: (pass: Int, stage: MigrationProgress.Stage)?
        meter.begin("prepare", group: step.name)
        part = "prepare"
        try migrator.migrateStore(at: path, to: step.to) { progress in
            let name: String
            switch progress.phase {
            case .preparing: name = "prepare"
            case .replacing, .finished: name = "seal and swap"
            case .migrating:
                if let detail = progress.stepProgress {
                    // Reported every few thousand objects and at every entity mapping: the phase's name is made
                    // only when the stage changes (a string made per report is an allocation inside the
                    // profiler's parts, or between them, where it costs the next part's allocation read).
                    if let stage, stage.pass == detail.pass, stage.stage == detail.stage { return }
                    stage = (detail.pass, detail.stage)
                    name = Self.phaseName(pass: detail.pass, stage: detail.stage.rawValue)
                } else if step.kind == .lightweight {
                    name = InPlaceMigration.stage
                } else {
                    // Before the first stage the step opens its stores; after it, the last stage goes on (the
                    // step's report of its end, which names no stage, belongs to the stage that ended it).
                    name = part == "prepare" ? "open" : part
                }
            }
            if name != part {
                meter.begin(name, group: step.name)
                part = name
            }
        }
        meter.end()
        let parts = Array(meter.samples[first...])
        // Parts with the same name (a stage entered twice) are one phase.
        var merged: [PhaseSample] = []
        for sample in parts {
            if let index = merged.firstIndex(where: { $0.name == sample.name }) {
                merged[index] = PhaseSample.combining([merged[index], sample], name: sample.name, group: step.name)
            } else {
                merged.append(sample)
            }
        }
        meter.samples.removeLast(parts.count)
        return merged
    }
}

extension VerificationSummary {
    mutating func add(_ result: VerificationResult, step: String, checked: Int) {
        self.checked += checked
        passed = passed && result.passed
        for group in result.violations {
            violations.append(
                Group(
                    kind: group.kind.rawValue, entity: group.entity, property: group.property, count: group.count,
                    examples: group.examples.map { example in
                        "\(step): " + (example.primaryKey.map { "Z_PK \($0): " } ?? "") + example.detail
                    }))
        }
        for skipped in result.notChecked {
            let subject = [skipped.entity, skipped.property].compactMap { $0 }.joined(separator: ".")
            notChecked.append("\(step): \(skipped.kind.rawValue) \(subject): \(skipped.reason)")
        }
    }
}
