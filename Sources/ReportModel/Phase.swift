/// The metrics of one phase of a cell, such as `open`, `step V1→V2`, `pass 1` or `save`, over its repetitions.
public struct Phase: Sendable, Hashable, Codable {
    /// The phase's name, such as `generate`, `step V1→V2`, `pass 1`, `stage 1 create instances` or `swap`.
    public var name: String
    /// The name of the phase this one is part of, such as the step a pass belongs to, or nil at the top level.
    public var group: String?
    /// Elapsed time, in seconds.
    public var wallSeconds: Statistic
    /// CPU time in user mode, in seconds.
    public var userSeconds: Statistic
    /// CPU time in the kernel, in seconds.
    public var systemSeconds: Statistic
    /// Heap bytes allocated at the end of the phase, or nil when unavailable (never 0 for unknown).
    public var heapAllocatedBytes: Statistic?
    /// The heap's high-water mark during the phase, or nil when unavailable (never 0 for unknown).
    public var heapPeakBytes: Statistic?
    /// The resident set size at the end of the phase, in bytes.
    public var residentBytes: Statistic
    /// The resident set's high-water mark during the phase, in bytes.
    public var peakResidentBytes: Statistic
    /// Bytes read from storage.
    public var bytesRead: Statistic
    /// Bytes written to storage.
    public var bytesWritten: Statistic
    /// SQLite's own memory high-water mark, in bytes.
    public var sqliteMemoryHighWaterBytes: Statistic
    /// The deterministic counts measured in the phase (``MetricDefinition/counts``), keyed by metric; a count
    /// missing here was not measured, and the cell's ``Cell/unavailable`` says why. Absent in older reports.
    public var counts: [String: Statistic]?
    /// Objects the phase handled.
    public var objects: Int
    /// Relationship edges the phase handled.
    public var edges: Int

    /// Creates a phase.
    public init(
        name: String, group: String?, wallSeconds: Statistic, userSeconds: Statistic, systemSeconds: Statistic,
        heapAllocatedBytes: Statistic?, heapPeakBytes: Statistic?, residentBytes: Statistic,
        peakResidentBytes: Statistic, bytesRead: Statistic, bytesWritten: Statistic,
        sqliteMemoryHighWaterBytes: Statistic, counts: [String: Statistic]? = nil, objects: Int, edges: Int
    ) {
        self.name = name
        self.group = group
        self.wallSeconds = wallSeconds
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
        self.heapAllocatedBytes = heapAllocatedBytes
        self.heapPeakBytes = heapPeakBytes
        self.residentBytes = residentBytes
        self.peakResidentBytes = peakResidentBytes
        self.bytesRead = bytesRead
        self.bytesWritten = bytesWritten
        self.sqliteMemoryHighWaterBytes = sqliteMemoryHighWaterBytes
        self.counts = counts
        self.objects = objects
        self.edges = edges
    }
}
