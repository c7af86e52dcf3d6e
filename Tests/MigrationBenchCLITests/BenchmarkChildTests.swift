import Foundation
import MigrationEngine
import ScenarioRunner
import Testing

/// The benchmarks' child protocol end to end: each ``BenchmarkStep``'s command line, run by the built
/// executable, prints what decodes as its ``BenchmarkSample``.
@Suite("benchmark children")
struct BenchmarkChildTests {
    static func sample(_ step: BenchmarkStep, in folder: URL) throws -> BenchmarkSample {
        let run = try Executable.run(step.arguments, in: folder)
        #expect(run.status == 0, "\(step.arguments): \(run.error)")
        return try JSONDecoder().decode(BenchmarkSample.self, from: Data(run.output.utf8))
    }

    @Test func everyStepPrintsASample() throws {
        try Executable.withTemporaryFolder { folder in
            let path = { (name: String) in folder.appendingPathComponent(name).path }
            let source = path("v1.sqlite")
            let generated = try Self.sample(
                .generate(
                    model: EngineBenchmark.model, version: "V1", dataset: EngineBenchmark.dataset, size: 300,
                    output: source), in: folder)
            let objects = try #require(generated.objectCount)
            #expect(objects >= 300 && generated.seconds > 0)

            let copy = try Self.sample(.floorInsert(source: source, output: path("copy.sqlite")), in: folder)
            #expect(copy.seconds > 0 && copy.objectCount == nil && copy.peakHeapBytes == nil)

            for mode in BenchmarkMigrationMode.allCases {
                let migrated = try Self.sample(
                    .migration(
                        source: source, model: EngineBenchmark.model, from: "V1", to: "V2", mode: mode,
                        passes: .perEntity, mapping: mode == .inPlace ? nil : EngineBenchmark.mapping,
                        output: path("\(mode.rawValue).sqlite")), in: folder)
                #expect(migrated.objectCount == objects, "\(mode)")
                #expect(migrated.seconds > 0)
            }
            let floor = try Self.sample(
                .floorSQL(
                    script: "Scenarios/floors/library-v1-v2-copy.sql", store: path("floor.sqlite"), attach: source),
                in: folder)
            #expect(floor.seconds > 0)
            let verified = try Self.sample(
                .verify(
                    source: source, destination: path("streaming.sqlite"), model: EngineBenchmark.model,
                    mapping: EngineBenchmark.mapping), in: folder)
            #expect(verified.seconds > 0 && verified.objectCount == nil)
        }
    }
}
