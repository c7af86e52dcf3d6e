import Synchronization

/// The calling thread's heap peak for measurements that overlap: a phase, and the parts of an entity mapping's
/// stage measured inside it. jemalloc keeps one peak per thread (`thread.peak`), which each measurement must
/// reset at its start; so every reset first folds the peak reached so far into every measurement still open,
/// and each measurement's peak is the highest its thread's net allocation went while it was open.
///
/// Net allocation is the thread's bytes allocated minus bytes freed (``HeapStatistics/threadNetBytes()``).
/// Without it only one measurement at a time has a peak: the first one open; the others read nil
/// ("unavailable"), never 0.
///
/// One thread measures; the state is behind a lock only so that the measurer can be handed to the engine.
public final class NestedHeapPeaks: Sendable {
    private let heap: any HeapStatistics
    private let state = Mutex(State())

    private struct State {
        /// The thread's net allocation at the last reset of its peak.
        var netAtReset = 0
        /// The measurements open, oldest first: a few at most (a phase, a part inside it), so an array, raised in
        /// place by index (a dictionary mutated while iterated is copied first: an allocation at every fold, made
        /// between the profiler's parts, which made its allocation reads miss their shortcut).
        var open: [(token: Int, start: Int, peak: Int)] = []
        var nextToken = 0
        var onlyMeasurement: Int?
    }

    /// Peaks read from `heap`.
    public init(heap: any HeapStatistics) {
        self.heap = heap
    }

    /// Starts a measurement; its token ends it.
    public func begin() -> Int {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            guard heap.threadNetBytes() != nil else {
                // No net allocation to fold with: only the first measurement open may reset the peak.
                if state.onlyMeasurement == nil {
                    state.onlyMeasurement = token
                    heap.resetThreadPeak()
                }
                return token
            }
            fold(&state)
            heap.resetThreadPeak()
            state.netAtReset = heap.threadNetBytes() ?? 0
            state.open.append((token, state.netAtReset, state.netAtReset))
            return token
        }
    }

    /// Ends the measurement of `token`: how far its thread's heap grew above the measurement's start at most,
    /// or nil when unavailable.
    public func end(_ token: Int) -> Int? {
        state.withLock { state in
            if heap.threadNetBytes() == nil {
                guard state.onlyMeasurement == token else { return nil }
                state.onlyMeasurement = nil
                return heap.threadPeakBytes()
            }
            fold(&state)
            guard let index = state.open.firstIndex(where: { $0.token == token }) else { return nil }
            let level = state.open.remove(at: index)
            return max(level.peak - level.start, 0)
        }
    }

    /// Raises every open measurement's peak to the highest net allocation since the last reset.
    private func fold(_ state: inout State) {
        guard !state.open.isEmpty, let growth = heap.threadPeakBytes() else { return }
        let highest = state.netAtReset + growth
        for index in state.open.indices where state.open[index].peak < highest { state.open[index].peak = highest }
    }
}
