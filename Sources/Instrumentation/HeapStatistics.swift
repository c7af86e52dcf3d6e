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
