public import Instrumentation
import ReportModel

extension ModelChecker.Outcome {
    /// Takes each cell's instructions from `counted`, by cell id: the sample of the same store measured again in
    /// a counting run of its own under callgrind (`check --instructions`), its phases' counts already read from
    /// the profile parts (``CellSample/addInstructions(_:method:)``), or why that run could not count.
    ///
    /// This run keeps its own times and every other figure: only the instructions come from the counting run.
    /// A cell's phases are matched by name, in order; where the counting run has no such cell, measured other
    /// phases, or could not count, the cell's instructions are unavailable with the reason. Each step gets its
    /// migration's count (its cell's total).
    public mutating func addInstructions(counted: [String: Result<CellSample, CountUnavailable>]) {
        let key = MetricDefinition.instructions.key
        for index in cells.indices where cells[index].isMeasured {
            let names = cells[index].phases.map(\.name)
            let sample: CellSample
            switch counted[cells[index].id] {
            case .success(let found): sample = found
            case .failure(let why):
                cells[index].instructionsUnavailable(why.reason)
                continue
            case nil:
                cells[index].instructionsUnavailable("the counting run under callgrind did not measure this cell")
                continue
            }
            guard sample.phases.map(\.name) == names else {
                cells[index].instructionsUnavailable(
                    "the counting run under callgrind measured other phases (\(sample.phases.map(\.name))) than "
                        + "this run (\(names))")
                continue
            }
            guard sample.unavailable[key] == nil, let total = sample.total.counts[key],
                let method = sample.countingMethods[key]
            else {
                cells[index].instructionsUnavailable(sample.unavailable[key] ?? "callgrind counted no migration")
                continue
            }
            for (phase, counted) in zip(cells[index].phases.indices, sample.phases) {
                cells[index].phases[phase].counts(setting: key, to: counted.counts[key])
            }
            cells[index].total.counts(setting: key, to: total)
            cells[index].unavailable?[key] = nil
            cells[index].countingMethods = (cells[index].countingMethods ?? [:]).merging([key: method]) { $1 }
        }
        stepInstructions()
    }

    /// Records that no cell's instructions could be counted, and why (such as valgrind missing).
    public mutating func instructionsUnavailable(_ reason: String) {
        for index in cells.indices where cells[index].isMeasured {
            cells[index].instructionsUnavailable(reason)
        }
        stepInstructions()
    }

    /// Each step's instructions: its cell's total (the migration), the cells and steps being made in the same
    /// order, one of each per store.
    private mutating func stepInstructions() {
        let key = MetricDefinition.instructions.key
        for (step, cell) in zip(check.steps.indices, cells) {
            check.steps[step].instructions = cell.total.counts?[key].map { Int($0.median) }
        }
    }
}

extension Cell {
    /// The cell's instructions are not measured: every phase's count removed, and the reason recorded.
    fileprivate mutating func instructionsUnavailable(_ reason: String) {
        let key = MetricDefinition.instructions.key
        for index in phases.indices { phases[index].counts?[key] = nil }
        total.counts?[key] = nil
        countingMethods?[key] = nil
        unavailable = (unavailable ?? [:]).merging([key: reason]) { $1 }
    }
}

extension Phase {
    /// Sets one count of one sample, or removes it (nil).
    fileprivate mutating func counts(setting key: String, to count: Int?) {
        var counts = self.counts ?? [:]
        counts[key] = count.map { Statistic(samples: [Double($0)]) }
        self.counts = counts
    }
}
