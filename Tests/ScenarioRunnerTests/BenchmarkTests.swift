import Foundation
import MigrationEngine
import ReportModel
import Testing

@testable import ScenarioRunner

/// The benchmarks' statistics, targets and gate on synthetic samples, and their runs through a launcher that
/// makes up each child's sample instead of starting a process.
@Suite("Benchmarks")
struct BenchmarkTests {
    static let floor: [Double] = [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97]

    /// A step that took `seconds`, one repetition each.
    static func cell(_ seconds: [Double], instructions: Int? = nil, underValgrind: Bool = false) -> BenchmarkCell {
        BenchmarkCell(
            seconds.map {
                var sample = BenchmarkSample(seconds: $0, instructions: instructions)
                sample.underValgrind = underValgrind ? true : nil
                return sample
            })
    }

    @Test func pairedRatioIsTheMedianOfEachRepetitionsRatio() throws {
        let times = Statistic(samples: [2, 3, 10])
        let base = Statistic(samples: [1, 2, 2])
        let ratio = try #require(times.pairedRatio(over: base))
        #expect(ratio.samples == [2, 1.5, 5])
        #expect(ratio.median == 2 && ratio.min == 1.5 && ratio.max == 5)
        #expect(times.pairedRatio(over: Statistic(samples: [1, 2])) == nil)
    }

    @Test func identicalTimesMeetARatioTarget() {
        let target = BenchmarkTarget.timing(
            "same", times: Self.cell(Self.floor), reference: Self.cell(Self.floor), limit: 1.5)
        #expect(target.verdict == .met)
        #expect(target.measured == "1.00×")
        #expect(target.interval.map { $0[1] < 0 } == true)  // 1.0 against 1.5: the whole interval is below 0
    }

    @Test func timesShiftedPastTheLimitMissIt() throws {
        let target = BenchmarkTarget.timing(
            "shifted", times: Self.cell(Self.floor.map { $0 * 1.6 }),
            reference: Self.cell(Self.floor), limit: 1.5)
        #expect(target.verdict == .missed)
        #expect(target.measured == "1.60×")
        let interval = try #require(target.interval)
        // Every repetition is 1.6 / 1.5 its floor: the paired interval is that one ratio.
        #expect(interval.allSatisfy { abs($0 - 1.6 / 1.5 + 1) < 1e-9 })
        #expect(![target].gatePasses)
    }

    /// A median past the limit that the test cannot tell from the limit (samples spread wider than the shift)
    /// is met, and says so.
    @Test func aMedianJustPastTheLimitWithinNoiseIsMet() {
        let ratios: [Double] = [1.3, 1.9, 1.4, 1.7, 1.35, 1.8, 1.6]
        let target = BenchmarkTarget.timing(
            "noisy", times: Self.cell(zip(Self.floor, ratios).map { $0 * $1 }), reference: Self.cell(Self.floor),
            limit: 1.5)
        #expect(target.verdict == .met)
        #expect(target.measured.hasSuffix("(above the limit, within the test's noise)"))
    }

    /// A step with `seconds` of wall time and `cpu` seconds along its critical path, one repetition each.
    static func cell(_ seconds: [Double], cpu: [Double]) -> BenchmarkCell {
        BenchmarkCell(
            zip(seconds, cpu).map {
                var sample = BenchmarkSample(seconds: $0)
                sample.cpuSeconds = $1
                return sample
            })
    }

    /// On CPU, the CPU seconds are judged and the wall-clock ratio only shown: a busy machine that stretches the
    /// wall time of one step (1.6× its reference) does not miss the target when the CPU seconds (1.0×) meet it,
    /// and CPU seconds past the limit miss it however the wall time reads.
    @Test func aTargetOnCPUJudgesTheCPUSecondsAndShowsTheWallClock() {
        let busy = BenchmarkTarget.timing(
            "busy", times: Self.cell(Self.floor.map { $0 * 1.6 }, cpu: Self.floor),
            reference: Self.cell(Self.floor, cpu: Self.floor), limit: 1.5, onCPU: true)
        #expect(busy.verdict == .met)
        #expect(busy.measured == "CPU on the critical path 1.00×; wall 1.60×")
        #expect(busy.rule.hasPrefix("timing (CPU seconds along each step's critical path): "))
        let slower = BenchmarkTarget.timing(
            "slower", times: Self.cell(Self.floor, cpu: Self.floor.map { $0 * 1.6 }),
            reference: Self.cell(Self.floor, cpu: Self.floor), limit: 1.5, onCPU: true)
        #expect(slower.verdict == .missed)
        // Without CPU seconds, the wall clock is judged, and the rule says so.
        let unmeasured = BenchmarkTarget.timing(
            "unmeasured", times: Self.cell(Self.floor.map { $0 * 1.6 }), reference: Self.cell(Self.floor),
            limit: 1.5, onCPU: true)
        #expect(unmeasured.verdict == .missed)
        #expect(unmeasured.rule.hasPrefix("timing (wall clock: the CPU seconds were not measured): "))
    }

    @Test(arguments: [1, 3, 6])
    func tooFewRepetitionsAreNotJudged(repetitions: Int) {
        let floor = Array(Self.floor.prefix(repetitions))
        let target = BenchmarkTarget.timing(
            "few", times: Self.cell(floor.map { $0 * 3 }), reference: Self.cell(floor), limit: 1.5)
        #expect(target.verdict == .notJudged)
        #expect(target.rule.contains("too few"))
        #expect([target].gatePasses)
    }

    /// Under valgrind (`--instructions`) the times are valgrind's: not judged, whatever they say; the
    /// instructions' ratio is shown.
    @Test func timesUnderValgrindAreNotJudgedAndInstructionsAreShown() {
        let target = BenchmarkTarget.timing(
            "counted", times: Self.cell(Self.floor.map { $0 * 3 }, instructions: 1_300, underValgrind: true),
            reference: Self.cell(Self.floor, instructions: 1_000, underValgrind: true), limit: 1.5)
        #expect(target.verdict == .notJudged)
        #expect(target.rule.contains("under valgrind"))
        #expect(target.instructionRatio == 1.3)
        #expect(target.measured == "3.00×; instructions 1.30×")
        let missing = BenchmarkCell([BenchmarkSample(seconds: 1, instructions: 5), BenchmarkSample(seconds: 1)])
        #expect(missing.instructions == nil)
    }

    /// The signed-rank test on known answers: identical pairs are no change, pairs all 5 % apart are, and six
    /// pairs can never reach 1 % (1/64 > 0.01) while seven can (1/128).
    @Test func signedRankTestKnownAnswers() throws {
        let same = try #require(SignedRankTest(ratios: [1.01, 0.99, 1.02, 0.98, 1.0, 1.03, 0.97], alpha: 0.01))
        #expect(same.interval.lower < 0 && same.interval.upper > 0 && abs(same.change) < 0.01)
        let shifted = try #require(SignedRankTest(ratios: [1.05, 1.06, 1.04, 1.05, 1.07, 1.05, 1.055], alpha: 0.01))
        #expect(shifted.interval.lower > 0 && abs(shifted.change - 0.05) < 0.006)
        #expect(SignedRankTest(ratios: Array(repeating: 2, count: 6), alpha: 0.01) == nil)
        #expect(SignedRankTest.distribution(3) == [1, 1, 1, 2, 1, 1, 1])
    }

    @Test func memoryTargetsCompareTheMedian() {
        let mebibyte = 1_048_576.0
        #expect(BenchmarkTarget.memory("heap", median: 63 * mebibyte, limit: 64 * mebibyte).verdict == .met)
        let missed = BenchmarkTarget.memory("heap", median: 65 * mebibyte, limit: 64 * mebibyte)
        #expect(missed.verdict == .missed && missed.measured == "65.0 MiB" && missed.limit == "≤ 64.0 MiB")
        let unavailable = BenchmarkTarget.memory("heap", median: nil, limit: 64 * mebibyte)
        #expect(unavailable.verdict == .unavailable && unavailable.measured.hasPrefix("unavailable"))
        #expect([unavailable].gatePasses)
        #expect(BenchmarkTarget.memory("growth", median: 1.3, limit: 1.25, isRatio: true).measured == "1.30×")
    }

    @Test func aFigureOfTheMachineIsNeverGated() {
        let slow = BenchmarkTarget.reported("objects per second", measured: 100_000, atLeast: 500_000)
        #expect(slow.verdict == .missed && !slow.gated)
        #expect([slow].gatePasses)
        #expect(slow.line.hasPrefix("missed (not gated)"))
    }

    @Test func theTargetsMetFieldKeepsItsOlderMeaning() throws {
        let met = BenchmarkTarget.memory("m", median: 1, limit: 2)
        let missed = BenchmarkTarget.memory("m", median: 3, limit: 2)
        let none = BenchmarkTarget.memory("m", median: nil, limit: 2)
        #expect([met.met, missed.met, none.met] == [true, false, nil])
        let decoded = try JSONDecoder().decode(BenchmarkTarget.self, from: JSONEncoder().encode(missed))
        #expect(decoded == missed)
    }

    /// The child protocol: what a child prints decodes to the sample it measured, and a `generate --json`
    /// report's other keys are ignored.
    @Test func aSampleSurvivesTheChildProtocol() throws {
        let sample = BenchmarkSample(seconds: 1.25, peakHeapBytes: 4096, objectCount: 100)
        let data = try JSONEncoder().encode(sample)
        #expect(try JSONDecoder().decode(BenchmarkSample.self, from: data) == sample)
        let generate = Data(
            #"{"objects": {"Author": 10}, "objectCount": 10, "seconds": 0.5, "peakHeapBytes": null, "seed": 1}"#.utf8)
        #expect(
            try JSONDecoder().decode(BenchmarkSample.self, from: generate)
                == BenchmarkSample(seconds: 0.5, peakHeapBytes: nil, objectCount: 10))
    }

    /// A launcher that answers each step with a made-up sample: the floors take about 1 s, the steps `factor` × their
    /// floor, `generate` a second per 1,000 objects and writes an empty file (the engine benchmark copies the source).
    final class FakeChildren: @unchecked Sendable {  // used from one test's thread only
        var steps: [BenchmarkStep] = []
        let streamingFactor: Double
        var repetition = 0

        init(streamingFactor: Double) { self.streamingFactor = streamingFactor }

        func launch(_ step: BenchmarkStep) throws -> BenchmarkSample {
            steps.append(step)
            // A little spread between repetitions, the same in every step of one: each repetition starts with
            // a generation (generator) or the in-place floor (engine).
            switch step {
            case .generate, .floorSQL(_, _, nil): repetition += 1
            default: break
            }
            let jitter = 1 + Double(repetition % 7) / 100
            switch step {
            case .generate(_, _, _, let size, let output):
                FileManager.default.createFile(atPath: output, contents: Data())
                return BenchmarkSample(seconds: Double(size) / 1_000, peakHeapBytes: 8_000_000, objectCount: size)
            case .floorSQL, .floorInsert:
                return BenchmarkSample(seconds: jitter)
            case .verify:
                return BenchmarkSample(seconds: 0.5 * jitter, peakHeapBytes: 1_000_000)
            case .migration(_, _, _, _, let mode, let passes, _, _, _):
                let factor = mode == .streaming ? streamingFactor : mode == .inMemory ? 2 : 1.1
                return BenchmarkSample(
                    seconds: factor * jitter, peakHeapBytes: passes == .perEntity ? 5_000_000 : 10_000_000,
                    objectCount: 1000)
            }
        }
    }

    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test(arguments: [(1.2, true), (1.9, false)])
    func engineGateDecidesByTheVerdictRules(streamingFactor: Double, passes: Bool) throws {
        let children = FakeChildren(streamingFactor: streamingFactor)
        let report = try Self.withFolder { folder in
            try EngineBenchmark(sizes: [1000, 2000], repetitions: 7, folder: folder).run(launch: children.launch)
        }
        #expect(report.targets.gatePasses == passes)
        let streaming = try #require(report.targets.first { $0.name.hasPrefix("streaming transform") })
        #expect(streaming.verdict == (passes ? .met : .missed))
        #expect(streaming.measured == BenchmarkFormat.ratio(streamingFactor))
        #expect(report.targets.first { $0.name.hasPrefix("in-memory peak heap, 2 equal") }?.measured == "0.50×")
        // Two sizes × 7 repetitions × 6 steps, two sources and the even store, 7 × 2 passes.
        #expect(children.steps.count == 2 * 7 * 6 + 3 + 7 * 2)
        #expect(report.table().contains("streaming transform against its floor at 2,000"))
    }

    @Test func engineRunsEachStepBesideItsBreakdownAlternately() throws {
        let children = FakeChildren(streamingFactor: 1.2)
        let report = try Self.withFolder { folder in
            try EngineBenchmark(sizes: [1000], repetitions: 7, folder: folder, breakdown: true).run(
                launch: children.launch)
        }
        let order = children.steps.compactMap { step -> (BenchmarkMigrationMode, Bool)? in
            guard case .migration(_, _, _, _, let mode, .single, _, _, let breakdown) = step else { return nil }
            return step.arguments.contains("--breakdown") == breakdown ? (mode, breakdown) : nil
        }
        // Per repetition each of the three steps twice, the one with the breakdown second in odd repetitions; the
        // single pass of the passes' comparison is not broken down.
        let engine = order.prefix(7 * 6)
        #expect(engine.count == 7 * 6)
        for (index, (_, breakdown)) in engine.enumerated() {
            let repetition = index / 6 + 1
            #expect(breakdown == (index.isMultiple(of: 2) == repetition.isMultiple(of: 2)), "\(index)")
        }
        let targets = report.targets.filter { $0.name.contains("with the breakdown against without") }
        #expect(
            targets.count == 3 && targets.allSatisfy { $0.verdict == .met && $0.measured == BenchmarkFormat.ratio(1) })
        #expect(report.table().contains("streaming, breakdown"))
    }

    @Test func generatorReportsObjectsAndGatesOnTheFloor() throws {
        let children = FakeChildren(streamingFactor: 1)
        let report = try Self.withFolder { folder in
            try GeneratorBenchmark(
                model: "m.yaml", dataset: "d.yaml", version: "V1", sizes: [1000, 4000], repetitions: 7, folder: folder
            ).run(launch: children.launch)
        }
        #expect(report.results.map(\.objects) == [1000, 4000])
        // 1,000 objects/s, 4 s against the floor's 1 s, the same heap at both sizes.
        #expect(report.targets.map(\.verdict) == [.missed, .missed, .met])
        #expect(!report.targets.gatePasses)
        #expect(report.targets[0].gated == false)
    }
}
