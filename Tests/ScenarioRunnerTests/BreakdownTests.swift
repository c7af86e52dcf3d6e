import Foundation
import Instrumentation
import MigrationEngine
import ObjectModel
import PersistentStore
import ReportModel
import TestFixtures
import Testing

@testable import ScenarioRunner

/// "Where it went": each step broken down per entity mapping and stage, checked on every scenario of the catalog.
@Suite("Where it went")
struct BreakdownTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios")
    static let catalog: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? [])
        .filter { $0.hasSuffix(".yaml") }.sorted()

    /// Every mode of `scenario` at `size` (or its first quick size, when smaller), run `repetitions` times in this
    /// process and put together as `run` puts a cell together; with each cell, the objects in its last step's store.
    static func cells(_ scenario: Scenario, size: Int, repetitions: Int) throws -> [(Cell, Int)] {
        try scenario.modes.all.map { mode in
            let spec = CellSpec(
                scenarioFile: scenario.file, scenario: scenario.name,
                size: min(size, scenario.sizes(quick: true)[0]), mode: mode)
            var samples: [CellSample] = []
            var stored = 0
            for _ in 0..<repetitions {
                try withTemporaryFolder { folder in
                    let sample = try CellExecution(
                        scenario: scenario, spec: spec, heap: UnavailableHeapStatistics(), folder: folder.path
                    ).run()
                    let last = folder.appendingPathComponent("step-\(sample.steps.count).sqlite").path
                    let version = try ScenarioSetup(scenario: scenario).history.requireVersion(sample.steps.last!.to)
                    stored = try Store.open(at: last, version: version).objectCounts().values.reduce(0, +)
                    samples.append(sample)
                }
            }
            return (CellAggregation.cell(spec, scenario: scenario, samples: samples, failure: nil), stored)
        }
    }

    /// The stage phases count the objects they made: those of the last step add up to the objects in its store.
    /// (That the shares add up is checked in child processes, where the counts and times are the cell's own:
    /// `BreakdownRunTests`.)
    @Test(arguments: catalog)
    func stagesCountTheObjectsMade(file: String) throws {
        let scenario = try ScenarioLoader.load(path: Self.scenarios.appendingPathComponent(file).path)
        for (cell, stored) in try Self.cells(scenario, size: 2_000, repetitions: 1) {
            let steps = try #require(cell.breakdown, "\(cell.id) has no breakdown")
            let lastStep = try #require(steps.last?.step)
            let made = cell.phases.filter { $0.group == lastStep }.reduce(0) { $0 + $1.objects }
            #expect(made == stored, "\(cell.id): stages made \(made) objects, the store has \(stored)")
            let created = steps.last?.parts.reduce(0) { $0 + $1.objectsCreated }
            #expect(created == stored, "\(cell.id): parts made \(created ?? 0) objects, the store has \(stored)")
        }
    }

    /// The scenario's deliberately expensive mapping — a to-many key path evaluated per object — ranks first among
    /// the step's parts, with the hint that names it.
    @Test func theExpensiveMappingRanksFirstWithItsHint() throws {
        let scenario = try ScenarioLoader.load(
            path: Self.scenarios.appendingPathComponent("expensive-mapping.yaml").path)
        let (cell, _) = try #require(try Self.cells(scenario, size: 10_000, repetitions: 3).first)
        let first = try #require(cell.breakdown?.first?.parts.first)
        #expect(first.mapping == "AuthorToAuthor")
        #expect(first.phase == "pass 1 · creating objects")
        #expect(first.hint == "to-many key path $source.books.@count evaluated per object for rating")
        let books = try #require(
            cell.breakdown?.first?.parts.first { $0.mapping == "BookToBook" && $0.objectsCreated > 0 })
        #expect(books.rowsRead == first.rowsRead)
        #expect(books.wallSeconds.median < first.wallSeconds.median / 2)
    }

    /// A custom policy that the engine runs as SQL (AssignNewIdentifier, streaming) is hinted as such, though its
    /// part times its begin and end callbacks: the engine's hint comes before the busiest callback's.
    @Test func aPolicyRunAsSQLIsHintedSo() throws {
        let scenario = try ScenarioLoader.load(
            path: Self.scenarios.appendingPathComponent("primary-key-adoption.yaml").path)
        let hinted = try Self.cells(scenario, size: 2_000, repetitions: 1).flatMap { cell, _ in
            (cell.breakdown ?? []).flatMap(\.parts).filter { $0.phase.hasSuffix("creating objects") }
                .compactMap(\.hint)
        }
        #expect(
            hinted.contains { $0.hasPrefix("policy AssignNewIdentifier run as SQL") && $0.hasSuffix("per object") },
            "\(hinted)")
    }
}
