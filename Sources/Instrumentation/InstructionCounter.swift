import CCounters
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts instructions of the measuring thread, phase by phase: the hardware counter where the kernel offers it,
/// valgrind's callgrind when the process runs under it, and otherwise nothing, with the reason.
///
/// Under callgrind the count is not readable from inside: ``endPhase()`` asks callgrind to write the phase's
/// part of the profile (`CALLGRIND_DUMP_STATS_AT`, named by the part's index), and the parent process reads
/// the parts when the child has exited (see ``CallgrindParts``). ``beginPhase()`` zeroes callgrind's counts
/// first, so that the parts of a phase hold exactly that phase.
///
/// A phase may have parts of its own (the profiler's segments, ``beginPart()`` and ``endPart(_:)``): under
/// callgrind each part, and each stretch between parts, is written as a profile part of its own, and the phase is
/// all of them (``lastPhaseParts``); with the hardware counter a part is the difference of two reads.
///
/// One thread measures; the state is behind a lock only so that the counter can be handed to the engine.
public final class InstructionCounter: Sendable {
    /// How the counter counts.
    public enum Method: Sendable, Hashable {
        /// `perf_event_open`, the calling thread's user-mode instructions.
        case hardware(fileDescriptor: Int32)
        /// valgrind's callgrind: phases are written as profile parts for the parent to read.
        case callgrind
        /// Nothing can count: the reason.
        case unavailable(String)
    }

    /// The instructions of a part of a phase.
    public enum PartInstructions: Sendable, Hashable {
        /// Counted by the hardware counter.
        case counted(Int)
        /// Written by callgrind as the profile part of this index, for the parent process to read.
        case inProfilePart(Int)
    }

    /// How this counter counts.
    public let method: Method

    /// Whether this build can mark phases for callgrind: false when valgrind's headers (`valgrind/callgrind.h`)
    /// were missing at build time.
    public static var canMarkPhasesForCallgrind: Bool { migrationbench_has_valgrind_headers() != 0 }

    private struct State {
        /// The hardware counter's reading when the phase began.
        var start: Int64 = 0
        /// The index of the next profile part callgrind writes.
        var nextPart = 0
        /// The index of the phase's first profile part.
        var firstPart = 0
        /// The indices of the profile parts of the phase ended last (kept as a range: an array made as the phase
        /// ends would be an allocation counted in it).
        var lastPhaseParts: ClosedRange<Int>?
    }

    private let state = Mutex(State())

    /// A counter for the calling thread: callgrind when running under valgrind, else the hardware counter, else
    /// unavailable with the reason.
    public init() {
        if migrationbench_running_on_valgrind() != 0 {
            method = .callgrind
            return
        }
        var error: Int32 = 0
        let fd = migrationbench_instructions_open(&error)
        if fd >= 0 {
            method = .hardware(fileDescriptor: fd)
        } else {
            let reason = String(cString: strerror(error))
            method = .unavailable(
                "the kernel gives no hardware instruction counter (perf_event_open: \(reason)); "
                    + "run with --instructions to count under valgrind")
        }
    }

    deinit {
        if case .hardware(let fd) = method { close(fd) }
    }

    /// The counting method for reports (`perf_event_open`, `valgrind callgrind`), or nil when unavailable.
    public var methodDescription: String? {
        switch method {
        case .hardware: "perf_event_open instructions:u"
        case .callgrind: "valgrind callgrind Ir"
        case .unavailable: nil
        }
    }

    /// Why instructions are not counted, or nil when they are.
    public var unavailableReason: String? {
        if case .unavailable(let reason) = method { return reason }
        return nil
    }

    /// Under callgrind, the indices of the profile parts that hold the phase ended last (its parts and the stretches
    /// between them); nil otherwise.
    public var lastPhaseParts: [Int]? { state.withLock { $0.lastPhaseParts }.map(Array.init) }

    /// Starts a phase.
    public func beginPhase() {
        switch method {
        case .hardware(let fd):
            let reading = migrationbench_instructions_read(fd)
            state.withLock { $0.start = reading }
        case .callgrind:
            state.withLock { $0.firstPart = $0.nextPart }
            migrationbench_callgrind_zero()
        case .unavailable: break
        }
    }

    /// Ends a phase: its instructions from the hardware counter; under callgrind nil, the count being written
    /// as the profile parts ``lastPhaseParts``.
    public func endPhase() -> Int? {
        switch method {
        case .hardware(let fd):
            let end = migrationbench_instructions_read(fd)
            let start = state.withLock { $0.start }
            return end >= 0 && start >= 0 ? Int(end - start) : nil
        case .callgrind:
            let index = dumpPart()
            state.withLock { $0.lastPhaseParts = $0.firstPart...index }
            return nil
        case .unavailable: return nil
        }
    }

    /// Starts a part of the phase under way: returns the hardware counter's reading, for ``endPart(_:)``; under
    /// callgrind the instructions since the phase's start or its last part are written as a part of the phase
    /// that belongs to none of its parts.
    public func beginPart() -> Int64 {
        switch method {
        case .hardware(let fd): return migrationbench_instructions_read(fd)
        case .callgrind: _ = dumpPart()
        case .unavailable: break
        }
        return 0
    }

    /// Ends the part begun when the hardware counter read `start` (``beginPart()``): its instructions, or nil when
    /// they cannot be counted.
    public func endPart(_ start: Int64) -> PartInstructions? {
        switch method {
        case .hardware(let fd):
            let end = migrationbench_instructions_read(fd)
            return end >= 0 && start >= 0 ? .counted(Int(end - start)) : nil
        case .callgrind: return .inProfilePart(dumpPart())
        case .unavailable: return nil
        }
    }

    /// Has callgrind write the counts since the last zero or dump as the next profile part; its index.
    private func dumpPart() -> Int {
        let index = state.withLock { state in
            defer { state.nextPart += 1 }
            return state.nextPart
        }
        // A string literal's bytes end with a NUL: the prefix goes to C as it is, with no copy.
        let prefix = UnsafeRawPointer(CallgrindParts.prefix.utf8Start).assumingMemoryBound(to: CChar.self)
        migrationbench_callgrind_dump_indexed(prefix, index)
        return index
    }
}

/// Reads the instruction counts of a child's phases from the profile parts callgrind wrote for them.
public enum CallgrindParts {
    /// The name of the profile part of index `index` (from 0).
    public static func partName(_ index: Int) -> String { "\(prefix)\(index)" }

    /// What every part's name starts with, before its index.
    static let prefix: StaticString = "migrationbench-phase-"

    /// The bytes of each phase's parts, by index, over every thread's file: callgrind writes them from inside the
    /// measured process when the phase ends, so they are among the phase's bytes written (`wchar`) and must come
    /// out of them (a 1,000-object cell wrote 65,598 bytes natively and 3,575,536 with its parts).
    public static func dumpedBytes(inFiles texts: [String]) -> [Int: Int] {
        read(inFiles: texts).dumpedBytes
    }

    /// The instructions of each phase, by index, from the text of callgrind's output files: each part names its
    /// trigger (`desc: Trigger: Client Request: migrationbench-phase-3`) and gives the events collected in it
    /// (`summary: 12345`; `totals:`, the sum of the part's cost lines, only where a file has no summary). Parts of
    /// threads other than the first (`thread: 2`: the memory sampler, whose work depends on time) are left out.
    public static func counts(inFiles texts: [String]) -> [Int: Int] {
        read(inFiles: texts).counts
    }

    /// Both ``counts(inFiles:)`` and ``dumpedBytes(inFiles:)`` of `texts`, each file read once.
    public static func read(inFiles texts: [String]) -> (counts: [Int: Int], dumpedBytes: [Int: Int]) {
        var counts: [Int: Int] = [:]
        var bytes: [Int: Int] = [:]
        let prefix = "desc: Trigger: Client Request: " + partName(0).dropLast()
        for text in texts {
            var index: Int?
            var summary: Int?
            var totals: Int?
            var thread = 1
            for line in text.split(separator: "\n") {
                let value = { line.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
                if line.hasPrefix("thread:") {
                    thread = value() ?? 1
                } else if line.hasPrefix(prefix) {
                    index = Int(String(line.dropFirst(prefix.count).filter(\.isNumber)))
                } else if line.hasPrefix("summary:") {
                    summary = value()
                } else if line.hasPrefix("totals:") {
                    totals = value()
                }
            }
            if let index { bytes[index, default: 0] += text.utf8.count }
            // With --separate-threads=yes each thread has its own part: only the measuring (main) thread's count.
            if thread == 1, let index, let total = summary ?? totals { counts[index] = total }
        }
        return (counts, bytes)
    }
}
