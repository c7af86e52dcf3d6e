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

    /// When cells ran side by side (`run --jobs`) or under valgrind (`run --instructions`), an entry saying so
    /// for each: their timings are not judged, their counts are. Empty otherwise.
    var parallelEntries: [(name: String, value: String)] {
        let parallel = cells.count { $0.measuredInParallel == true }
        let valgrind = cells.count { $0.timedUnderValgrind == true }
        return
            (parallel > 0
            ? [
                (
                    "Parallel",
                    "\(Format.counted(parallel, "cell")) measured in parallel (run --jobs): timings not judged "
                        + "(parallel), counts judged as usual"
                )
            ] : [])
            + (valgrind > 0
                ? [
                    (
                        "Valgrind",
                        "\(Format.counted(valgrind, "cell")) timed under valgrind (run --instructions): timings not "
                            + "judged (valgrind), counts judged as usual"
                    )
                ] : [])
    }
}
