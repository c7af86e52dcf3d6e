public import Instrumentation
import ReportModel
import SQLiteDatabase

/// The figures of one phase of one run of a cell, measured in the process that ran it.
public struct PhaseSample: Sendable, Hashable, Codable {
    /// `generate`, `V1 → V2`, `pass 1 · creating objects`, `verify V1 → V2`, …
    public var name: String
    /// The phase this one is part of (a step, for its passes and stages).
    public var group: String?
    /// Wall-clock seconds.
    public var wallSeconds: Double
    /// CPU seconds in user mode.
    public var userSeconds: Double
    /// CPU seconds in the kernel.
    public var systemSeconds: Double
    /// Heap allocated at the end, from jemalloc; nil when jemalloc is not the allocator.
    public var heapAllocatedBytes: Int?
    /// The heap's peak during the phase (allocated at its start plus the thread's highest net growth).
    public var heapPeakBytes: Int?
    /// The resident set at the end.
    public var residentBytes: Int
    /// The resident set's peak during the phase (the high-water mark is reset when the phase starts).
    public var peakResidentBytes: Int
    /// Bytes passed through read calls.
    public var bytesRead: Int
    /// Bytes passed through write calls.
    public var bytesWritten: Int
    /// SQLite's own memory high-water mark during the phase.
    public var sqliteMemoryHighWaterBytes: Int
    /// The deterministic counts of the phase, keyed by ``MetricDefinition/key`` (allocations, SQLite's
    /// steps and pages, instructions); a count missing here is unavailable (``CellSample/unavailable`` says why).
    public var counts: [String: Int] = [:]
    /// Under callgrind: the indices of the profile parts that hold this phase's instructions, which the parent
    /// process adds up into ``counts`` once the child has exited.
    public var instructionParts: [Int]?
    /// Objects the phase made or checked.
    public var objects: Int
    /// Relationship edges the phase made or checked.
    public var edges: Int

    /// One phase covering `parts`, one after another: times and I/O add up, peaks are the highest, end
    /// values are the last part's.
    public static func combining(_ parts: [PhaseSample], name: String, group: String? = nil) -> PhaseSample {
        let last = parts.last
        var counts: [String: Int] = [:]
        for key in Set(parts.flatMap(\.counts.keys)) where parts.allSatisfy({ $0.counts[key] != nil }) {
            counts[key] = parts.reduce(0) { $0 + ($1.counts[key] ?? 0) }
        }
        let instructionParts =
            parts.contains { $0.instructionParts == nil } ? nil : parts.flatMap { $0.instructionParts ?? [] }
        return PhaseSample(
            name: name, group: group,
            wallSeconds: parts.reduce(0) { $0 + $1.wallSeconds },
            userSeconds: parts.reduce(0) { $0 + $1.userSeconds },
            systemSeconds: parts.reduce(0) { $0 + $1.systemSeconds },
            heapAllocatedBytes: last?.heapAllocatedBytes,
            heapPeakBytes: parts.contains { $0.heapPeakBytes == nil } ? nil : parts.compactMap(\.heapPeakBytes).max(),
            residentBytes: last?.residentBytes ?? 0,
            peakResidentBytes: parts.map(\.peakResidentBytes).max() ?? 0,
            bytesRead: parts.reduce(0) { $0 + $1.bytesRead },
            bytesWritten: parts.reduce(0) { $0 + $1.bytesWritten },
            sqliteMemoryHighWaterBytes: parts.map(\.sqliteMemoryHighWaterBytes).max() ?? 0,
            counts: counts, instructionParts: instructionParts,
            objects: parts.map(\.objects).max() ?? 0,
            edges: parts.map(\.edges).max() ?? 0)
    }
}

/// Measures phases one after another on the calling thread: wall and CPU time, heap (jemalloc), resident
/// set with its high-water mark reset per phase, I/O and SQLite's memory high-water mark, and the counts that
/// do not move with the machine's load: the thread's allocations, SQLite's work and instructions.
///
/// The counts and the clock are read last when a phase begins and first when it ends, so that the meter's own
/// work stays outside them; the time it takes is measured too (``ownSeconds``), so that the phases of a step and
/// the meter's reads between them add up to the step.
public final class PhaseMeter {
    private let heap: any HeapStatistics
    /// The thread's heap peaks, shared with measurements made inside a phase (``MigrationProfiler``).
    public let heapPeaks: NestedHeapPeaks
    /// The thread's instruction counter, shared with measurements made inside a phase (``MigrationProfiler``).
    public let instructions = InstructionCounter()
    private let clock = ContinuousClock()
    private var current: (name: String, group: String?, start: Start)?
    /// The phases measured so far, in order.
    public internal(set) var samples: [PhaseSample] = []
    /// Seconds the meter spent on its own reads and resets, outside every phase, so far.
    public private(set) var ownSeconds = 0.0

    private struct Start {
        let instant: ContinuousClock.Instant
        let usage: ResourceUsage
        let heapAllocated: Int?
        let heapPeak: Int
        let io: (read: Int, written: Int)
        let allocations: (count: Int, bytes: Int)?
        let sqlite: SQLiteWork
    }

    /// A meter reading `heap`, which tracks the calling thread's allocations from now on.
    public init(heap: any HeapStatistics) {
        self.heap = heap
        self.heapPeaks = NestedHeapPeaks(heap: heap)
        heap.trackCallingThread()
    }

    /// Whether instructions are counted under callgrind, which counts the measuring thread alone: work that would
    /// be shared with another thread (verification) then stays on the measuring one, to be counted whole.
    public var countsUnderCallgrind: Bool {
        if case .callgrind = instructions.method { return true }
        return false
    }

    /// Each count this meter cannot measure, keyed by metric, with why.
    public var unavailable: [String: String] {
        var reasons: [String: String] = [:]
        if let reason = instructions.unavailableReason { reasons[MetricDefinition.instructions.key] = reason }
        if case .failure(let why) = heap.allocationMethod {
            reasons[MetricDefinition.allocations.key] = why.reason
            reasons[MetricDefinition.allocatedBytes.key] = why.reason
        }
        return reasons
    }

    /// How each measured count is taken, keyed by metric.
    public var countingMethods: [String: String] {
        var methods: [String: String] = [:]
        let sqlite = "SQLite \(Connection.sqliteVersion) sqlite3_stmt_status, sqlite3_db_status"
        methods[MetricDefinition.sqliteSteps.key] = sqlite
        methods[MetricDefinition.sqlitePagesRead.key] = sqlite
        methods[MetricDefinition.sqlitePagesWritten.key] = sqlite
        methods[MetricDefinition.bytesWritten.key] = "/proc/self/io wchar"
        if let method = instructions.methodDescription { methods[MetricDefinition.instructions.key] = method }
        if case .success(let method) = heap.allocationMethod {
            methods[MetricDefinition.allocations.key] = method
            methods[MetricDefinition.allocatedBytes.key] = method
        }
        return methods
    }

    /// Ends the phase under way, if any, and starts `name`.
    public func begin(_ name: String, group: String? = nil) {
        if current != nil { end() }
        let entered = clock.now
        let heapPeak = heapPeaks.begin()
        ProcessStatus.resetPeakResident()
        _ = Connection.memoryHighWater(reset: true)
        let heapAllocated = heap.allocatedBytes()
        let io = ProcessStatus.ioBytes() ?? (0, 0)
        let allocations = heap.threadAllocations()
        let sqlite = SQLiteWork.current()
        let usage = ResourceUsage.current()
        let instant = clock.now
        ownSeconds += (instant - entered).seconds
        current = (
            name, group,
            Start(
                instant: instant, usage: usage, heapAllocated: heapAllocated, heapPeak: heapPeak, io: io,
                allocations: allocations, sqlite: sqlite)
        )
        instructions.beginPhase()
    }

    /// Ends the phase under way and records it; `objects` and `edges` say how much work it did.
    @discardableResult
    public func end(objects: Int = 0, edges: Int = 0) -> PhaseSample? {
        guard let (name, group, start) = current else { return nil }
        let instructionCount = instructions.endPhase()
        let instant = clock.now
        defer { ownSeconds += (clock.now - instant).seconds }
        let usage = ResourceUsage.current()
        let allocations = heap.threadAllocations()
        let sqlite = SQLiteWork.current()
        current = nil
        let wall = (instant - start.instant).seconds
        let io = ProcessStatus.ioBytes() ?? (0, 0)
        let peak = heapPeaks.end(start.heapPeak).flatMap { growth in start.heapAllocated.map { $0 + growth } }
        var sample = PhaseSample(
            name: name, group: group, wallSeconds: wall,
            userSeconds: usage.userSeconds - start.usage.userSeconds,
            systemSeconds: usage.systemSeconds - start.usage.systemSeconds,
            heapAllocatedBytes: heap.allocatedBytes(), heapPeakBytes: peak,
            residentBytes: ProcessStatus.residentBytes() ?? 0,
            peakResidentBytes: ProcessStatus.peakResidentBytes() ?? usage.maxResidentBytes,
            bytesRead: io.read - start.io.read, bytesWritten: io.written - start.io.written,
            sqliteMemoryHighWaterBytes: Int(Connection.memoryHighWater(reset: false)),
            objects: objects, edges: edges)
        sample.counts[MetricDefinition.sqliteSteps.key] = sqlite.steps - start.sqlite.steps
        sample.counts[MetricDefinition.sqlitePagesRead.key] = sqlite.pagesRead - start.sqlite.pagesRead
        sample.counts[MetricDefinition.sqlitePagesWritten.key] = sqlite.pagesWritten - start.sqlite.pagesWritten
        if let before = start.allocations, let allocations {
            sample.counts[MetricDefinition.allocations.key] = allocations.count - before.count
            sample.counts[MetricDefinition.allocatedBytes.key] = allocations.bytes - before.bytes
        }
        sample.counts[MetricDefinition.instructions.key] = instructionCount
        sample.instructionParts = instructions.lastPhaseParts
        samples.append(sample)
        return sample
    }
}
