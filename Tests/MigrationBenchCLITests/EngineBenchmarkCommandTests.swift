import ArgumentParser
import Testing

@testable import MigrationBenchCLI

/// `benchmark engine`'s options that cannot go together are refused before anything runs.
@Suite struct EngineBenchmarkCommandTests {
    /// `--scale` runs no step with the breakdown: `--breakdown` beside it would be silently ignored.
    @Test func scaleWithBreakdownIsRefused() throws {
        #expect(throws: Never.self) { _ = try MigrationBench.parseAsRoot(["benchmark", "engine", "--scale"]) }
        #expect(throws: Never.self) { _ = try MigrationBench.parseAsRoot(["benchmark", "engine", "--breakdown"]) }
        let error = #expect(throws: (any Error).self) {
            _ = try MigrationBench.parseAsRoot(["benchmark", "engine", "--scale", "--breakdown"])
        }
        let message = MigrationBench.message(for: try #require(error))
        #expect(message == "--breakdown cannot go with --scale, which runs no step with the breakdown", "\(message)")
    }
}
