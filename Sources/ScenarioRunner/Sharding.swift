public import ReportModel

/// One share of a matrix of cells: shard ``index`` of ``count``, counted from 1, as `--shard 2/4` says.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// The most shards a matrix may be cut into.
    public static let maximumCount = 256

    /// The shard, from 1 to ``count``.
    public let index: Int
    /// The number of shards.
    public let count: Int

    /// Shard `index` of `count`.
    ///
    /// - Throws: ``ShardError`` unless 1 ≤ `index` ≤ `count` ≤ ``maximumCount``.
    public init(index: Int, count: Int) throws(ShardError) {
        guard (1...Self.maximumCount).contains(count), (1...count).contains(index) else {
            throw ShardError("\(index)/\(count) is not a shard I/N with 1 ≤ I ≤ N ≤ \(Self.maximumCount)")
        }
        self.index = index
        self.count = count
    }

    /// The shard `text` names, such as `2/4`.
    ///
    /// - Throws: ``ShardError`` for anything but `I/N` with 1 ≤ I ≤ N ≤ ``maximumCount``.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError("'\(text)' is not a shard I/N such as 2/4")
        }
        try self.init(index: index, count: count)
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }

    /// The shard a CI system's parallel job says this is, and where it was read, or nil when no CI variables
    /// are set: GitLab's `CI_NODE_INDEX`/`CI_NODE_TOTAL` (from 1), Buildkite's
    /// `BUILDKITE_PARALLEL_JOB`/`BUILDKITE_PARALLEL_JOB_COUNT` and CircleCI's `CIRCLE_NODE_INDEX`/`CIRCLE_NODE_TOTAL`
    /// (from 0). GitHub Actions has no such variables: its matrix passes `--shard`.
    ///
    /// - Throws: ``ShardError`` naming the variables when their values are not a shard.
    public static func fromEnvironment(
        _ environment: [String: String]
    ) throws(ShardError) -> (
        shard: Shard, source: String
    )? {
        let systems = [
            ("GitLab", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1),
            (
                "Buildkite", "BUILDKITE_PARALLEL_JOB",
                "BUILDKITE_PARALLEL_JOB_COUNT", 0
            ), ("CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0),
        ]
        for (system, indexName, countName, base) in systems {
            guard let indexText = environment[indexName], let countText = environment[countName] else { continue }
            let source = "\(system) \(indexName)=\(indexText), \(countName)=\(countText)"
            guard let index = Int(indexText), let count = Int(countText) else {
                throw ShardError("\(source): not whole numbers")
            }
            do {
                return (try Shard(index: index - base + 1, count: count), source)
            } catch {
                throw ShardError("\(source): \(error)")
            }
        }
        return nil
    }
}

/// A shard that cannot be: the text or the CI variables that gave it, and why.
public struct ShardError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// How the cells of a matrix are shared out among shards, and which of them one shard runs.
///
/// Hashed (the default): each cell goes to the shard its id hashes highest with (rendezvous hashing over a
/// fixed 64-bit hash, the same on every machine), so the shares are disjoint and complete, and a cell keeps
/// its shard when scenarios are added or removed. Balanced (`--balance <report.json>`): cells are shared out
/// by the time the report measured for each (``longestFirst(_:count:)``); a cell longer than a shard's mean time
/// has its repetitions shared out one by one, and `merge` puts them back together.
public struct ShardPlan: Sendable {
    /// The shard this process runs.
    public let shard: Shard
    /// Each cell's expected seconds, by id, for a balanced plan; nil for a hashed one.
    let balance: Balance?

    /// A hashed plan.
    public init(shard: Shard) {
        self.shard = shard
        balance = nil
    }

    /// A plan balanced by the cells' times in `report` (an earlier full or merged report of the same matrix).
    public init(shard: Shard, balancingBy report: Report) {
        self.shard = shard
        balance = Balance(report)
    }

    /// The shard of each cell (from 1), in the order given, for cells of one repetition each.
    public func assignments(_ cells: [CellSpec]) -> [Int] {
        shares(cells, repetitions: cells.map { _ in 1 }).map { $0[0] }
    }

    /// The shard (from 1) of each repetition of each cell: `shares(…)[c][r - 1]` runs repetition r of cell c,
    /// which has `repetitions[c]` of them. A hashed plan keeps a cell whole; a balanced one shares out the
    /// repetitions of a cell whose expected time is above a shard's mean (every cell's time over the count).
    public func shares(_ cells: [CellSpec], repetitions: [Int]) -> [[Int]] {
        guard let balance else {
            return zip(cells, repetitions).map { cell, count in
                Array(repeating: Self.hashedShard(of: cell.id, count: shard.count), count: max(count, 1))
            }
        }
        let units = Self.units(cells.map(balance.seconds), repetitions: repetitions, count: shard.count)
        let assigned = Self.longestFirst(units.map(\.seconds), count: shard.count)
        var shares = repetitions.map { [Int](repeating: 0, count: max($0, 1)) }
        for (unit, shard) in zip(units, assigned) {
            for repetition in unit.repetitions { shares[unit.cell][repetition - 1] = shard }
        }
        return shares
    }

    /// The pieces a balanced plan shares out: each cell whole, or, when it is expected to take longer than the
    /// mean shard, each of its repetitions alone.
    static func units(
        _ perRepetition: [Double], repetitions: [Int], count: Int
    ) -> [(
        cell: Int, repetitions: [Int], seconds: Double
    )] {
        let counts = repetitions.map { max($0, 1) }
        let mean = zip(perRepetition, counts).map { $0 * Double($1) }.reduce(0, +) / Double(max(count, 1))
        return perRepetition.indices.flatMap { cell in
            let whole = perRepetition[cell] * Double(counts[cell])
            guard whole > mean, counts[cell] > 1 else {
                return [(cell, Array(1...counts[cell]), whole)]
            }
            return (1...counts[cell]).map { (cell, [$0], perRepetition[cell]) }
        }
    }

    /// Each shard's expected seconds under a balanced plan (nil for a hashed one), from shard 1.
    public func predictedSeconds(_ cells: [CellSpec], repetitions: [Int]) -> [Double]? {
        guard let balance else { return nil }
        var load = [Double](repeating: 0, count: shard.count)
        for (cell, shares) in zip(cells, shares(cells, repetitions: repetitions)) {
            for shard in shares { load[shard - 1] += balance.seconds(cell) }
        }
        return load
    }

    /// The places (from 0) of this shard's cells in `cells`, and the repetitions of each that it runs (from 1).
    public func selection(_ cells: [CellSpec], repetitions: [Int]) -> [(position: Int, repetitions: [Int])] {
        shares(cells, repetitions: repetitions).enumerated().compactMap { position, shares in
            let here = shares.indices.filter { shares[$0] == shard.index }.map { $0 + 1 }
            return here.isEmpty ? nil : (position, here)
        }
    }

    /// The places (from 0) of this shard's cells in `cells`, for cells of one repetition each.
    public func positions(_ cells: [CellSpec]) -> [Int] {
        selection(cells, repetitions: cells.map { _ in 1 }).map(\.position)
    }

    /// The report's record of this shard of `cells` (of `repetitions` each; one each when nil).
    public func record(_ cells: [CellSpec], repetitions: [Int]? = nil) -> ShardRecord {
        let ids = cells.map(\.id)
        let repetitions = repetitions ?? cells.map { _ in 1 }
        let selection = selection(cells, repetitions: repetitions)
        let partial = selection.filter { $0.repetitions.count < max(repetitions[$0.position], 1) }.map {
            RepetitionShare(position: $0.position, repetitions: $0.repetitions, of: repetitions[$0.position])
        }
        return ShardRecord(
            index: shard.index, count: shard.count,
            partition: balance == nil ? ShardRecord.hashed : ShardRecord.balanced, balancedBy: balance?.runID,
            matrixCells: ids.count, matrix: ShardRecord.digest(ids), positions: selection.map(\.position),
            repetitions: partial.isEmpty ? nil : partial)
    }

    /// The shard (from 1) whose pairing with `id` hashes highest: rendezvous hashing over 64-bit FNV-1a, each
    /// pairing's hash finished with SplitMix64's mixer. Ties (never seen) go to the lower shard.
    public static func hashedShard(of id: String, count: Int) -> Int {
        var hash = FNV1a()
        hash.add(Array(id.utf8))
        var best = (shard: 1, weight: UInt64(0))
        for shard in 1...max(count, 1) {
            let weight = mix(hash.value ^ (UInt64(shard) &* 0x9e37_79b9_7f4a_7c15))
            if shard == 1 || weight > best.weight { best = (shard, weight) }
        }
        return best.shard
    }

    /// Greedy longest-processing-time-first (the longest cell first, each to the shard with the least time so far,
    /// the lower shard on a tie), then improved: while moving one cell off the slowest shard, or swapping it with a
    /// shorter cell of another shard, makes the slowest shard faster without making another one as slow, the best
    /// such change is made. Equal times keep their order, so every shard computes the same plan.
    public static func longestFirst(_ seconds: [Double], count: Int) -> [Int] {
        let count = max(count, 1)
        var load = [Double](repeating: 0, count: count)
        var shard = [Int](repeating: 0, count: seconds.count)
        for index in seconds.indices.sorted(by: { (-seconds[$0], $0) < (-seconds[$1], $1) }) {
            let lightest = load.indices.min { (load[$0], $0) < (load[$1], $1) } ?? 0
            load[lightest] += seconds[index]
            shard[index] = lightest
        }
        for _ in 0..<(4 * seconds.count) {
            guard let change = bestChange(seconds, shard, load) else { break }
            load[shard[change.cell]] -= seconds[change.cell]
            load[change.to] += seconds[change.cell]
            if let other = change.swapping {
                load[change.to] -= seconds[other]
                load[shard[change.cell]] += seconds[other]
                shard[other] = shard[change.cell]
            }
            shard[change.cell] = change.to
        }
        return shard.map { $0 + 1 }
    }

    /// The move or swap off the slowest shard that lowers the slowest time the most, or nil when none does.
    private static func bestChange(
        _ seconds: [Double], _ shard: [Int], _ load: [Double]
    ) -> (
        cell: Int, to: Int, swapping: Int?
    )? {
        guard let slowest = load.indices.max(by: { (load[$0], $1) < (load[$1], $0) }) else { return nil }
        var best: (cell: Int, to: Int, swapping: Int?, after: Double)?
        func consider(_ cell: Int, _ to: Int, _ swapping: Int?, _ delta: Double) {
            let after = max(load[slowest] - delta, load[to] + delta)
            // A change must lower the slowest shard by more than rounding, and beat the best so far.
            if delta > 0, after < load[slowest] - 1e-9 * max(load[slowest], 1), after < best?.after ?? .infinity {
                best = (cell, to, swapping, after)
            }
        }
        for cell in shard.indices where shard[cell] == slowest {
            for to in load.indices where to != slowest { consider(cell, to, nil, seconds[cell]) }
            for other in shard.indices where shard[other] != slowest {
                consider(cell, shard[other], other, seconds[cell] - seconds[other])
            }
        }
        return best.map { ($0.cell, $0.to, $0.swapping) }
    }

    /// SplitMix64's finalizer: spreads the bits of a 64-bit value.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// The time one repetition of each cell took in a report, to balance shards by.
struct Balance: Sendable {
    /// The report's run ID.
    let runID: String
    /// Each measured cell's seconds per repetition, by id.
    let seconds: [String: Double]
    /// Each measured cell's seconds per repetition and object, by scenario and mode, then by scenario: for cells
    /// the report has not, scaled by size.
    let perObject: [String: Double]
    /// Seconds per repetition for a cell nothing like it was measured: the mean.
    let fallback: Double

    init(_ report: Report) {
        runID = report.runID
        let measured = report.cells.filter(\.isMeasured)
        let work = measured.map(Self.workSeconds)
        // What the report's run spent besides the cells' measured work (starting processes, reading scenarios),
        // shared out over its repetitions.
        let repetitions = measured.map(\.repetitions).reduce(0, +)
        let overhead = max(0, report.durationSeconds - work.reduce(0, +)) / Double(max(repetitions, 1))
        var seconds: [String: Double] = [:]
        var rates: [String: [Double]] = [:]
        for (cell, work) in zip(measured, work) {
            let once = work / Double(max(cell.repetitions, 1)) + overhead
            seconds[cell.id] = once
            for key in [Self.key(cell.scenario, cell.mode.slug), cell.scenario] {
                rates[key, default: []].append(once / Double(max(cell.size, 1)))
            }
        }
        self.seconds = seconds
        perObject = rates.mapValues { $0.reduce(0, +) / Double($0.count) }
        fallback = seconds.isEmpty ? 1 : seconds.values.reduce(0, +) / Double(seconds.count)
    }

    /// The seconds one repetition of `cell` is expected to take.
    func seconds(_ cell: CellSpec) -> Double {
        if let measured = seconds[cell.id] { return measured }
        let rate = perObject[Self.key(cell.scenario, cell.mode.slug)] ?? perObject[cell.scenario]
        return rate.map { $0 * Double(cell.size) } ?? fallback
    }

    /// A cell's work in its report: each repetition's top-level phases (generation, steps, verifications) and
    /// its floor.
    static func workSeconds(_ cell: Cell) -> Double {
        let phases = cell.phases.filter { $0.group == nil || $0.name.hasPrefix("verify ") }
        let once = phases.map(\.wallSeconds.median).reduce(0, +) + (cell.floor?.seconds.median ?? 0)
        return once * Double(cell.repetitions)
    }

    private static func key(_ scenario: String, _ mode: String) -> String { "\(scenario)/\(mode)" }
}

extension Mode {
    /// `single+streaming+chained`, as in cell ids.
    var slug: String { "\(passes)+\(storage)+\(path)" }
}

extension RunOrchestrator {
    /// The cells this process runs, in the matrix's order, each with the repetitions (from 1) it runs: its
    /// shard's (``RunOptions/shard``), or every cell and every repetition.
    public func selectedCells() -> [(scenario: Scenario, spec: CellSpec, repetitions: [Int])] {
        let all = cells()
        let repetitions = all.map { $0.scenario.repetitions(quick: options.quick) }
        guard let shard = options.shard else {
            return zip(all, repetitions).map { ($0.scenario, $0.spec, Array(1...max($1, 1))) }
        }
        return shard.selection(all.map(\.spec), repetitions: repetitions).map {
            (all[$0.position].scenario, all[$0.position].spec, $0.repetitions)
        }
    }

    /// The report's record of the shard run, or nil for an unsharded run.
    public func shardRecord() -> ShardRecord? {
        let all = cells()
        return options.shard?.record(
            all.map(\.spec), repetitions: all.map { $0.scenario.repetitions(quick: options.quick) })
    }

    /// Each shard's expected seconds under a balanced plan, from shard 1, or nil.
    public func predictedShardSeconds() -> [Double]? {
        let all = cells()
        return options.shard?.predictedSeconds(
            all.map(\.spec), repetitions: all.map { $0.scenario.repetitions(quick: options.quick) })
    }
}
