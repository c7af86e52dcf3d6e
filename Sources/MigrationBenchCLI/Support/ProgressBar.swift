import Foundation
import Instrumentation
import ScenarioRunner

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress bar on standard error, drawn only when it is a terminal; elsewhere (CI, pipes)
/// it prints a plain line at every tenth of the work, so logs stay readable.
final class ProgressBar {
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var lastTenth = -1

    init(label: String) {
        self.label = label
    }

    func update(done: Int, total: Int, unit: String) {
        let fraction = total > 0 ? min(Double(done) / Double(total), 1) : 1
        draw(fraction: fraction, detail: "\(Self.grouped(done))/\(Self.grouped(total)) \(unit)", isLast: done >= total)
    }

    /// Shows `fraction` of the work done, with a short text saying where the work is.
    func update(fraction: Double, detail: String) {
        draw(fraction: fraction, detail: detail, isLast: fraction >= 1)
    }

    private func draw(fraction: Double, detail: String, isLast: Bool) {
        let elapsed = ContinuousClock.now - start
        if isTerminal {
            guard ContinuousClock.now - lastDraw >= .milliseconds(100) || isLast else { return }
            lastDraw = .now
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let line = "\r\(label) \(bar) \(Int(fraction * 100))% \(detail)  \(Self.seconds(elapsed))\u{1b}[K"
            FileHandle.standardError.write(Data(line.utf8))
        } else {
            let tenth = Int(fraction * 10)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            printError("\(label): \(tenth * 10)% (\(detail), \(Self.seconds(elapsed)))")
        }
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    static func grouped(_ value: Int) -> String { BenchmarkFormat.grouped(value) }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", duration.seconds)
    }
}
