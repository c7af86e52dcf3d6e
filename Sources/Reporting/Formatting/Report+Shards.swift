import ReportModel

extension Report {
    /// For a shard's report, its shard; for a merged report, each shard's run and machine: a name and a value
    /// per line, for the HTML's environment table and the Markdown summary. Empty for an unsharded run.
    var shardEntries: [(name: String, value: String)] {
        if let shard {
            let partition = shard.balancedBy.map { "balanced by the times of run \($0)" } ?? shard.partition
            return [
                (
                    "Shard",
                    "\(shard.label) (\(partition)): \(Format.counted(shard.positions.count, "cell")) of "
                        + Format.count(shard.matrixCells)
                )
            ]
        }
        return (shards ?? []).map { run in
            let machine = run.environment
            return (
                "Shard \(run.index)/\(run.count)",
                "run \(run.runID), \(Format.seconds(run.durationSeconds)), \(Format.counted(run.cells.count, "cell")); "
                    + "\(machine.hostname): \(machine.cpu) (\(machine.cpuCount) logical), \(machine.os), "
                    + "\(machine.buildConfiguration)"
            )
        }
    }

    /// When cells ran side by side (`run --jobs`), one entry saying so: their timings are not judged, their
    /// counts are. Empty otherwise.
    var parallelEntries: [(name: String, value: String)] {
        let parallel = cells.count { $0.measuredInParallel == true }
        guard parallel > 0 else { return [] }
        return [
            (
                "Parallel",
                "\(Format.counted(parallel, "cell")) measured in parallel (run --jobs): timings not judged "
                    + "(parallel), counts judged as usual"
            )
        ]
    }
}
