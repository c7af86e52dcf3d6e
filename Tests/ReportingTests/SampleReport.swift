import ReportModel

/// A fixed report for the writers' golden files: two scenarios, several sizes and modes, an integrity
/// failure, an exceeded budget, a crashed cell, a cell without heap figures, a baseline comparison, and user
/// text with `<script>`, `&`, `"` and `|` in it to prove that every writer escapes.
enum SampleReport {
    static let mib = 1_048_576.0

    static let report: Report = {
        let cells = libraryCells + shopCells
        var report = Report(
            runID: "2026-11-22T10-15-00Z-ci", startedAt: "2026-11-22T10:15:00Z", durationSeconds: 412.5,
            command: [
                "migration-bench", "run", "Scenarios/library-chain.yaml", "--baseline", "Reports/baselines/ci.json",
            ],
            environment: environment, scenarios: scenarios, cells: cells, baseline: nil,
            verdict: .decide(cells: cells, baseline: nil))
        report.applyBaseline(report.compare(to: baseline, baselineFile: "Reports/baselines/ci.json"))
        // Two earlier runs (the baseline's, and one with this run's figures) and this one, for the trend charts.
        var earlier = HistoryEntry(report)
        earlier.runID = "2026-11-18T10-00-00Z-ci"
        report.history = [HistoryEntry(baseline), earlier, HistoryEntry(report)]
        return report
    }()

    static let environment = Environment(
        os: "Debian GNU/Linux 13 (trixie)", kernel: "6.8.0-45-generic", cpu: "AMD EPYC 7B13", cpuCount: 2,
        memoryBytes: 25_769_803_776, swiftVersion: "6.3.1", sqliteVersion: "3.46.1",
        jemallocVersion: "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c", gitCommit: "739bb8a",
        buildConfiguration: "release", hostname: "ci-runner-7", architecture: "x86_64")

    static let scenarios = [
        ScenarioSummary(
            name: "library-chain", title: "Library: V1 → V3",
            description:
                "Renames Book.title, splits Author names; a note with <script>alert(\"x\")</script> & | pipes.",
            file: "Scenarios/library-chain.yaml", chain: ["V1", "V2", "V3"],
            steps: [
                .init(from: "V1", to: "V2", kind: "heavyweight", mapping: "Scenarios/mappings/library-1-2.yaml"),
                .init(from: "V2", to: "V3", kind: "lightweight", mapping: nil),
            ]),
        ScenarioSummary(
            name: "shop-split", title: "Shop: Customer & \"Address\" split",
            description: "Moves addresses out of Customer into an entity of their own.",
            file: "Scenarios/shop-split.yaml", chain: ["S1", "S2"],
            steps: [.init(from: "S1", to: "S2", kind: "heavyweight", mapping: "Scenarios/mappings/shop|split.yaml")]),
    ]

    static let singleInMemory = Mode(passes: "single", storage: "in-memory", path: "direct")
    static let singleStreaming = Mode(passes: "single", storage: "streaming", path: "direct")
    static let multiPassChained = Mode(passes: "multi-pass", storage: "streaming", path: "chained")
    static let perEntity = Mode(passes: "per-entity", storage: "streaming", path: "direct")

    static var libraryCells: [Cell] {
        [1000, 10000, 100_000].flatMap { size in
            [singleInMemory, singleStreaming, multiPassChained].map { mode in
                var cell = measuredCell("library-chain", size: size, mode: mode)
                if mode == singleInMemory, size == 100_000 {
                    cell.status = .budgetExceeded
                    cell.budgets[0].passed = false
                }
                if mode == multiPassChained, size == 10000 {
                    cell.status = .integrityFailure
                    cell.verification = failedVerification(checked: cell.objects + cell.edges)
                }
                return cell
            }
        }
    }

    static var shopCells: [Cell] {
        var cells = [1000, 100_000].flatMap { size in
            [singleStreaming, perEntity].map { measuredCell("shop-split", size: size, mode: $0) }
        }
        cells[0] = withoutHeap(cells[0])
        cells[2].breakdown = breakdown
        cells[3].status = .crashed
        cells[3].failure = "signal 9 (killed) during \"pass 2\" | out of memory?\nthe kernel's OOM killer chose it"
        cells[3].verification = nil
        return cells
    }

    /// The same cells a week earlier: faster in-memory, slower streaming, one cell that has since gone.
    static var baseline: Report {
        var cells = (libraryCells + shopCells).filter { $0.status != .crashed && $0.size != 100_000 }
        for index in cells.indices {
            let factor = cells[index].mode.storage == "in-memory" ? 0.7 : 1.25
            cells[index].total.wallSeconds = scaled(cells[index].total.wallSeconds, by: factor)
            // In memory, 3 % fewer allocations then: a count regression now.
            let counts = cells[index].mode.storage == "in-memory" ? 0.97 : 1.0
            cells[index].total.counts = cells[index].total.counts?.mapValues { scaled($0, by: counts) }
            let ratios = cells[index].floor?.ratios
            cells[index].floor?.ratios = ratios.map { scaled($0, by: factor) }
            cells[index].floor?.ratio *= factor
            if let heap = cells[index].total.heapPeakBytes {
                cells[index].total.heapPeakBytes = scaled(heap, by: factor == 0.7 ? 0.8 : 1.0)
            }
        }
        var gone = measuredCell("library-chain", size: 1000, mode: perEntity)
        gone.id = "library-chain/1000/per-entity+streaming+direct"
        cells.append(gone)
        return Report(
            runID: "2026-11-15T09-00-00Z-ci", startedAt: "2026-11-15T09:00:00Z", durationSeconds: 398,
            command: ["migration-bench", "run"], environment: environment, scenarios: scenarios, cells: cells,
            baseline: nil, verdict: .decide(cells: cells, baseline: nil))
    }

    // MARK: Cells

    /// "Where it went" for a heavyweight step (a policy's callbacks, a to-many key path, a stage's own work and
    /// the rest) and a lightweight one (its statements).
    static var breakdown: [StepBreakdown] {
        func part(
            _ phase: String, _ mapping: String?, work: String? = nil, seconds: Double, share: Double, rows: Int = 0,
            hint: String? = nil, callbacks: [CallbackBreakdown] = []
        ) -> BreakdownPart {
            BreakdownPart(
                phase: phase, mapping: mapping, work: work, wallSeconds: statistic(seconds),
                // A stage's unattributed rest is timed by the wall clock alone, as CellAggregation makes it.
                userSeconds: work == "unattributed" ? nil : statistic(seconds * 0.8),
                systemSeconds: work == "unattributed" ? nil : statistic(seconds * 0.05), rowsRead: rows,
                objectsCreated: mapping == nil ? 0 : rows, edgesMade: rows / 2,
                heapPeakGrowthBytes: work == "unattributed" ? nil : statistic(Double(rows) * 120),
                counts: work == "unattributed"
                    ? ["sqliteSteps": statistic(Double(rows * 3))]
                    : [
                        "sqliteSteps": statistic(Double(rows * 3)), "allocations": statistic(Double(rows * 2 + 7)),
                        "instructions": statistic(Double(rows * 4_100 + 90_000)),
                    ],
                callbacks: callbacks, hint: hint, share: share)
        }
        let heavyweight = StepBreakdown(
            step: "step S1→S2", wallSeconds: statistic(1.0), accounted: statistic(0.991),
            stages: [
                StageAccount(
                    phase: "pass 1 · creating objects", wallSeconds: 0.82, attributedSeconds: 0.815, accounted: 0.994),
                StageAccount(phase: "pass 1 · validating", wallSeconds: 0.1, attributedSeconds: 0.096, accounted: 0.96),
            ],
            parts: [
                part(
                    "pass 1 · creating objects", "CustomerToCustomer", seconds: 0.61, share: 0.61, rows: 50_000,
                    hint: "to-many key path $source.orders.@count evaluated per object for orderCount"),
                part(
                    "pass 1 · creating objects", "OrderToOrder", seconds: 0.205, share: 0.205, rows: 50_000,
                    hint: "policy SplitAttribute: createDestinationInstances called 50,000 times",
                    callbacks: [
                        CallbackBreakdown(
                            callback: "createDestinationInstances", calls: 50_000, seconds: statistic(0.15))
                    ]),
                part(
                    "pass 1 · validating", nil, work: "building indexes", seconds: 0.09, share: 0.09,
                    hint: "indexes built once, after every row is in"),
                part("seal and swap", nil, work: "seal and swap", seconds: 0.07, share: 0.07),
                part("pass 1 · creating objects", nil, work: "unattributed", seconds: 0.005, share: 0.005),
                part("pass 1 · validating", nil, work: "committing", seconds: 0.0004, share: 0.0004),
            ],
            statements: [])
        let lightweight = StepBreakdown(
            step: "step S2→S3", wallSeconds: statistic(0.2), accounted: statistic(0.98),
            stages: [StageAccount(phase: "SQL in place", wallSeconds: 0.18, attributedSeconds: 0.178, accounted: 0.99)],
            parts: [
                part("SQL in place", nil, work: "running the step's SQL", seconds: 0.178, share: 0.89, rows: 100_000)
            ],
            statements: [
                StatementBreakdown(
                    text:
                        #"INSERT INTO "MBNEW_ZORDER" (Z_PK, Z_ENT, Z_OPT, "ZTOTAL") SELECT Z_PK, Z_ENT, Z_OPT, "ZTOTAL" FROM "ZORDER" WHERE Z_PK BETWEEN ? AND ?"#,
                    runs: 2, seconds: statistic(0.12), rows: 100_000, share: 0.6),
                StatementBreakdown(text: "COMMIT", runs: 1, seconds: statistic(0.04), rows: nil, share: 0.2),
            ])
        return [heavyweight, lightweight]
    }

    /// A passing cell whose figures grow with the size and depend on the mode, so that charts have shape.
    static func measuredCell(_ scenario: String, size: Int, mode: Mode) -> Cell {
        let inMemory = mode.storage == "in-memory"
        let multiPass = mode.passes != "single"
        let seconds = 0.004 + Double(size) * (inMemory ? 2.1e-5 : 1.2e-5) * (multiPass ? 1.5 : 1)
        let heap = inMemory ? 6 * mib + Double(size) * 1_900 : (multiPass ? 14 : 9) * mib + Double(size) * 40
        let objects = size
        let edges = size * 2
        let steps = scenario == "library-chain" ? ["step V1→V2", "step V2→V3"] : ["step S1→S2"]
        var phases = [phase("open", group: nil, seconds: seconds * 0.02, heap: 2 * mib, objects: 0, edges: 0)]
        for (index, step) in steps.enumerated() {
            let share = index == 0 ? 0.6 : 0.25
            phases.append(phase(step, group: nil, seconds: seconds * share, heap: heap, objects: objects, edges: edges))
            if index == 0 {
                let passes = multiPass ? ["pass 1", "pass 2"] : ["pass 1"]
                for pass in passes {
                    phases.append(
                        phase(
                            pass, group: step, seconds: seconds * share / Double(passes.count),
                            heap: heap * 0.9, objects: objects / passes.count, edges: edges / passes.count))
                }
            }
        }
        phases += [
            phase("save", group: nil, seconds: seconds * 0.08, heap: heap * 0.5, objects: objects, edges: edges),
            phase("swap", group: nil, seconds: 0.0004, heap: 2 * mib, objects: 0, edges: 0),
            phase("verify", group: nil, seconds: seconds * 0.3, heap: 12 * mib, objects: objects, edges: edges),
        ]
        let total = phase("total", group: nil, seconds: seconds, heap: heap, objects: objects, edges: edges)
        let modeID = "\(mode.passes)+\(mode.storage)+\(mode.path)"
        return Cell(
            id: "\(scenario)/\(size)/\(modeID)", scenario: scenario, size: size, mode: mode, repetitions: 3,
            status: .passed, failure: nil, objects: objects, edges: edges, phases: phases, total: total,
            floor: Floor(
                description: "INSERT … SELECT per table", seconds: statistic(seconds / (inMemory ? 4.2 : 3.1)),
                ratio: inMemory ? 4.2 : 3.1,
                ratios: Statistic(samples: [1.02, 1.0, 0.98, 1.01, 0.99].map { $0 * (inMemory ? 4.2 : 3.1) })),
            verification: Verification(passed: true, checked: objects + edges, violations: [], notChecked: []),
            budgets: [
                BudgetResult(
                    name: "peak heap", metric: "heapPeakBytes", phase: nil, limit: 64 * mib, measured: heap,
                    unit: "bytes", passed: heap <= 64 * mib),
                BudgetResult(
                    name: "floor ratio", metric: "floorRatio", phase: nil, limit: 6, measured: inMemory ? 4.2 : 3.1,
                    unit: "ratio", passed: true),
            ],
            memorySeries: memorySeries(seconds: seconds, heap: heap, growing: inMemory),
            unavailable: [
                "instructions":
                    "the kernel gives no hardware instruction counter (perf_event_open: No such file or directory)"
            ],
            countingMethods: Dictionary(
                uniqueKeysWithValues: [
                    "allocations", "allocatedBytes", "sqliteSteps", "sqlitePagesRead",
                    "sqlitePagesWritten", "bytesWritten",
                ].map { ($0, "test counters") }))
    }

    static func phase(
        _ name: String, group: String?, seconds: Double, heap: Double?, objects: Int, edges: Int
    )
        -> Phase
    {
        Phase(
            name: name, group: group, wallSeconds: statistic(seconds), userSeconds: statistic(seconds * 0.82),
            systemSeconds: statistic(seconds * 0.11), heapAllocatedBytes: heap.map { statistic($0 * 0.6) },
            heapPeakBytes: heap.map(statistic), residentBytes: statistic((heap ?? 0) + 30 * mib),
            peakResidentBytes: statistic((heap ?? 0) * 1.2 + 32 * mib), bytesRead: statistic(Double(objects) * 96),
            bytesWritten: statistic(Double(objects + edges) * 64), sqliteMemoryHighWaterBytes: statistic(4 * mib),
            counts: [
                "allocations": exact(Double(objects) * 31 + 120), "allocatedBytes": exact((heap ?? 0) * 2.5),
                "sqliteSteps": exact(Double(objects + edges) * 47), "sqlitePagesRead": exact(Double(objects) / 20),
                "sqlitePagesWritten": exact(Double(objects + edges) / 25),
            ],
            objects: objects, edges: edges)
    }

    /// Three repetitions of a deterministic count.
    static func exact(_ value: Double) -> Statistic {
        Statistic(samples: [value.rounded(), value.rounded(), value.rounded()])
    }

    /// Three repetitions around `median`.
    static func statistic(_ median: Double) -> Statistic {
        Statistic(samples: [median * 1.03, median, median * 0.98])
    }

    static func scaled(_ statistic: Statistic, by factor: Double) -> Statistic {
        Statistic(samples: statistic.samples.map { $0 * factor })
    }

    /// Twenty samples: the heap grows through the migration in memory, and levels off when streaming.
    static func memorySeries(seconds: Double, heap: Double, growing: Bool) -> [MemorySample] {
        (0...20).map { step in
            let progress = Double(step) / 20
            let level = growing ? progress : min(1, progress * 4)
            let heapNow = 3 * mib + (heap - 3 * mib) * level
            return MemorySample(
                seconds: seconds * progress, heapBytes: heapNow, residentBytes: heapNow * 1.15 + 28 * mib)
        }
    }

    static func withoutHeap(_ cell: Cell) -> Cell {
        var cell = cell
        let strip = { (phase: Phase) -> Phase in
            var phase = phase
            phase.heapAllocatedBytes = nil
            phase.heapPeakBytes = nil
            return phase
        }
        cell.phases = cell.phases.map(strip)
        cell.total = strip(cell.total)
        cell.budgets[0].measured = nil
        cell.memorySeries = cell.memorySeries.map {
            MemorySample(seconds: $0.seconds, heapBytes: nil, residentBytes: $0.residentBytes)
        }
        return cell
    }

    static func failedVerification(checked: Int) -> Verification {
        Verification(
            passed: false, checked: checked,
            violations: [
                .init(
                    kind: "missing-edge", entity: "Book", property: "tags", count: 12,
                    examples: ["Book Z_PK 17 → Tag Z_PK 3 is missing", "Book Z_PK 18 → Tag Z_PK 3 is missing"]),
                .init(
                    kind: "attribute-value", entity: "Book", property: "title", count: 1,
                    examples: [#"Book Z_PK 5: expected "<script>alert(1)</script> & co | x", found nil"#]),
            ],
            notChecked: ["edge order of Author.books: the relationship is <unordered> & has no order column"])
    }
}
