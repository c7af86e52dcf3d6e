import Foundation
import Instrumentation
import ReportModel
import ScenarioRunner

#if canImport(Glibc)
    import Glibc
#endif

/// The live display of a run on standard error: on a terminal, a line that follows the cell under way and
/// a line per finished cell; elsewhere (CI, pipes), only the lines.
final class RunDisplay {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now

    func show(_ event: RunEvent) {
        switch event {
        case .cellStarted(let index, let count, let spec, let repetition, let repetitions):
            guard isTerminal else { return }
            let run = repetitions > 1 ? " run \(repetition)/\(repetitions)" : ""
            write("\r[\(index)/\(count)] \(Self.describe(spec.scenario, spec.size, spec.mode.slug))\(run) …\u{1b}[K")
        case .cellFinished(let index, let count, let cell):
            let clear = isTerminal ? "\r\u{1b}[K" : ""
            write(clear + "[\(index)/\(count)] \(Self.line(cell))\n")
        }
    }

    /// A line per step of a check.
    func show(_ step: CheckStep) {
        let time = step.seconds.map { String(format: ", %.3f s", $0) } ?? ""
        let heap = step.peakHeapBytes.map { ", heap " + Self.mebibytes(Double($0)) } ?? ""
        let size = ProgressBar.grouped(step.size)
        write(
            "\(step.outcome.rawValue) \(step.from) → \(step.to) (\(step.kind), from \(step.origin) × \(size))\(time)\(heap)\n"
        )
    }

    func finish() {
        write(String(format: "done in %.1f s\n", (ContinuousClock.now - start).seconds))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func describe(_ scenario: String, _ size: Int, _ mode: String) -> String {
        "\(scenario) \(ProgressBar.grouped(size)) \(mode)"
    }

    static func line(_ cell: Cell) -> String {
        let what = describe(cell.scenario, cell.size, "\(cell.mode.passes)+\(cell.mode.storage)+\(cell.mode.path)")
        guard cell.isMeasured else { return "\(cell.status.rawValue.uppercased()) \(what): \(cell.failure ?? "")" }
        var parts = [String(format: "%.3f s", cell.total.wallSeconds.median)]
        if let floor = cell.floor { parts.append(String(format: "%.2f× floor", floor.ratio)) }
        parts.append("heap " + (cell.total.heapPeakBytes.map { Self.mebibytes($0.median) } ?? "unavailable"))
        parts.append("RSS " + Self.mebibytes(cell.total.peakResidentBytes.median))
        let status = cell.status == .passed ? "ok" : cell.status.rawValue.uppercased()
        return "\(status) \(what): " + parts.joined(separator: ", ") + (cell.failure.map { " — \($0)" } ?? "")
    }

    private static func mebibytes(_ bytes: Double) -> String {
        String(format: "%.1f MiB", bytes / 1_048_576)
    }
}
