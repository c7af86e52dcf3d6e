/// Memory at one moment of a migration.
public struct MemorySample: Sendable, Hashable, Codable {
    /// Seconds since the migration started.
    public var seconds: Double
    /// Bytes allocated on the heap, or nil when unavailable (never 0 for unknown).
    public var heapBytes: Double?
    /// The resident set size, in bytes.
    public var residentBytes: Double

    /// Creates a sample.
    public init(seconds: Double, heapBytes: Double?, residentBytes: Double) {
        self.seconds = seconds
        self.heapBytes = heapBytes
        self.residentBytes = residentBytes
    }
}
