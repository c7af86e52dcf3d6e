public import Instrumentation
import SQLiteDatabase
import Synchronization

/// Measures where a migration's time and memory go, part by part: each entity mapping's stages, the work of a
/// stage that belongs to no mapping, each policy callback, and each SQL statement of a lightweight step.
///
/// Off unless given to ``StoreMigrator/profiler`` (or ``MigrationManager/profiler``): a migration without one
/// reads no clock and no counter for it. With one, a segment costs a few system calls at its start and end —
/// a few per entity mapping and stage, not per object —, and a custom policy's callbacks two clock reads each.
/// The profiler's own reads are timed too, and recorded per stage as a segment of their own
/// (``MigrationProfiler/ownWork``), so that a stage's segments account for its time.
///
/// ```swift
/// var migrator = try StoreMigrator(history: history, mappingModels: [mapping])
/// migrator.profiler = MigrationProfiler()
/// try migrator.migrateStore(at: "Library.sqlite")
/// for segment in migrator.profiler!.profile.segments { print(segment.mapping ?? "-", segment.wallSeconds) }
/// ```
public final class MigrationProfiler: Sendable {
    private let heap: (any HeapStatistics)?
    private let peaks: NestedHeapPeaks?
    private let instructions: InstructionCounter?
    private let recorded = Mutex(Recorded())

    fileprivate struct Recorded {
        var profile = MigrationProfile()
        var step = 1
        /// The index of each stage's segment of the profiler's own reads, keyed by step, pass and stage.
        var ownSegments: [OwnKey: Int] = [:]
        /// The segments whose policy callbacks were timed, with their tally and the policy's name: their
        /// ``ProfileSegment/callbacks`` and hint are made when the profile is read, not as each segment ends.
        var timedCallbacks: [(segment: Int, tally: PolicyCallbackTally, policy: String?)] = []

        /// Room made at the start for the segments of a typical step, so that recording one does not grow the
        /// array between parts (an allocation there makes the next part's allocation read refresh jemalloc's
        /// statistics).
        init() {
            profile.segments.reserveCapacity(256)
            ownSegments.reserveCapacity(16)
            timedCallbacks.reserveCapacity(64)
        }
    }

    fileprivate struct OwnKey: Hashable {
        let step: Int
        let pass: Int?
        let stage: String
    }

    /// The ``ProfileSegment/work`` of a stage's segment that holds the profiler's own reads at the start and end
    /// of the stage's other segments.
    public static let ownWork = "the profiler's own reads"

    /// A profiler; `heap` and `peaks` (shared with any measurement around the migration) give the heap
    /// figures, which are nil (unavailable) without them; `instructions` (the counter of the phases around the
    /// migration, whose parts the segments become) gives each segment's instructions, which are nil without it.
    public init(
        heap: (any HeapStatistics)? = nil, peaks: NestedHeapPeaks? = nil, instructions: InstructionCounter? = nil
    ) {
        self.heap = heap
        self.peaks = peaks
        self.instructions = instructions
    }

    /// What was measured so far.
    public var profile: MigrationProfile {
        recorded.withLock { recorded in
            var profile = recorded.profile
            for (index, tally, policy) in recorded.timedCallbacks {
                let callbacks = tally.times
                profile.segments[index].callbacks = callbacks
                if profile.segments[index].hint == nil, let busiest = callbacks.max(by: { $0.seconds < $1.seconds }),
                    busiest.seconds > 0
                {
                    let calls = Self.grouped(busiest.calls)
                    profile.segments[index].hint =
                        "policy \(policy ?? "its policy"): \(busiest.callback) called \(calls) times"
                }
            }
            return profile
        }
    }

    /// Forgets what was measured, for the next migration.
    public func reset() {
        recorded.withLock { $0 = Recorded() }
    }

    /// The step now running, from 1.
    func enterStep(_ step: Int) {
        recorded.withLock { $0.step = step }
    }

    /// The figures at a segment's start.
    struct Start {
        /// Nanoseconds of ``MonotonicClock`` when the segment started.
        let instant: UInt64
        /// Nanoseconds the profiler took to read the figures before it.
        let ownNanoseconds: UInt64
        let usage: ResourceUsage
        let sqlite: SQLiteWork
        let allocations: (count: Int, bytes: Int)?
        let peak: Int?
        /// The instruction counter's reading (``InstructionCounter/beginPart()``), when instructions are counted.
        let instructions: Int64?
        let work: Work
    }

    /// Rows read, objects made and edges written so far, as the session counts them.
    struct Work {
        var rows: Int
        var objects: Int
        var edges: Int

        /// No rows, objects or edges: a part's count at its start, or of work that moves none.
        static let none = Work(rows: 0, objects: 0, edges: 0)
    }

    /// Where a segment belongs.
    struct Place {
        var pass: Int?
        var stage: String
        var mapping: String?
        var work: String?
    }

    func begin(_ work: Work) -> Start {
        let entered = MonotonicClock.nanoseconds()
        let peak = peaks?.begin()
        let allocations = heap?.threadAllocations()
        let sqlite = SQLiteWork.current()
        let usage = ResourceUsage.current()
        let reading = instructions?.beginPart()
        let instant = MonotonicClock.nanoseconds()
        return Start(
            instant: instant, ownNanoseconds: instant &- entered, usage: usage, sqlite: sqlite,
            allocations: allocations, peak: peak, instructions: reading, work: work)
    }

    /// Records the segment begun at `start`, now that the session counts `work`, with the policy callbacks timed
    /// in it (`callbacks`, of the policy `policy`): a segment with timed callbacks is hinted by its busiest one,
    /// when the profile is read; any other by `hint`, worked out once the segment has ended, as the profiler's own
    /// work (it must not allocate: an allocation between segments costs the next one's allocation read a refresh
    /// of jemalloc's statistics).
    func end(
        _ start: Start, at place: Place, work: Work, callbacks: PolicyCallbackTally = PolicyCallbackTally(),
        policy: String? = nil, hint: () -> String?
    ) {
        let end = MonotonicClock.nanoseconds()
        let instructions = start.instructions.flatMap { self.instructions?.endPart($0) }
        let usage = ResourceUsage.current()
        let sqlite = SQLiteWork.current()
        let allocations = heap?.threadAllocations()
        let growth = start.peak.flatMap { peaks?.end($0) }
        let timed = !callbacks.isEmpty
        // The engine's own hint first (a policy run as SQL times its begin and end callbacks all the same); the
        // busiest callback names the part only where there is none (``profile``).
        let hint = hint()
        var segment = ProfileSegment(
            step: 0, pass: place.pass, stage: place.stage, mapping: place.mapping, work: place.work,
            wallSeconds: Double(end &- start.instant) * 1e-9,
            userSeconds: usage.userSeconds - start.usage.userSeconds,
            systemSeconds: usage.systemSeconds - start.usage.systemSeconds, rowsRead: work.rows - start.work.rows,
            objectsCreated: work.objects - start.work.objects, edgesMade: work.edges - start.work.edges,
            heapPeakGrowthBytes: growth, allocations: zip(start.allocations, allocations) { $1.count - $0.count },
            allocatedBytes: zip(start.allocations, allocations) { $1.bytes - $0.bytes },
            sqliteSteps: sqlite.steps - start.sqlite.steps, sqlitePagesRead: sqlite.pagesRead - start.sqlite.pagesRead,
            sqlitePagesWritten: sqlite.pagesWritten - start.sqlite.pagesWritten, callbacks: [], hint: hint)
        segment.instructions = instructions?.counted
        segment.instructionPart = instructions?.profilePart
        recorded.withLock { recorded in
            segment.step = recorded.step
            if timed { recorded.timedCallbacks.append((recorded.profile.segments.count, callbacks, policy)) }
            recorded.profile.segments.append(segment)
            let own = Double(start.ownNanoseconds &+ (MonotonicClock.nanoseconds() &- end)) * 1e-9
            recorded.addOwnTime(own, pass: place.pass, stage: place.stage)
        }
    }

    /// Runs `body` as a segment at `place` that reads, makes and writes what `work` says of its result (by
    /// default, nothing the session counts).
    func measure<T>(
        _ place: Place, work: (T) -> Work = { _ in .none }, _ body: () throws -> T
    ) throws -> T {
        let start = begin(.none)
        do {
            let result = try body()
            end(start, at: place, work: work(result), hint: { nil })
            return result
        } catch {
            abandon(start)
            throw error
        }
    }

    /// Ends the segment begun at `start` without recording it (the migration failed in it).
    func abandon(_ start: Start) {
        if let peak = start.peak { _ = peaks?.end(peak) }
    }

    /// Adds the statements SQLite measured in the step now running.
    func record(_ runs: [Connection.StatementRun]) {
        recorded.withLock { recorded in
            let step = recorded.step
            for run in runs {
                let text = Self.shortened(run.sql)
                let seconds = Double(run.nanoseconds) / 1e9
                if let index = recorded.profile.statements.firstIndex(where: { $0.step == step && $0.text == text }) {
                    recorded.profile.statements[index].runs += 1
                    recorded.profile.statements[index].seconds += seconds
                    if let rows = run.rowsChanged { recorded.profile.statements[index].rows? += rows }
                } else {
                    recorded.profile.statements.append(
                        StatementTime(step: step, text: text, runs: 1, seconds: seconds, rows: run.rowsChanged))
                }
            }
        }
    }

    /// `9,170`: a count with thousands separators, whatever the locale.
    static func grouped(_ value: Int) -> String {
        var digits = String(value)
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
            index -= 3
        }
        return digits
    }

    /// `text` on one line, whitespace folded, cut at ``StatementTime/textLimit`` characters with `…`.
    static func shortened(_ text: String) -> String {
        let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard folded.count > StatementTime.textLimit else { return folded }
        return String(folded.prefix(StatementTime.textLimit - 1)) + "…"
    }
}

extension MigrationProfiler.Recorded {
    /// Adds `seconds` of the profiler's own reads to the segment that holds them for `stage` of `pass` in the step
    /// now running.
    fileprivate mutating func addOwnTime(_ seconds: Double, pass: Int?, stage: String) {
        let key = MigrationProfiler.OwnKey(step: step, pass: pass, stage: stage)
        if let index = ownSegments[key] {
            profile.segments[index].wallSeconds += seconds
            return
        }
        ownSegments[key] = profile.segments.count
        profile.segments.append(
            ProfileSegment(
                step: step, pass: pass, stage: stage, mapping: nil, work: MigrationProfiler.ownWork,
                wallSeconds: seconds, userSeconds: nil, systemSeconds: nil, rowsRead: 0, objectsCreated: 0,
                edgesMade: 0, heapPeakGrowthBytes: nil, allocations: nil, allocatedBytes: nil, sqliteSteps: 0,
                sqlitePagesRead: 0, sqlitePagesWritten: 0, callbacks: [], hint: nil))
    }
}

/// Both values combined, or nil when either is missing.
private func zip<A, B, R>(_ first: A?, _ second: B?, _ combine: (A, B) -> R) -> R? {
    guard let first, let second else { return nil }
    return combine(first, second)
}

extension InstructionCounter.PartInstructions {
    /// The count, when the hardware counter counted it.
    fileprivate var counted: Int? {
        if case .counted(let count) = self { return count }
        return nil
    }

    /// The profile part that holds the count, under callgrind.
    fileprivate var profilePart: Int? {
        if case .inProfilePart(let index) = self { return index }
        return nil
    }
}
