import ArgumentParser
import Foundation
import Instrumentation
import IntegrityVerification
import MappingModel
import ObjectModel
import PersistentStore

/// `migration-bench verify`: checks a migrated store against its source store and mapping.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that a migrated store holds exactly what its source store and mapping say it must.",
        discussion: """
            Both stores' versions are detected from their metadata. Without --mapping, the correspondence is the \
            lightweight one (same names and renaming identifiers). Exit code 0 when clean, 2 when anything is \
            wrong, 1 for bad input.
            """)

    @Option(name: .long, help: ArgumentHelp("The store migrated from.", valueName: "store"))
    var source: String

    @Option(name: .long, help: ArgumentHelp("The migrated store.", valueName: "store"))
    var destination: String

    @OptionGroup var model: ModelOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A mapping model (YAML/JSON, .xcmappingmodel or .cdm), one per pass, in order.", valueName: "file"))
    var mapping: [String] = []

    @OptionGroup var policies: PolicyOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        var result: VerificationResult?
        // Both stores are only read: reading one in WAL mode would otherwise leave an empty -wal and -shm.
        try WriteAheadLog.leavingNoSidecars(of: [source, destination]) { try verify(into: &result) }
        if result?.passed == false { throw ExitCode.integrityFailure }
    }

    private func verify(into result: inout VerificationResult?) throws {
        try reportingInputErrors {
            let history = try model.load()
            let mappings = try MappingModelLoader.load(paths: mapping, for: history, bindings: try policies.bindings())
            let sourceMetadata: StoreMetadata
            do {
                sourceMetadata = try Store.metadata(at: source)
            } catch {
                // A -wal that is not the store's own can make the store unreadable once applied: that is the
                // source store's integrity (exit 2), not bad input.
                if let problem = WriteAheadLog.foreignLogProblem(storeAt: source) {
                    printError("error: \(oneLine("\(source): \(problem)"))")
                    throw ExitCode.integrityFailure
                }
                guard WriteAheadLog.holdsFrames(storeAt: source) else { throw error }
                printError(
                    "error: \(oneLine("\(source): cannot be read once its -wal is applied (the -wal may come from another database): \(error)"))"
                )
                throw ExitCode.integrityFailure
            }
            guard
                let sourceVersion = history.version(
                    matching: sourceMetadata.versionHashes, named: sourceMetadata.modelVersionName)
            else {
                throw InputError("\(source): the store matches no version of the model")
            }
            let destinationVersion = try destinationVersion(in: history, mappings: mappings)
            // Measured as the benchmarks measure a migration: the work alone, its peak heap from jemalloc.
            let heap = currentHeapStatistics()
            heap.resetThreadPeak()
            let verifier = try IntegrityVerifier(
                source: sourceVersion, destination: destinationVersion, mappingModels: mappings)
            // The wall clock starts where the CPU clock does, inside `verify`: both measure the same span.
            let clock = ContinuousClock()
            let start = clock.now
            var cpuSeconds: Double?
            let verdict = try verifier.verify(
                sourceStoreAt: source, destinationStoreAt: destination, criticalPathCPUSeconds: &cpuSeconds)
            let seconds = (clock.now - start).seconds
            let peak = heap.threadPeakBytes()
            result = verdict
            if json {
                try printJSON(
                    VerifyReport(result: verdict, seconds: seconds, cpuSeconds: cpuSeconds, peakHeapBytes: peak))
                return
            }
            print("\(destination) against \(source) (\(sourceVersion.name) → \(destinationVersion.name))")
            for group in verdict.violations {
                let subject = [group.entity, group.property].compactMap { $0 }.joined(separator: ".")
                print("  \(group.kind.rawValue) \(subject): \(group.count)")
                for example in group.examples {
                    print("    \(example.primaryKey.map { "Z_PK \($0): " } ?? "")\(example.detail)")
                }
            }
            for skipped in verdict.notChecked {
                let subject = [skipped.entity, skipped.property].compactMap { $0 }.joined(separator: ".")
                print("  not checked: \(skipped.kind.rawValue) \(subject): \(skipped.reason)")
            }
            let heapText = peak.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "unavailable"
            print(String(format: "  %.2f s, peak heap %@", seconds, heapText))
            print(verdict.passed ? "  passed" : "  FAILED")
        }
    }

    /// The destination's version: the one its hashes match, else the one its metadata names, else the mapping's,
    /// else the model's current one (where `migrate` goes by default). A destination without usable metadata is
    /// then checked against that version, and its metadata is an integrity failure (exit 2), not an input error.
    private func destinationVersion(in history: ModelHistory, mappings: [MappingModel]) throws -> ModelVersion {
        guard FileManager.default.fileExists(atPath: destination) else {
            throw InputError("\(destination): no such store")
        }
        let metadata = try? Store.metadata(at: destination)
        // Among hash-identical versions (one version to Core Data), the one the metadata names.
        if let metadata,
            let version = history.version(matching: metadata.versionHashes, named: metadata.modelVersionName)
        {
            return version
        }
        let named = metadata?.modelVersionName ?? mappings.last?.destinationVersion
        if let named, let version = history.version(named: named) { return version }
        return history.currentVersion
    }
}

/// The JSON of `verify --json`: the verdict, and the time and peak heap of the verification alone.
struct VerifyReport: Encodable {
    let result: VerificationResult
    let seconds: Double
    /// CPU seconds along the verification's critical path (see `IntegrityVerifier.verify(…criticalPathCPUSeconds:)`);
    /// left out of the JSON when a thread's CPU clock could not be read.
    let cpuSeconds: Double?
    /// The peak heap of the verifying thread, from jemalloc; null when jemalloc is not the allocator.
    let peakHeapBytes: Int?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(result.passed, forKey: .passed)
        try container.encode(result.violations, forKey: .violations)
        try container.encode(result.notChecked, forKey: .notChecked)
        try container.encode(seconds, forKey: .seconds)
        try container.encodeIfPresent(cpuSeconds, forKey: .cpuSeconds)
        try container.encode(peakHeapBytes, forKey: .peakHeapBytes)
    }

    enum CodingKeys: String, CodingKey {
        case passed, violations, notChecked, seconds, cpuSeconds, peakHeapBytes
    }
}
