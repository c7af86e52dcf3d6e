/// Why shards' reports cannot be merged: one line that names the files.
public struct MergeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the files.
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

/// A report and the file it was read from, for ``Report/merging(_:runID:startedAt:command:baseline:)``.
public struct ReportFile: Sendable {
    /// The file, as given: errors name it.
    public var file: String
    /// The report it holds.
    public var report: Report

    /// Creates a report file.
    public init(file: String, report: Report) {
        self.file = file
        self.report = report
    }
}

extension Report {
    /// One report from the reports of every shard of one run (`run --shard I/N`, `check --shard I/N`): every cell
    /// once, in the order of the whole matrix; the verdict decided again over all cells; each shard's run and
    /// environment kept in ``shards``. The merged report's ``environment`` is shard 1's, its ``startedAt`` the
    /// earliest shard's, its ``durationSeconds`` the longest shard's (the shards ran side by side).
    ///
    /// With `baseline`, the cells are compared with it as a single run's are (``compare(to:baselineFile:thresholds:)``
    /// and ``applyBaseline(_:)``), after the shards' own comparisons are set aside. Without it, the shards'
    /// comparisons (each made against the same baseline) are put together: each cell's entries from its own shard,
    /// and once each baseline cell that no shard ran. Budgets travel with their cells and count in the verdict as in
    /// a single run; a check's findings are put together without repeats.
    ///
    /// A report without a shard record counts as shard 1/1.
    ///
    /// A cell whose repetitions several shards ran (a balanced partition) is put back together from their cells
    /// with ``Cell/combining(_:)``, as a single run builds it from its repetitions.
    ///
    /// - Throws: ``MergeError`` for reports of different commits, scenario sets or matrices, a shard or a cell
    ///   present twice, a cell's repetitions run twice or by no shard, a missing shard (named), or shards that
    ///   compared a share of a cell's repetitions with a baseline when `baseline` is not given.
    public static func merging(
        _ files: [ReportFile], runID: String, startedAt: String, command: [String],
        baseline: ReportFile? = nil
    ) throws(MergeError) -> Report {
        guard let first = files.first else { throw MergeError("no report to merge") }
        let records = try files.map { file throws(MergeError) in try file.record() }
        try ensureSameRun(files, records)
        let byIndex = try shardsByIndex(files, records)
        let count = records[0].count
        let missing = (1...count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            let have = byIndex.keys.sorted().map { "\($0)/\(count) \(files[byIndex[$0]!].file)" }
            throw MergeError(
                (missing.count == 1 ? "shard " : "shards ") + missing.map { "\($0)/\(count)" }.joined(separator: ", ")
                    + (missing.count == 1 ? " is" : " are") + " missing (have " + have.joined(separator: ", ") + ")")
        }
        let ordered = (1...count).map { byIndex[$0]! }
        let cells = try matrixCells(files, records, order: ordered)

        let lead = files[ordered[0]].report
        var merged = Report(
            runID: runID, startedAt: files.map(\.report.startedAt).min() ?? first.report.startedAt,
            durationSeconds: files.map(\.report.durationSeconds).max() ?? 0, command: command,
            environment: lead.environment, scenarios: lead.scenarios, cells: cells, baseline: nil,
            verdict: .decide(cells: cells, baseline: nil),
            check: lead.check.map { _ in mergedCheck(ordered.map { files[$0].report }, cells: cells) },
            shards: ordered.map { index in
                let report = files[index].report
                return ShardRun(
                    index: records[index].index, count: count, runID: report.runID, startedAt: report.startedAt,
                    durationSeconds: report.durationSeconds, command: report.command,
                    environment: report.environment, cells: report.cells.map(\.id))
            })
        if let check = merged.check {
            merged.verdict = .decide(cells: cells, findings: check.findings)
        } else if let baseline {
            for index in merged.cells.indices where merged.cells[index].status == .regressed {
                merged.cells[index].status = .passed
            }
            merged.applyBaseline(merged.compare(to: baseline.report, baselineFile: baseline.file))
        } else if let comparison = try combinedComparison(ordered.map { files[$0] }, cells: cells) {
            if let split = records.indices.first(where: { records[$0].repetitions != nil }) {
                throw MergeError(
                    "\(files[split].file) ran some of a cell's repetitions, which its own baseline comparison cannot "
                        + "judge: give merge --baseline to compare the merged cells once")
            }
            merged.baseline = comparison
            merged.verdict = .decide(cells: merged.cells, baseline: comparison)
        }
        return merged
    }

    /// Refuses reports that are not shares of one run: different commits, kinds, scenario sets or matrices.
    private static func ensureSameRun(_ files: [ReportFile], _ records: [ShardRecord]) throws(MergeError) {
        let first = files[0]
        for (file, record) in zip(files, records).dropFirst() {
            let pair = "\(first.file) and \(file.file)"
            if record.count != records[0].count {
                throw MergeError(
                    "\(first.file) is shard \(records[0].label) but \(file.file) is shard \(record.label): "
                        + "not shards of one run")
            }
            if file.report.environment.gitCommit != first.report.environment.gitCommit {
                throw MergeError(
                    "\(pair) are of different commits (\(first.report.environment.gitCommit ?? "unknown") and "
                        + "\(file.report.environment.gitCommit ?? "unknown"))")
            }
            if (file.report.check == nil) != (first.report.check == nil) {
                throw MergeError("\(pair) are not of one kind: one is a check's report, the other a run's")
            }
            let sameCheck =
                file.report.check.map { [$0.model, $0.current, "\($0.sizes)"] }
                == first.report.check.map { [$0.model, $0.current, "\($0.sizes)"] }
            if file.report.scenarios != first.report.scenarios || !sameCheck {
                throw MergeError("\(pair) ran different scenario sets")
            }
            if record.matrix != records[0].matrix || record.matrixCells != records[0].matrixCells {
                throw MergeError(
                    "\(pair) ran different matrices of cells (\(records[0].matrixCells) and \(record.matrixCells) "
                        + "cells): options such as --quick, --sizes or --modes differ")
            }
            if record.partition != records[0].partition || record.balancedBy != records[0].balancedBy {
                throw MergeError("\(pair) shared the cells out differently (--balance differs)")
            }
        }
    }

    /// Each shard's report by its index; refuses a shard present twice.
    private static func shardsByIndex(_ files: [ReportFile], _ records: [ShardRecord]) throws(MergeError) -> [Int: Int]
    {
        var byIndex: [Int: Int] = [:]
        for (offset, record) in records.enumerated() {
            guard (1...record.count).contains(record.index) else {
                throw MergeError("\(files[offset].file): its shard \(record.label) is not one of 1…\(record.count)")
            }
            if let earlier = byIndex[record.index] {
                throw MergeError(
                    "\(files[earlier].file) and \(files[offset].file) are both shard \(record.label)")
            }
            byIndex[record.index] = offset
        }
        return byIndex
    }

    /// Every cell of the shards, in the order of the whole matrix, a cell whose repetitions several shards ran put
    /// back together (``Cell/combining(_:)``); refuses a cell present twice, repetitions run twice or by no shard,
    /// or a matrix that the shards do not fill.
    private static func matrixCells(
        _ files: [ReportFile], _ records: [ShardRecord], order: [Int]
    ) throws(MergeError)
        -> [Cell]
    {
        var parts: [Int: [(file: Int, cell: Cell, share: RepetitionShare?)]] = [:]
        for index in order {
            let (file, record) = (files[index], records[index])
            guard record.positions.count == file.report.cells.count else {
                throw MergeError(
                    "\(file.file): its shard record lists \(record.positions.count) cells, it holds "
                        + "\(file.report.cells.count)")
            }
            let shares = Dictionary(
                (record.repetitions ?? []).map { ($0.position, $0) }, uniquingKeysWith: { first, _ in first })
            for (position, cell) in zip(record.positions, file.report.cells) {
                guard (0..<record.matrixCells).contains(position) else {
                    throw MergeError("\(file.file): cell \(cell.id) claims place \(position) of the matrix")
                }
                let share = shares[position]
                if let earlier = parts[position]?.first, share == nil || earlier.share == nil {
                    throw MergeError(
                        earlier.cell.id == cell.id
                            ? "cell \(cell.id) is in both \(files[earlier.file].file) and \(file.file)"
                            : "\(file.file): cell \(cell.id) claims place \(position) of the matrix, taken")
                }
                parts[position, default: []].append((index, cell, share))
            }
        }
        let cells = try parts.keys.sorted().map { position throws(MergeError) in
            try combined(parts[position] ?? [], files: files)
        }
        let record = records[order[0]]
        let ids = cells.map(\.id)
        guard cells.count == record.matrixCells, ShardRecord.digest(ids) == record.matrix else {
            throw MergeError(
                "the shards hold \(cells.count) of the matrix's \(record.matrixCells) cells, not the same ones "
                    + "(\(order.map { files[$0].file }.joined(separator: ", ")))")
        }
        return cells
    }

    /// One cell from the shards that ran it: the one shard's cell, or the cells of the shards that ran some of its
    /// repetitions each, put together in the order of their repetitions. Refuses parts that are not one cell, or
    /// whose repetitions are not each of 1…R once.
    private static func combined(
        _ parts: [(file: Int, cell: Cell, share: RepetitionShare?)], files: [ReportFile]
    ) throws(MergeError) -> Cell {
        let first = parts[0]
        guard parts.count > 1 || first.share != nil else { return first.cell }
        let ordered = parts.sorted { ($0.share?.repetitions.first ?? 0) < ($1.share?.repetitions.first ?? 0) }
        let ran = ordered.flatMap { $0.share?.repetitions ?? [] }
        let total = first.share?.of ?? 0
        let names = ordered.map {
            "\($0.share?.repetitions.map(String.init).joined(separator: ",") ?? "?") in "
                + files[$0.file].file
        }.joined(separator: "; ")
        guard ordered.allSatisfy({ $0.cell.id == first.cell.id && $0.share?.of == total }) else {
            throw MergeError("cell \(first.cell.id): its shares of repetitions do not match (\(names))")
        }
        guard ran.sorted() == Array(1...max(total, 1)) else {
            throw MergeError(
                "cell \(first.cell.id): the shards ran repetitions \(names), not each of 1…\(total) once")
        }
        return Cell.combining(ordered.map(\.cell))
    }

    /// A check's findings and steps from every shard: steps in the order of their cells, findings without repeats,
    /// the `pathsDiffer` ones found again over all the steps.
    private static func mergedCheck(_ reports: [Report], cells: [Cell]) -> ModelCheck {
        let checks = reports.compactMap(\.check)
        let place = Dictionary(
            cells.enumerated().map { ("\($0.element.scenario)/\($0.element.size)", $0.offset) },
            uniquingKeysWith: { first, _ in first })
        let steps = checks.flatMap(\.steps).enumerated().sorted { left, right in
            let leftPlace = place["\(ModelCheck.scenarioName(origin: left.element.origin))/\(left.element.size)"]
            let rightPlace = place["\(ModelCheck.scenarioName(origin: right.element.origin))/\(right.element.size)"]
            return (leftPlace ?? Int.max, left.offset) < (rightPlace ?? Int.max, right.offset)
        }.map(\.element)
        var check = checks[0]
        check.steps = steps
        // Where the two paths of a store part is decided again over every shard's steps: a shard saw only the
        // walks whose steps all fell to it.
        check.findings = ModelCheck.sorted(
            checks.flatMap(\.findings).filter { $0.code != ModelCheck.pathsDifferCode } + check.pathDifferences())
        return check
    }

    /// The shards' baseline comparisons put together, or nil when none was compared; refuses shards compared with
    /// different baselines (or some with one, some without).
    private static func combinedComparison(
        _ files: [ReportFile], cells: [Cell]
    ) throws(MergeError)
        -> BaselineComparison?
    {
        let compared = files.filter { $0.report.baseline != nil }
        guard let first = compared.first?.report.baseline else { return nil }
        if let other = files.first(where: { $0.report.baseline?.baselineRunID != first.baselineRunID }) {
            throw MergeError(
                "\(compared[0].file) and \(other.file) were not compared with the same baseline: give merge "
                    + "--baseline to compare the merged cells once")
        }
        let merged = Set(cells.map(\.id))
        var entries = files.flatMap { file in
            let own = Set(file.report.cells.map(\.id))
            return file.report.baseline?.entries.filter { own.contains($0.cell) } ?? []
        }
        let order = Dictionary(cells.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        entries = entries.enumerated().sorted {
            ((order[$0.element.cell] ?? 0), $0.offset) < ((order[$1.element.cell] ?? 0), $1.offset)
        }.map(\.element)
        var seen: Set<[String]> = []
        for entry in files.flatMap({ $0.report.baseline?.entries ?? [] }) where !merged.contains(entry.cell) {
            if seen.insert([entry.cell, entry.metric]).inserted { entries.append(entry) }
        }
        return BaselineComparison(
            baselineFile: first.baselineFile, baselineRunID: first.baselineRunID, thresholds: first.thresholds,
            entries: entries)
    }
}

extension ReportFile {
    /// The report's shard record; a report without one is shard 1/1 of its own cells. A merged report is refused.
    fileprivate func record() throws(MergeError) -> ShardRecord {
        if report.shards != nil {
            throw MergeError("\(file) is a merged report: merge the shards' own reports")
        }
        if let shard = report.shard { return shard }
        let ids = report.cells.map(\.id)
        return ShardRecord(
            index: 1, count: 1, partition: ShardRecord.hashed, balancedBy: nil, matrixCells: ids.count,
            matrix: ShardRecord.digest(ids), positions: Array(ids.indices))
    }
}
