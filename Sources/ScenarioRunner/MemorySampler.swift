import Foundation
import Instrumentation

/// Samples heap and resident memory every 20 ms on a thread of its own while resumed.
final class MemorySampler: @unchecked Sendable {
    private let heap: any HeapStatistics
    private let lock = NSLock()
    private var running = false
    private var samples: [MemoryPoint] = []
    private var elapsed: Duration = .zero
    private var resumedAt: ContinuousClock.Instant?
    private var thread: Thread?

    init(heap: any HeapStatistics) {
        self.heap = heap
    }

    /// The samples so far, in time order; time counts only while resumed.
    var points: [MemoryPoint] { lock.withLock { samples } }

    func resume() {
        lock.withLock {
            running = true
            resumedAt = .now
        }
        guard thread == nil else { return }
        let thread = Thread { [weak self] in
            while let self, self.sample() { Thread.sleep(forTimeInterval: 0.02) }
        }
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    func pause() {
        lock.withLock {
            if let resumedAt { elapsed += .now - resumedAt }
            resumedAt = nil
            running = false
        }
    }

    deinit {
        pause()
    }

    /// Takes one sample if resumed; false once the sampler is gone.
    private func sample() -> Bool {
        let heapBytes = heap.allocatedBytes()
        let resident = ProcessStatus.residentBytes() ?? 0
        lock.withLock {
            guard running, let resumedAt else { return }
            let seconds = (elapsed + (.now - resumedAt)).seconds
            samples.append(MemoryPoint(seconds: seconds, heapBytes: heapBytes, residentBytes: resident))
        }
        return true
    }
}
