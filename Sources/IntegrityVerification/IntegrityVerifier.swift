public import MappingModel
public import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Decides, without trusting the engine, whether a migrated store holds exactly what its source store and
/// mapping say it must.
///
/// Expectations are re-derived from the two model versions, the mapping models (or, without any, the
/// lightweight correspondence of names and renaming identifiers) and the source store. Every check streams
/// rows through prepared statements, so memory stays flat however large the stores are. Violations are data
/// in the result, grouped by kind, entity and property; checks that cannot be made are listed, never passed.
///
/// ```swift
/// let verifier = try IntegrityVerifier(source: v1, destination: v2, mappingModels: [mapping])
/// let result = try verifier.verify(sourceStoreAt: "v1.sqlite", destinationStoreAt: "v2.sqlite")
/// for group in result.violations { print(group.kind, group.entity ?? "", group.count) }
/// ```
public struct IntegrityVerifier: Sendable {
    /// The version the source store is at.
    public let source: ModelVersion
    /// The version the destination store must be at.
    public let destination: ModelVersion
    /// The compiled mapping models, one per pass; the inferred one when none was given.
    public let mappingModels: [CompiledMappingModel]
    /// Whether every check runs on the calling thread instead of two: under valgrind, whose threads take turns
    /// anyway, so that the calling thread's instruction count is the whole verification's, not its share.
    package var runsOnOneThread = false

    /// Compiles the mapping models (or infers the lightweight one) against the two versions.
    ///
    /// - Throws: ``MappingModel/MappingError`` when a mapping does not fit the versions.
    public init(
        source: ModelVersion, destination: ModelVersion, mappingModels: [MappingModel] = []
    ) throws(MappingError) {
        self.source = source
        self.destination = destination
        let models = mappingModels.isEmpty ? [InferredMapping.model(from: source, to: destination)] : mappingModels
        self.mappingModels = try models.map { model throws(MappingError) in
            try model.validated(source: source, destination: destination)
        }
    }

    /// Checks the destination store against the source store and the mapping.
    ///
    /// - Throws: ``VerificationError`` when a store cannot be opened or the source store is not at
    ///   ``source``; everything wrong with the destination store is a violation in the result.
    public func verify(
        sourceStoreAt sourcePath: String, destinationStoreAt destinationPath: String
    ) throws(VerificationError) -> VerificationResult {
        var criticalPath: Double?
        return try verify(
            sourceStoreAt: sourcePath, destinationStoreAt: destinationPath, criticalPathCPUSeconds: &criticalPath)
    }

    /// ``verify(sourceStoreAt:destinationStoreAt:)``, comparing the objects of a large table in ranges of about
    /// `rowsPerRange` source keys (a test's way to make small tables large). 150,000 rows take about 0.1 s on
    /// the 2-core machine this was measured on: short enough that the thread that finishes last keeps the
    /// other waiting only briefly, long enough that the ranges add little (measured at 1,000,000 objects, 9
    /// runs each: wall 0.583 s with ranges of 250,000, 0.576 s with 150,000 and with 100,000).
    func verify(
        sourceStoreAt sourcePath: String, destinationStoreAt destinationPath: String, rowsPerRange: Int64
    ) throws(VerificationError) -> VerificationResult {
        var criticalPath: Double?
        return try verify(
            sourceStoreAt: sourcePath, destinationStoreAt: destinationPath, rowsPerRange: rowsPerRange,
            criticalPathCPUSeconds: &criticalPath)
    }

    /// ``verify(sourceStoreAt:destinationStoreAt:)``, also telling its CPU time along its critical path: the
    /// calling thread's CPU seconds outside the checks (opening the stores, putting the findings together), plus
    /// the checks' own CPU seconds laid out, in their fixed order, on two workers as two idle cores would take
    /// them (``SharedChecks/criticalPath(ofRounds:)``). It is a property of the work, not of how the machine's
    /// load delayed either thread, where wall time on two threads moves a lot (`benchmark engine` gates on it). It
    /// does not see time spent waiting (for the disk, or for the other thread at the end of a round). Nil when a
    /// thread's CPU clock could not be read.
    package func verify(
        sourceStoreAt sourcePath: String, destinationStoreAt destinationPath: String,
        criticalPathCPUSeconds: inout Double?
    ) throws(VerificationError) -> VerificationResult {
        try verify(
            sourceStoreAt: sourcePath, destinationStoreAt: destinationPath, rowsPerRange: 150_000,
            criticalPathCPUSeconds: &criticalPathCPUSeconds)
    }

    private func verify(
        sourceStoreAt sourcePath: String, destinationStoreAt destinationPath: String, rowsPerRange: Int64,
        criticalPathCPUSeconds: inout Double?
    ) throws(VerificationError) -> VerificationResult {
        let start = SharedChecks.threadCPUSeconds()
        let run = try VerificationRun(
            verifier: self, sourcePath: sourcePath, destinationPath: destinationPath)
        // Two threads (unless runsOnOneThread), each on its own connection. The checks that build on the object comparisons (the edges,
        // the objects without a source, and the row rules the comparisons counted on the way) come after them.
        let checks = SharedChecks(
            [
                .init(afterComparisons: true) { $0.checkSourceStore() },
                .init(long: true) { $0.checkIntegrity() },
                .init { $0.checkMetadata() },
                .init { $0.checkSchema() },
                .init { $0.checkEntityNumbers() },
                .init(afterComparisons: true) { $0.checkEntityNumbersOfRows() },
            ] + run.objectChecks(rowsPerRange: max(1, rowsPerRange)) + [
                .init(afterComparisons: true) { $0.checkRelationshipEdges() },
                .init { $0.checkForeignKeys() },
                .init(afterComparisons: true) { $0.checkRequiredValues() },
                .init { $0.checkCountsAndUniqueness() },
            ])
        let companion = runsOnOneThread ? nil : try VerificationRun(companionOf: run)
        let beforeChecks = SharedChecks.threadCPUSeconds()
        let found = checks.run(on: run, companion: companion)
        let afterChecks = SharedChecks.threadCPUSeconds()
        let result = found.result
        let end = SharedChecks.threadCPUSeconds()
        criticalPathCPUSeconds = nil
        if let start, let beforeChecks, let afterChecks, let end, let inChecks = checks.criticalPathSeconds {
            criticalPathCPUSeconds = (beforeChecks - start) + inChecks + (end - afterChecks)
        }
        return result
    }
}

/// A store that cannot be verified at all: missing, unreadable, or not at the version it should be.
public struct VerificationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public let message: String
    /// The store at fault.
    public let path: String

    /// Creates an error.
    public init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }

    /// `<path>: <message>`.
    public var description: String { "\(path): \(message)" }
}
