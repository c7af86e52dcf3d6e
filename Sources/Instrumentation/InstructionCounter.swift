import CCounters

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts instructions of the measuring thread, phase by phase: the hardware counter where the kernel offers it,
/// valgrind's callgrind when the process runs under it, and otherwise nothing, with the reason.
///
/// Under callgrind the count is not readable from inside: ``endPhase(_:)`` asks callgrind to write the phase's
/// part of the profile (`CALLGRIND_DUMP_STATS_AT`, named by the phase's index), and the parent process reads
/// the parts when the child has exited (see ``CallgrindParts``). ``beginPhase()`` zeroes callgrind's counts
/// first, so that each part holds exactly one phase.
public final class InstructionCounter {
    /// How the counter counts.
    public enum Method: Sendable, Hashable {
        /// `perf_event_open`, the calling thread's user-mode instructions.
        case hardware(fileDescriptor: Int32)
        /// valgrind's callgrind: phases are written as profile parts for the parent to read.
        case callgrind
        /// Nothing can count: the reason.
        case unavailable(String)
    }

    /// How this counter counts.
    public let method: Method

    /// Whether this build can mark phases for callgrind: false when valgrind's headers (`valgrind/callgrind.h`)
    /// were missing at build time.
    public static var canMarkPhasesForCallgrind: Bool { migrationbench_has_valgrind_headers() != 0 }
    private var start: Int64 = 0
    private var phases = 0

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

    /// Starts a phase.
    public func beginPhase() {
        switch method {
        case .hardware(let fd): start = migrationbench_instructions_read(fd)
        case .callgrind: migrationbench_callgrind_zero()
        case .unavailable: break
        }
    }

    /// Ends a phase: its instructions from the hardware counter; under callgrind nil, the count being written
    /// as the profile part named ``CallgrindParts/partName(_:)`` of the phase's index (from 0).
    public func endPhase() -> Int? {
        defer { phases += 1 }
        switch method {
        case .hardware(let fd):
            let end = migrationbench_instructions_read(fd)
            return end >= 0 && start >= 0 ? Int(end - start) : nil
        case .callgrind:
            migrationbench_callgrind_dump(CallgrindParts.partName(phases))
            return nil
        case .unavailable: return nil
        }
    }
}

/// Reads the instruction counts of a child's phases from the profile parts callgrind wrote for them.
public enum CallgrindParts {
    /// The name of the part of phase `index` (from 0).
    public static func partName(_ index: Int) -> String { "migrationbench-phase-\(index)" }

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
