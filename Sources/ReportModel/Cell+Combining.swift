extension Cell {
    /// One cell from cells that each measured some of its repetitions, given in the order of their repetitions:
    /// every statistic over all their samples, the floor's ratio, the budgets and the status judged again, the
    /// first failed verification, the slowest repetition's memory series.
    ///
    /// A run builds each cell this way from one cell per repetition, and `merge` builds a cell whose repetitions
    /// several shards ran the same way from the shards' cells, so the two cannot disagree, except in the
    /// ``breakdown``, which is the part's with the most repetitions. A part that crashed or could not run stands
    /// for the cell (the first such part), with every part's repetitions counted.
    public static func combining(_ parts: [Cell]) -> Cell {
        precondition(!parts.isEmpty, "a cell needs at least one part")
        let repetitions = parts.map(\.repetitions).reduce(0, +)
        if var failed = parts.first(where: { !$0.isMeasured }) {
            failed.repetitions = repetitions
            return failed
        }
        var cell = parts[0]
        cell.repetitions = repetitions
        cell.phases = cell.phases.indices.map { index in
            Phase.combining(parts.compactMap { $0.phases.indices.contains(index) ? $0.phases[index] : nil })
        }
        cell.total = Phase.combining(parts.map(\.total))
        cell.floor = parts[0].floor.map { floor in
            let seconds = Statistic(combining: parts.compactMap(\.floor?.seconds))
            let ratios = parts.compactMap(\.floor?.ratios)
            return Floor(
                description: floor.description, seconds: seconds,
                ratio: seconds.median > 0 ? cell.total.wallSeconds.median / seconds.median : 0,
                ratios: ratios.count == parts.count ? Statistic(combining: ratios) : nil)
        }
        // The worst repetition's verification stands for the cell.
        let verified = parts.first { $0.verification?.passed == false } ?? parts[0]
        cell.verification = verified.verification
        cell.budgets = cell.budgets.map { $0.judged(total: cell.total, floor: cell.floor) }
        let expected = cell.verification?.isAsExpected ?? true
        cell.status =
            !expected ? .integrityFailure : cell.budgets.allSatisfy(\.passed) ? .passed : .budgetExceeded
        cell.failure = expected ? nil : verified.failure
        let slowest = parts.max { $0.total.wallSeconds.max < $1.total.wallSeconds.max } ?? parts[0]
        cell.memorySeries = slowest.memorySeries
        cell.unavailable = parts.compactMap(\.unavailable).reduce(nil) { merged, next in
            (merged ?? [:]).merging(next) { first, _ in first }
        }
        if parts.contains(where: { $0.measuredInParallel == true }) { cell.measuredInParallel = true }
        if parts.contains(where: { $0.timedUnderValgrind == true }) { cell.timedUnderValgrind = true }
        // A breakdown is not put together again from its statistics: the part with the most repetitions (the
        // first of those) gives it. A run sets the breakdown over all its samples afterwards.
        cell.breakdown = parts.max { $0.repetitions < $1.repetitions }?.breakdown
        return cell
    }
}

extension Phase {
    /// One phase from the same phase measured over several sets of repetitions, in order: each statistic over
    /// all their samples; heap figures only where every set has them, counts only those every set has.
    public static func combining(_ parts: [Phase]) -> Phase {
        precondition(!parts.isEmpty, "a phase needs at least one part")
        func statistic(_ value: (Phase) -> Statistic) -> Statistic { Statistic(combining: parts.map(value)) }
        func optional(_ value: (Phase) -> Statistic?) -> Statistic? {
            let present = parts.compactMap(value)
            return present.count == parts.count ? Statistic(combining: present) : nil
        }
        let first = parts[0]
        let counts = first.counts.map { counts in
            Dictionary(
                uniqueKeysWithValues: counts.keys.compactMap { key in
                    optional { $0.counts?[key] }.map { (key, $0) }
                })
        }
        return Phase(
            name: first.name, group: first.group, wallSeconds: statistic(\.wallSeconds),
            userSeconds: statistic(\.userSeconds), systemSeconds: statistic(\.systemSeconds),
            heapAllocatedBytes: optional(\.heapAllocatedBytes), heapPeakBytes: optional(\.heapPeakBytes),
            residentBytes: statistic(\.residentBytes), peakResidentBytes: statistic(\.peakResidentBytes),
            bytesRead: statistic(\.bytesRead), bytesWritten: statistic(\.bytesWritten),
            sqliteMemoryHighWaterBytes: statistic(\.sqliteMemoryHighWaterBytes), counts: counts,
            objects: first.objects, edges: first.edges)
    }
}

extension Statistic {
    /// The statistic of every sample of `parts`, in order.
    public init(combining parts: [Statistic]) {
        self.init(samples: parts.flatMap(\.samples))
    }
}

extension BudgetResult {
    /// The budget judged on a cell's total and floor: its metric's median (the floor's ratio for `floorRatio`)
    /// against its limit. A figure that could not be measured does not pass.
    public func judged(total: Phase, floor: Floor?) -> BudgetResult {
        var result = self
        result.measured =
            metric == MetricDefinition.floorRatio.key
            ? floor?.ratio : MetricDefinition.named(metric)?.value(in: total)?.median
        result.passed = result.measured.map { $0 <= limit } ?? false
        return result
    }
}
