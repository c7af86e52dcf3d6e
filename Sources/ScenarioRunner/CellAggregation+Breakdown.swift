import MigrationEngine
import ReportModel

extension CellAggregation {
    /// Each step's breakdown over the repetitions: the profiler's segments of one entity mapping in one stage
    /// (or of one piece of a stage's work) added up within a repetition, then a statistic over repetitions;
    /// nil when the samples carry no profile.
    static func breakdown(_ samples: [CellSample], phases: [Phase]) -> [StepBreakdown]? {
        guard let first = samples.first, first.profile != nil,
            samples.allSatisfy({ $0.profile != nil && $0.stepSeconds.count == first.stepSeconds.count })
        else { return nil }
        var stepNames: [String] = []
        for phase in phases {
            if let group = phase.group, !stepNames.contains(group) { stepNames.append(group) }
        }
        guard stepNames.count == first.stepSeconds.count else { return nil }
        return stepNames.enumerated().map { offset, name in
            step(offset + 1, named: name, samples: samples, phases: phases.filter { $0.group == name })
        }
    }

    /// The part of a step that is the phase meter's own work between its phases.
    static let meterPhase = "the phase meter's own reads"
    /// The work of a stage's rest: what its phase measured beyond its segments.
    static let restWork = "unattributed"

    private struct Key: Hashable {
        let phase: String
        let mapping: String?
        let work: String?
    }

    private static func step(
        _ step: Int, named name: String, samples: [CellSample], phases: [Phase]
    )
        -> StepBreakdown
    {
        let wall = Statistic(samples: samples.map { $0.stepSeconds[step - 1] })
        // Per repetition: the segments of the step, those of one key added up, in the order first run.
        let perSample: [[Key: ProfileSegment]] = samples.map { sample in
            var parts: [Key: ProfileSegment] = [:]
            for segment in sample.profile?.segments ?? [] where segment.step == step {
                let key = Key(phase: CellExecution.phaseName(of: segment), mapping: segment.mapping, work: segment.work)
                parts[key] = parts[key].map { adding($0, segment) } ?? segment
            }
            return parts
        }
        var keys: [Key] = []
        for segment in samples[0].profile?.segments ?? [] where segment.step == step {
            let key = Key(phase: CellExecution.phaseName(of: segment), mapping: segment.mapping, work: segment.work)
            if !keys.contains(key) { keys.append(key) }
        }
        var parts = keys.map { key in
            part(key, segments: perSample.compactMap { $0[key] }, stepSeconds: wall.median)
        }
        let stagePhases = Set(keys.map(\.phase))
        // Each repetition's phases of the step, by name.
        let samplePhases = samples.map { sample in
            Dictionary(
                sample.phases.filter { $0.group == name }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }
            )
        }
        var stages: [StageAccount] = []
        // Per repetition: the time its parts account for, added up over the step's phases.
        var accounted = samples.map { _ in 0.0 }
        for phase in phases {
            let walls = samplePhases.compactMap { $0[phase.name]?.wallSeconds }
            guard walls.count == samples.count else { continue }
            for index in walls.indices { accounted[index] += walls[index] }
            if !stagePhases.contains(phase.name) {
                // A phase of the step outside every stage (preparing, opening, the swap): one part of its own.
                parts.append(
                    stepPart(
                        phase.name, work: phase.name, wall: phase.wallSeconds, phase: phase, stepSeconds: wall.median))
                continue
            }
            let attributed = perSample.map { parts in
                parts.filter { $0.key.phase == phase.name }.values.reduce(0) { $0 + $1.wallSeconds }
            }
            stages.append(
                StageAccount(
                    phase: phase.name, wallSeconds: phase.wallSeconds.median,
                    attributedSeconds: Statistic(samples: attributed).median,
                    accounted: Statistic(samples: zip(attributed, walls).map { $1 > 0 ? $0 / $1 : 1 }).median))
            // What the stage's phase took beyond its parts (the profiler's own reads are one of them): code between
            // parts. Its counts are the phase's less its segments', where both were counted: the instructions and
            // allocations of the code between parts, the profiler's own reads among them (timed as a part of their
            // own, counted here).
            let rest = zip(walls, attributed).map { max($0 - $1, 0) }
            var restPart = stepPart(
                phase.name, work: Self.restWork, wall: Statistic(samples: rest), phase: nil, stepSeconds: wall.median)
            restPart.counts = restCounts(
                samplePhases.compactMap { $0[phase.name]?.counts },
                segments: perSample.map { parts in parts.filter { $0.key.phase == phase.name }.map(\.value) })
            parts.append(restPart)
        }
        // The phase meter's own reads and resets between the step's phases: outside every phase, inside the step.
        if samples.allSatisfy({ $0.meterSeconds.count == $0.stepSeconds.count }) {
            let walls = samples.map { $0.meterSeconds[step - 1] }
            for index in walls.indices { accounted[index] += walls[index] }
            parts.append(
                stepPart(
                    Self.meterPhase, work: Self.meterPhase, wall: Statistic(samples: walls), phase: nil,
                    stepSeconds: wall.median))
        }
        return StepBreakdown(
            step: name, wallSeconds: wall,
            accounted: Statistic(samples: zip(accounted, samples).map { $0 / max($1.stepSeconds[step - 1], 1e-9) }),
            stages: stages,
            parts: parts.sorted { $0.wallSeconds.median > $1.wallSeconds.median },
            statements: statements(step, samples: samples, stepSeconds: wall.median))
    }

    /// A part measured by the phase meter rather than the profiler: a phase of the step outside the stages (its
    /// figures those of `phase`, aggregated already), or wall time alone (the rest of a stage's phase, the meter's
    /// own reads).
    private static func stepPart(
        _ name: String, work: String, wall: Statistic, phase: Phase?, stepSeconds: Double
    ) -> BreakdownPart {
        let metrics = Set(segmentCounts.map(\.metric.key))
        return BreakdownPart(
            phase: name, mapping: nil, work: work, wallSeconds: wall, userSeconds: phase?.userSeconds,
            systemSeconds: phase?.systemSeconds, rowsRead: 0, objectsCreated: 0, edgesMade: 0,
            heapPeakGrowthBytes: nil, counts: (phase?.counts ?? [:]).filter { metrics.contains($0.key) }, callbacks: [],
            hint: nil, share: stepSeconds > 0 ? wall.median / stepSeconds : 0)
    }

    private static func part(_ key: Key, segments: [ProfileSegment], stepSeconds: Double) -> BreakdownPart {
        func statistic(_ value: (ProfileSegment) -> Double) -> Statistic { Statistic(samples: segments.map(value)) }
        // CPU time only where every repetition measured it.
        func cpu(_ value: (ProfileSegment) -> Double?) -> Statistic? {
            segments.allSatisfy { value($0) != nil } ? statistic { value($0) ?? 0 } : nil
        }
        let first = segments[0]
        let wall = statistic(\.wallSeconds)
        var counts: [String: Statistic] = [:]
        for (metric, value) in segmentCounts where segments.allSatisfy({ value($0) != nil }) {
            counts[metric.key] = statistic { Double(value($0) ?? 0) }
        }
        let callbacks = first.callbacks.map { callback in
            CallbackBreakdown(
                callback: callback.callback, calls: callback.calls,
                seconds: Statistic(
                    samples: segments.map { segment in
                        segment.callbacks.first { $0.callback == callback.callback }?.seconds ?? 0
                    }))
        }
        let heapAvailable = segments.allSatisfy { $0.heapPeakGrowthBytes != nil }
        return BreakdownPart(
            phase: key.phase, mapping: key.mapping, work: key.work, wallSeconds: wall,
            userSeconds: cpu(\.userSeconds), systemSeconds: cpu(\.systemSeconds), rowsRead: first.rowsRead,
            objectsCreated: first.objectsCreated, edgesMade: first.edgesMade,
            heapPeakGrowthBytes: heapAvailable ? statistic { Double($0.heapPeakGrowthBytes ?? 0) } : nil,
            counts: counts, callbacks: callbacks, hint: first.hint,
            share: stepSeconds > 0 ? wall.median / stepSeconds : 0)
    }

    /// The deterministic counts a segment carries, where measured, by metric.
    private static let segmentCounts: [(metric: MetricDefinition, value: @Sendable (ProfileSegment) -> Int?)] = [
        (.allocations, \.allocations), (.allocatedBytes, \.allocatedBytes), (.sqliteSteps, \.sqliteSteps),
        (.sqlitePagesRead, \.sqlitePagesRead), (.sqlitePagesWritten, \.sqlitePagesWritten),
        (.instructions, \.instructions),
    ]

    /// The counts of a stage's phase beyond its segments, per repetition (`phases` and `segments` in the same
    /// order), for each count measured in every phase and every segment.
    private static func restCounts(_ phases: [[String: Int]], segments: [[ProfileSegment]]) -> [String: Statistic] {
        guard !phases.isEmpty, phases.count == segments.count else { return [:] }
        var counts: [String: Statistic] = [:]
        for (metric, value) in segmentCounts {
            // The profiler's own reads are timed, not counted: a segment without a count spoils the difference
            // unless it is one of those.
            let rests = zip(phases, segments).map { phase, segments -> Double? in
                guard let total = phase[metric.key] else { return nil }
                var inSegments = 0
                for segment in segments where segment.work != MigrationProfiler.ownWork {
                    guard let count = value(segment) else { return nil }
                    inSegments += count
                }
                return Double(total - inSegments)
            }
            if rests.allSatisfy({ $0 != nil }) { counts[metric.key] = Statistic(samples: rests.map { $0 ?? 0 }) }
        }
        return counts
    }

    /// Two segments of one part in one repetition as one: figures added up, the higher heap peak.
    private static func adding(_ a: ProfileSegment, _ b: ProfileSegment) -> ProfileSegment {
        func sum<T: AdditiveArithmetic>(_ x: T?, _ y: T?) -> T? { x.flatMap { x in y.map { x + $0 } } }
        var total = a
        total.wallSeconds += b.wallSeconds
        total.userSeconds = sum(a.userSeconds, b.userSeconds)
        total.systemSeconds = sum(a.systemSeconds, b.systemSeconds)
        total.rowsRead += b.rowsRead
        total.objectsCreated += b.objectsCreated
        total.edgesMade += b.edgesMade
        total.heapPeakGrowthBytes = a.heapPeakGrowthBytes.flatMap { x in b.heapPeakGrowthBytes.map { max(x, $0) } }
        total.allocations = sum(a.allocations, b.allocations)
        total.allocatedBytes = sum(a.allocatedBytes, b.allocatedBytes)
        total.sqliteSteps += b.sqliteSteps
        total.sqlitePagesRead += b.sqlitePagesRead
        total.sqlitePagesWritten += b.sqlitePagesWritten
        total.instructions = sum(a.instructions, b.instructions)
        var callbacks = Dictionary(uniqueKeysWithValues: a.callbacks.map { ($0.callback, $0) })
        for callback in b.callbacks {
            callbacks[callback.callback, default: PolicyCallbackTime(callback: callback.callback, calls: 0, seconds: 0)]
                .calls += callback.calls
            callbacks[callback.callback]?.seconds += callback.seconds
        }
        total.callbacks = callbacks.values.sorted { $0.callback < $1.callback }
        total.hint = a.hint ?? b.hint
        return total
    }

    private static func statements(_ step: Int, samples: [CellSample], stepSeconds: Double) -> [StatementBreakdown] {
        guard let first = samples.first?.profile else { return [] }
        return first.statements.filter { $0.step == step }.map { statement in
            let seconds = Statistic(
                samples: samples.map { sample in
                    sample.profile?.statements.first { $0.step == step && $0.text == statement.text }?.seconds ?? 0
                })
            return StatementBreakdown(
                text: statement.text, runs: statement.runs, seconds: seconds, rows: statement.rows,
                share: stepSeconds > 0 ? seconds.median / stepSeconds : 0)
        }.sorted { $0.seconds.median > $1.seconds.median }
    }
}
