import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import TestFixtures
import Testing

@testable import MigrationEngine

/// A migration error says what went wrong as fields beside its one-line message.
@Suite("Migration errors as values")
struct MigrationErrorTests {
    struct Cause: Error, CustomStringConvertible {
        var description: String { "division by zero" }
    }

    @Test func anEvaluationFailureNamesTheMappingPropertyAndSourceObject() throws {
        let error = try #require(
            MigrationSession.evaluationFailure(Cause(), mapping: "BookToBook", property: "pages", source: 7)
                as? MigrationError)
        #expect(error.message == "mapping 'BookToBook', property 'pages' (source object 7): division by zero")
        #expect(error.code == .evaluation)
        #expect(error.entityMapping == "BookToBook" && error.property == "pages" && error.sourceKey == 7)
        #expect(error.underlying is Cause)
    }

    /// The inference problems are kept whole, not only as text.
    @Test func aMappingThatCannotBeInferredKeepsItsProblems() throws {
        var book = try ThreeVersions.v2().entity(named: "Book")!
        book.attributes[1] = Attribute(name: "pages", type: .string, isOptional: true)
        let v3 = try ModelVersion(name: "V3", entities: [Library.author, book])
        let migrator = try StoreMigrator(history: try ModelHistory(versions: [Library.v1(), ThreeVersions.v2(), v3]))
        let error = try #require(throws: MigrationError.self) { try migrator.plan(from: "V1", to: "V3") }
        let inference = try #require(error.underlying as? InferenceError)
        #expect(inference.problems.map { [$0.entity, $0.property] } == [["Book", "pages"]])
        #expect(inference.problems.first?.rule == .typeChange)
        #expect(error.message.contains("\(inference)"))
    }
}
