import Foundation
public import ReportModel

/// One target of `benchmark generator|engine`, judged by the rule of its metric's noise class
/// (``MetricDefinition/noise``), as the baseline comparison judges a metric, with the limit × a figure measured
/// in the same run (the floor, a smaller store) in place of the baseline:
///
/// - a **timing** (``MetricDefinition/floorRatio``) by the Wilcoxon signed-rank test (``SignedRankTest``) of
///   each repetition's ratio of the step to its reference (run right before or after it) over the limit, or,
///   when they do not pair up, the Mann–Whitney test (``RankTest``) of the times against the reference's × the
///   limit: missed when the whole interval of the change, at one-sided level ``BaselineThresholds/alpha``, lies
///   above 0; not judged with too few repetitions (7 paired at 1 %); the limit itself is the smallest effect,
///   so no further minimum applies;
/// - a **memory** figure (``MetricDefinition/heapPeakBytes``) by its median against the limit: a high-water
///   mark barely moves between runs;
/// - a figure of the machine (objects per second) is shown and never gated.
///
/// `--gate` fails (exit 3) when any gated target is ``Verdict/missed``; not judged and unavailable never fail.
public struct BenchmarkTarget: Sendable, Hashable, Codable {
    /// What the rule concluded.
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// Within the limit, or not shown to be beyond it.
        case met
        /// Beyond the limit by the rule: `--gate` fails.
        case missed
        /// Too few repetitions for the rule to decide.
        case notJudged = "not-judged"
        /// A figure the target needs was not measured (jemalloc is not the allocator).
        case unavailable
    }

    /// What is measured, at which size, such as `streaming transform against its floor at 1,000,000`.
    public var name: String
    /// The ``MetricDefinition/key`` of the metric judged.
    public var metric: String
    /// The limit in words, such as `≤ 1.50×`.
    public var limit: String
    /// The figure in words: the median of the paired ratios, or the median peak, or why there is none.
    public var measured: String
    /// The conclusion.
    public var verdict: Verdict
    /// True when `--gate` fails on a miss; false for a figure of the machine that is only shown.
    public var gated: Bool
    /// The rule that decided, in words.
    public var rule: String
    /// For a timing judged by the test: the interval of `time / (limit × reference) - 1`, `[lower, upper]`.
    public var interval: [Double]?
    /// For a timing whose steps counted instructions: the step's median instructions over the reference's.
    public var instructionRatio: Double?

    /// True when met, false when missed, nil when not judged or unavailable (the form older reports had).
    public var met: Bool? { verdict == .met ? true : verdict == .missed ? false : nil }

    /// A timing target: the step's times (one per repetition) at most `limit` × `reference`'s (the floor's or
    /// another step's, each taken in the same repetition), judged by the rank test at one-sided level `alpha`;
    /// not judged when either ran under valgrind. Where both counted instructions, ``instructionRatio`` is the
    /// step's over the reference's (shown, not gated: the limits are for time).
    ///
    /// With `onCPU`, the times judged are the CPU seconds along each step's critical path
    /// (``BenchmarkCell/cpuSeconds``), where both steps measured them, and the wall-clock ratio is shown beside:
    /// for a step on two threads against one on one, whose wall-clock ratio a busy machine moves far more than it
    /// moves either CPU time.
    public static func timing(
        _ name: String, times: BenchmarkCell?, reference: BenchmarkCell?, limit: Double, onCPU: Bool = false,
        alpha: Double = BaselineThresholds().alpha
    ) -> BenchmarkTarget {
        var target = BenchmarkTarget(
            name: name, metric: MetricDefinition.floorRatio.key, limit: String(format: "≤ %.2f×", limit),
            measured: "not measured", verdict: .unavailable, gated: true,
            rule:
                "timing: Wilcoxon signed-rank of each repetition's ratio against \(BenchmarkFormat.ratio(limit)), "
                + "missed when the \(BenchmarkFormat.percent(1 - 2 * alpha)) interval of the change lies above 0")
        guard let times, let reference else { return target }
        if let counted = times.instructions, let base = reference.instructions {
            target.instructionRatio = counted.median / base.median
        }
        let wallRatio = times.seconds.pairedRatio(over: reference.seconds)
        let cpu = onCPU ? times.cpuSeconds.flatMap { cpu in reference.cpuSeconds.map { (cpu, $0) } } : nil
        let (judged, base) = cpu ?? (times.seconds, reference.seconds)
        let ratio = judged.pairedRatio(over: base)
        target.measured = ratio.map { BenchmarkFormat.ratio($0.median) } ?? "not paired"
        if cpu != nil {
            target.measured =
                "CPU on the critical path \(target.measured); wall \(wallRatio.map { BenchmarkFormat.ratio($0.median) } ?? "not paired")"
            target.rule = target.rule.replacingOccurrences(
                of: "timing: ", with: "timing (CPU seconds along each step's critical path): ")
        } else if onCPU {
            target.rule = target.rule.replacingOccurrences(
                of: "timing: ", with: "timing (wall clock: the CPU seconds were not measured): ")
        }
        if let instructionRatio = target.instructionRatio {
            target.measured += "; instructions \(BenchmarkFormat.ratio(instructionRatio))"
        }
        if times.underValgrind == true || reference.underValgrind == true {
            target.verdict = .notJudged
            target.rule = "timing: not judged, timed under valgrind (--instructions)"
            return target
        }
        let test: (change: Double, interval: (lower: Double, upper: Double))?
        if let ratio {
            // Paired: each repetition's step against the reference of the same repetition.
            test = SignedRankTest(ratios: ratio.samples.map { $0 / limit }, alpha: alpha).map {
                ($0.change, $0.interval)
            }
        } else {
            test = RankTest(
                baseline: base.samples.map { $0 * limit }, current: judged.samples, alpha: alpha
            ).map { ($0.change, $0.interval) }
        }
        guard let test else {
            target.verdict = .notJudged
            target.rule =
                "timing: not judged, \(times.seconds.samples.count) repetitions are too few for the signed-rank test "
                + "at one-sided level \(BenchmarkFormat.percent(alpha)) (7 at 1 %)"
            return target
        }
        target.interval = [test.interval.lower, test.interval.upper]
        target.verdict = test.interval.lower > 0 ? .missed : .met
        if target.verdict == .met, let median = ratio?.median, median > limit {
            target.measured += " (above the limit, within the test's noise)"
        }
        return target
    }

    /// A memory target: the median of `bytes` (a peak, or a quotient of two peaks when `isRatio`) at most `limit`.
    public static func memory(_ name: String, median: Double?, limit: Double, isRatio: Bool = false) -> BenchmarkTarget
    {
        let show = { (value: Double) in isRatio ? BenchmarkFormat.ratio(value) : BenchmarkFormat.mebibytes(value) }
        var target = BenchmarkTarget(
            name: name, metric: MetricDefinition.heapPeakBytes.key, limit: "≤ " + show(limit),
            measured: "unavailable (jemalloc is not the allocator)", verdict: .unavailable, gated: true,
            rule: "memory: the median peak against the limit (a high-water mark barely moves between runs)")
        guard let median else { return target }
        target.measured = show(median)
        target.verdict = median <= limit ? .met : .missed
        return target
    }

    /// A figure of the machine, such as objects per second: shown against its target, never gated.
    public static func reported(_ name: String, measured: Double, atLeast limit: Double) -> BenchmarkTarget {
        BenchmarkTarget(
            name: name, metric: MetricDefinition.wallSeconds.key, limit: "≥ " + BenchmarkFormat.grouped(Int(limit)),
            measured: BenchmarkFormat.grouped(Int(measured)), verdict: measured >= limit ? .met : .missed,
            gated: false, rule: "reported only: depends on the machine, not on a figure measured in the same run")
    }

    /// The line of the benchmark's table that shows the target.
    public var line: String {
        let word =
            switch verdict {
            case .met: "met"
            case .missed: gated ? "MISSED" : "missed (not gated)"
            case .notJudged: "not judged"
            case .unavailable: "not measured"
            }
        return "\(BenchmarkFormat.padded(word, 19)) \(name): \(measured) (target \(limit))"
    }
}

extension [BenchmarkTarget] {
    /// Whether `--gate` passes: no gated target is missed.
    public var gatePasses: Bool { !contains { $0.gated && $0.verdict == .missed } }
}
