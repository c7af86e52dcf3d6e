/// Reads the allocator's own statistics. The executable supplies the jemalloc implementation, so that
/// libraries never link jemalloc; anything else reports "unavailable" (nil), never zero.
public protocol HeapStatistics: Sendable {
    /// The allocator and its version, such as `jemalloc 5.3.0-0-g54eaed1d8b56…`, or why there is none.
    var allocatorDescription: String { get }
    /// Whether the numbers are real.
    var isAvailable: Bool { get }
    /// Bytes currently allocated by the whole process.
    func allocatedBytes() -> Int?
    /// Starts a new peak measurement for the calling thread.
    func resetThreadPeak()
    /// The highest net allocation of the calling thread since the last reset, in bytes.
    func threadPeakBytes() -> Int?
    /// Makes the calling thread's allocations countable by ``threadAllocations()``; call it once, on the thread
    /// that does the measured work, before it starts.
    func trackCallingThread()
    /// The allocations the tracked thread has made so far: how many, and their bytes; nil when unavailable.
    func threadAllocations() -> (count: Int, bytes: Int)?
    /// The calling thread's bytes allocated minus its bytes freed, since it started; nil when unavailable.
    func threadNetBytes() -> Int?
    /// How allocations are counted, for the report (a baseline counted otherwise is not comparable), or why
    /// they are not.
    var allocationMethod: Result<String, CountUnavailable> { get }
}

/// Why a count (allocations, instructions) cannot be measured.
public struct CountUnavailable: Error, Sendable, Hashable {
    /// The reason, in words.
    public let reason: String

    /// Creates the reason.
    public init(_ reason: String) {
        self.reason = reason
    }
}

extension HeapStatistics {
    /// Does nothing: allocations are not counted.
    public func trackCallingThread() {}
    /// Always nil: unavailable.
    public func threadAllocations() -> (count: Int, bytes: Int)? { nil }
    /// Always nil: unavailable.
    public func threadNetBytes() -> Int? { nil }
    /// Unavailable, with the allocator's description as the reason.
    public var allocationMethod: Result<String, CountUnavailable> {
        .failure(CountUnavailable(allocatorDescription))
    }
}

/// The statistics of a process whose allocator cannot be asked: every figure is unavailable.
public struct UnavailableHeapStatistics: HeapStatistics {
    /// Why there are no figures.
    public let allocatorDescription: String

    /// Creates the stand-in, saying why.
    public init(reason: String = "unavailable: the process does not run on jemalloc") {
        self.allocatorDescription = reason
    }

    /// Always false.
    public var isAvailable: Bool { false }
    /// Always nil: unavailable.
    public func allocatedBytes() -> Int? { nil }
    /// Does nothing.
    public func resetThreadPeak() {}
    /// Always nil: unavailable.
    public func threadPeakBytes() -> Int? { nil }
}
