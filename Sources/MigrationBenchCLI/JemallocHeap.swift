import CJemalloc
import Instrumentation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Heap statistics from jemalloc, the allocator this executable links.
///
/// MIBs are looked up once; `thread.tcache.flush` and `epoch` come before each read, so that the numbers
/// include what the thread cache holds and are fresh (the thread's allocation count is read again only once the
/// thread has allocated since the last read).
struct JemallocHeap: HeapStatistics {
    let allocatorDescription: String
    private let allocatedMIB: [Int]
    private let epochMIB: [Int]
    private let flushMIB: [Int]
    private let peakReadMIB: [Int]
    private let peakResetMIB: [Int]
    private let threadAllocatedMIB: [Int]
    private let threadDeallocatedMIB: [Int]
    /// The arena the tracked thread allocates from, made for it alone (`arenas.create`): jemalloc never
    /// assigns a made arena to another thread, so its request counts are that thread's allocations.
    private let trackedArena: UInt32?
    /// The MIBs of the tracked arena's `small.nrequests` and `large.nrequests`.
    private let requestMIBs: [[Int]]
    /// The last allocations read, and the thread's bytes allocated then.
    private let lastAllocations = LastAllocations()

    /// The jemalloc statistics, or nil when jemalloc is not the allocator actually serving `malloc`.
    static func make() -> JemallocHeap? {
        var version: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &version, &size, nil, 0) == 0, let version else { return nil }
        guard let heap = JemallocHeap(version: String(cString: version)) else { return nil }
        // jemalloc could be linked but not serve malloc: check that a Swift allocation shows in its figures.
        // (A bare malloc/free pair would not do: the optimizer removes it.)
        guard let before = heap.allocatedBytes() else { return nil }
        let block = [UInt8](repeating: 1, count: 8 << 20)
        let after = heap.allocatedBytes() ?? before
        return withExtendedLifetime(block) { after - before >= 8 << 20 ? heap : nil }
    }

    private init?(version: String) {
        func mib(_ name: String) -> [Int]? {
            var mib = [Int](repeating: 0, count: 8)
            var length = mib.count
            guard mallctlnametomib(name, &mib, &length) == 0 else { return nil }
            return Array(mib[0..<length])
        }
        guard let allocated = mib("stats.allocated"), let epoch = mib("epoch"), let flush = mib("thread.tcache.flush"),
            let peakRead = mib("thread.peak.read"), let peakReset = mib("thread.peak.reset"),
            let threadAllocated = mib("thread.allocated"), let threadDeallocated = mib("thread.deallocated")
        else { return nil }
        var arena: UInt32 = 0
        var arenaSize = MemoryLayout<UInt32>.size
        self.trackedArena = mallctl("arenas.create", &arena, &arenaSize, nil, 0) == 0 ? arena : nil
        // Looked up through arena 0 with the made arena's index put in (jemalloc's documented way to vary a MIB):
        // the made arena has no statistics by name until the next refresh.
        self.requestMIBs = ["small", "large"].compactMap { kind in
            mib("stats.arenas.0.\(kind).nrequests").map { mib in
                var mib = mib
                mib[2] = Int(arena)
                return mib
            }
        }
        self.threadAllocatedMIB = threadAllocated
        self.threadDeallocatedMIB = threadDeallocated
        self.allocatorDescription = "jemalloc \(version)"
        self.allocatedMIB = allocated
        self.epochMIB = epoch
        self.flushMIB = flush
        self.peakReadMIB = peakRead
        self.peakResetMIB = peakReset
    }

    var isAvailable: Bool { true }

    func allocatedBytes() -> Int? {
        refresh()
        var value = 0
        var size = MemoryLayout<Int>.size
        var mib = allocatedMIB
        guard mallctlbymib(&mib, mib.count, &value, &size, nil, 0) == 0 else { return nil }
        return value
    }

    func resetThreadPeak() {
        var mib = peakResetMIB
        _ = mallctlbymib(&mib, mib.count, nil, nil, nil, 0)
    }

    func threadPeakBytes() -> Int? {
        var flush = flushMIB
        _ = mallctlbymib(&flush, flush.count, nil, nil, nil, 0)
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        var mib = peakReadMIB
        guard mallctlbymib(&mib, mib.count, &value, &size, nil, 0) == 0 else { return nil }
        return Int(value)
    }

    func trackCallingThread() {
        guard var arena = trackedArena else { return }
        _ = mallctl("thread.arena", nil, nil, &arena, MemoryLayout<UInt32>.size)
    }

    func threadAllocations() -> (count: Int, bytes: Int)? {
        guard trackedArena != nil, requestMIBs.count == 2 else { return nil }
        var bytes: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        var mib = threadAllocatedMIB
        guard mallctlbymib(&mib, mib.count, &bytes, &size, nil, 0) == 0 else { return nil }
        // The request counts need the thread cache flushed and the statistics refreshed (every arena's merged),
        // tens of thousands of instructions; when the thread has allocated no byte since the last read, it has
        // made no request either (every allocation adds its size to thread.allocated), and the count stands.
        let thread = pthread_self()
        if let last = lastAllocations.reading(thread: thread, bytes: bytes) { return (last, Int(bytes)) }
        refresh()
        var count: UInt64 = 0
        for var requestMIB in requestMIBs {
            var requests: UInt64 = 0
            size = MemoryLayout<UInt64>.size
            guard mallctlbymib(&requestMIB, requestMIB.count, &requests, &size, nil, 0) == 0 else { return nil }
            count += requests
        }
        lastAllocations.remember(thread: thread, bytes: bytes, count: Int(count))
        return (Int(count), Int(bytes))
    }

    func threadNetBytes() -> Int? {
        // thread.allocated and thread.deallocated are kept per thread as it goes: no flush or epoch needed.
        var allocated: UInt64 = 0
        var deallocated: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        var mib = threadAllocatedMIB
        guard mallctlbymib(&mib, mib.count, &allocated, &size, nil, 0) == 0 else { return nil }
        mib = threadDeallocatedMIB
        size = MemoryLayout<UInt64>.size
        guard mallctlbymib(&mib, mib.count, &deallocated, &size, nil, 0) == 0 else { return nil }
        return Int(allocated) - Int(deallocated)
    }

    var allocationMethod: Result<String, CountUnavailable> {
        trackedArena == nil
            ? .failure(CountUnavailable("jemalloc could not make an arena for the measuring thread"))
            : .success("\(allocatorDescription) arena nrequests, thread.allocated")
    }

    private func refresh() {
        var flush = flushMIB
        _ = mallctlbymib(&flush, flush.count, nil, nil, nil, 0)
        // Writing any value to "epoch" makes jemalloc refresh the statistics it reports.
        var epoch: UInt64 = 1
        var mib = epochMIB
        _ = mallctlbymib(&mib, mib.count, nil, nil, &epoch, MemoryLayout<UInt64>.size)
    }
}

/// The last allocation count ``JemallocHeap/threadAllocations()`` read, with the reading thread and its bytes
/// allocated then.
private final class LastAllocations: Sendable {
    private let last = Mutex<(thread: pthread_t, bytes: UInt64, count: Int)?>(nil)

    /// The count read last, when `thread` read it and had allocated `bytes` then.
    func reading(thread: pthread_t, bytes: UInt64) -> Int? {
        last.withLock { last in
            guard let last, pthread_equal(last.thread, thread) != 0, last.bytes == bytes else { return nil }
            return last.count
        }
    }

    func remember(thread: pthread_t, bytes: UInt64, count: Int) {
        last.withLock { $0 = (thread, bytes, count) }
    }
}
