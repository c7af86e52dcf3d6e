import Foundation
import IntegrityVerification
import MappingModel
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import Testing

@Suite("Integrity verifier")
struct IntegrityVerifierTests {
    @Test(arguments: StorageMode.allCases)
    func cleanMigrationVerifiesClean(storage: StorageMode) throws {
        try Shelf.withMigratedStores(storage: storage) { source, destination in
            let result = try Shelf.verify(source, destination)
            #expect(result.violations == [], "\(result.violations)")
            #expect(result.passed)
        }
    }

    /// The CPU time along the critical path (what `benchmark engine` gates on) is measured: more than nothing,
    /// and no more than the CPU time of the whole process meanwhile (every thread's, the companion's among them).
    @Test func theCriticalPathsCPUTimeIsWithinTheProcesss() throws {
        try Shelf.withMigratedStores { source, destination in
            let verifier = try IntegrityVerifier(source: try Shelf.v1(), destination: try Shelf.v2())
            var processTime = (timespec(), timespec())
            var criticalPath: Double?
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &processTime.0)
            let result = try verifier.verify(
                sourceStoreAt: source, destinationStoreAt: destination, criticalPathCPUSeconds: &criticalPath)
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &processTime.1)
            let process =
                Double(processTime.1.tv_sec - processTime.0.tv_sec)
                + Double(processTime.1.tv_nsec - processTime.0.tv_nsec) / 1e9
            #expect(result.passed)
            let seconds = try #require(criticalPath)
            #expect(seconds > 0 && seconds <= process, "\(seconds) s of \(process) s")
        }
    }

    @Test func inMemoryAndStreamingMigrationsGetTheSameVerdict() throws {
        var verdicts: [VerificationResult] = []
        for storage in StorageMode.allCases {
            try Shelf.withMigratedStores(storage: storage) { source, destination in
                try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZNAME = 'x' WHERE Z_PK = 4")
                verdicts.append(try Shelf.verify(source, destination))
            }
        }
        #expect(verdicts.count == 2 && verdicts[0] == verdicts[1])
        #expect(verdicts.first?.violations.map(\.kind) == [.attributeValue])
    }

    @Test func groupsCountEveryViolationAndKeepFiveExamples() throws {
        try Shelf.withMigratedStores { source, destination in
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZPAGES = -1 WHERE Z_PK <= 20")
            let result = try Shelf.verify(source, destination)
            let group = try #require(result.violations(of: .attributeValue).first)
            #expect(group.entity == "Book" && group.property == "pages")
            #expect(group.count == 20 && group.examples.count == 5)
            #expect(group.examples.first?.primaryKey == 1)
        }
    }

    @Test func expressionsAreEvaluatedByTheVerifier() throws {
        var mapping = try MappingInference.infer(from: try Shelf.v1(), to: try Shelf.v2())
        let index = mapping.entityMappings.firstIndex { $0.destinationEntity == "Book" }!
        mapping.entityMappings[index].attributeMappings.removeAll { $0.name == "isbn" }
        mapping.entityMappings[index].attributeMappings.append(
            PropertyMapping(name: "isbn", valueExpression: #"uppercase($source.title) + "-" + string($source.pages)"#))
        try Shelf.withMigratedStores(mappings: [mapping]) { source, destination in
            #expect(try Shelf.verify(source, destination, mappings: [mapping]).violations == [])
            try Shelf.corrupt(destination, "UPDATE ZBOOK SET ZISBN = lower(ZISBN) WHERE Z_PK = 9")
            let result = try Shelf.verify(source, destination, mappings: [mapping])
            #expect(result.violations.map(\.kind) == [.attributeValue])
            #expect(result.violations.first?.property == "isbn")
        }
    }
}
