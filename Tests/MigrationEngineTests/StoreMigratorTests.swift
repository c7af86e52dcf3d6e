import DataGeneration
import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@testable import MigrationEngine

/// A three-version history: V1 → V2 renames `Book.title` (lightweight), V2 → V3 adds a required `Book.label`
/// that only a mapping model can fill (heavyweight).
enum ThreeVersions {
    static func v2() throws -> ModelVersion {
        var book = Library.book
        book.attributes[0] = Attribute(name: "name", type: .string, renamingIdentifier: "title")
        return try ModelVersion(name: "V2", entities: [Library.author, book])
    }

    static func v3(labelIsRequired: Bool = true) throws -> ModelVersion {
        var book = try v2().entity(named: "Book")!
        book.attributes.append(Attribute(name: "label", type: .string, isOptional: !labelIsRequired))
        return try ModelVersion(name: "V3", entities: [Library.author, book])
    }

    static func history(labelIsRequired: Bool = true) throws -> ModelHistory {
        try ModelHistory(versions: [Library.v1(), v2(), v3(labelIsRequired: labelIsRequired)])
    }

    static let mappingText = """
        name: V2toV3
        sourceVersion: V2
        destinationVersion: V3
        entityMappings:
          - name: AuthorToAuthor
            kind: transform
            source: Author
            destination: Author
            attributes: { name: $source.name, born: $source.born }
            relationships:
              books: 'FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "books", $source.books)'
          - name: BookToBook
            kind: transform
            source: Book
            destination: Book
            attributes: { name: $source.name, pages: $source.pages, genre: $source.genre, label: '"L-" + $source.name' }
            relationships:
              author: 'FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "author", $source.author)'
        """

    static func mapping() throws -> MappingModel {
        try MappingModelLoader.load(text: mappingText, file: "V2toV3.yaml")
    }

    static func migrator(stages: [MigrationStage] = []) throws -> StoreMigrator {
        try StoreMigrator(history: history(), mappingModels: [mapping()], stages: stages)
    }

    /// The files in `folder` whose names show a working store (`.migrating-`).
    static func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".migrating-") }
    }

    static func titles(_ path: String, column: String) throws -> [String] {
        try Connection(path: path, mode: .readOnly).rows("SELECT \(column) FROM ZBOOK ORDER BY Z_PK").map {
            $0[0].string ?? ""
        }
    }
}

@Suite("Migration chains")
struct MigrationChainTests {
    @Test func linearChainGivesThePathBetweenTwoVersions() throws {
        let chain = try MigrationChain(["V1", "V2", "V3"])
        #expect(try chain.path(from: "V1", to: "V3") == ["V1", "V2", "V3"])
        #expect(try chain.path(from: "V2", to: "V2") == ["V2"])
    }

    @Test func treeChainLeadsEveryRootToTheLeaf() throws {
        let chain = try MigrationChain(paths: [["A", "B", "D"], ["C", "D"], ["E", "B"]])
        #expect(try chain.path(from: "A", to: "D") == ["A", "B", "D"])
        #expect(try chain.path(from: "C", to: "D") == ["C", "D"])
        #expect(try chain.path(from: "E", to: "D") == ["E", "B", "D"])
    }

    static let invalid: [(paths: [[String]], message: String)] = [
        ([["V1", "V2", "V1"]], "version 'V1' appears twice"),
        ([["V1", "V2"], ["V1", "V3"]], "version 'V1' has two successors, 'V2' and 'V3'"),
        ([["A", "B"], ["B", "C"], ["C", "A"]], "the chain loops: A → B → C → A"),
        ([[]], "names no version"),
    ]

    @Test(arguments: invalid)
    func invalidChainsAreErrorsNamingTheVersions(paths: [[String]], message: String) {
        #expect {
            try MigrationChain(paths: paths)
        } throws: { error in
            (error as? MigrationError)?.code == .chain && "\(error)".contains(message)
        }
    }

    static let badPaths: [(from: String, to: String, message: String)] = [
        ("V3", "V1", "'V1' comes before 'V3' in the chain: migrations never go backwards"),
        ("V1", "V9", "version 'V9' is not in the migration chain"),
        ("C", "V3", "no path in the migration chain leads from 'C' to 'V3'"),
    ]

    @Test(arguments: badPaths)
    func pathsThatCannotBeTakenAreErrors(from: String, to: String, message: String) throws {
        let chain = try MigrationChain(paths: [["V1", "V2", "V3"], ["C", "D"]])
        #expect {
            try chain.path(from: from, to: to)
        } throws: { error in
            (error as? MigrationError)?.code == .chain && "\(error)".contains(message)
        }
    }
}

@Suite("Migration planning")
struct MigrationPlanningTests {
    @Test func aStoreTwoVersionsBehindNeedsALightweightThenAHeavyweightStep() throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder)
            let plan = try ThreeVersions.migrator().requiredMigrations(forStoreAt: store)
            #expect(plan.from == "V1" && plan.to == "V3")
            #expect(
                plan.steps.map(\.summary) == [
                    .init(from: "V1", to: "V2", kind: .lightweight), .init(from: "V2", to: "V3", kind: .heavyweight),
                ])
            #expect(try ThreeVersions.migrator().requiredMigrations(forStoreAt: store, to: "V2").steps.count == 1)
        }
    }

    @Test func aStoreAtTheTargetNeedsNothing() throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder)
            let migrator = try StoreMigrator(history: try ModelHistory(versions: [Library.v1()]))
            #expect(try migrator.requiredMigrations(forStoreAt: store).isEmpty)
            #expect(try migrator.migrateStore(at: store).steps.isEmpty)
        }
    }

    @Test func aStoreOfAnUnknownVersionIsAnErrorNamingTheEntities() throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder)
            let migrator = try StoreMigrator(history: try ModelHistory(versions: [ThreeVersions.v2()]))
            #expect {
                try migrator.requiredMigrations(forStoreAt: store)
            } throws: { error in
                (error as? MigrationError)?.code == .plan && "\(error)".contains("matches no version")
                    && "\(error)".contains("Book")
            }
        }
    }

    @Test func aStepWithoutMappingThatCannotBeInferredIsAnError() throws {
        var book = try ThreeVersions.v2().entity(named: "Book")!
        book.attributes[1] = Attribute(name: "pages", type: .string, isOptional: true)
        let v3 = try ModelVersion(name: "V3", entities: [Library.author, book])
        let migrator = try StoreMigrator(
            history: try ModelHistory(versions: [Library.v1(), ThreeVersions.v2(), v3]))
        #expect {
            try migrator.plan(from: "V1", to: "V3")
        } throws: { error in
            (error as? MigrationError)?.code == .plan
                && "\(error)".contains("step V1 → V3 has no mapping model, and its mapping cannot be inferred")
                && "\(error)".contains("--path chained")
                && "\(error)".contains("entity 'Book', property 'pages'")
                && "\(error)".contains("Source and destination attribute types are incompatible")
        }
    }

    /// A new required attribute without a default: lightweight and flagged, an empty store migrates, and a
    /// store with objects fails as Core Data's 134110 does, left byte for byte as it was.
    @Test func aNewRequiredAttributeWithoutDefaultFailsOnTheFirstObjectOnly() throws {
        let migrator = try StoreMigrator(history: ThreeVersions.history())
        let plan = try migrator.plan(from: "V2", to: "V3")
        #expect(plan.steps.map(\.kind) == [.lightweight])
        #expect(plan.steps[0].changes.contains { $0.change == .needsValue && $0.property == "label" })
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder, size: 20)
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            #expect {
                try migrator.migrateStore(at: store)
            } throws: { error in
                (error as? MigrationError)?.code == .validation
                    && "\(error)".contains(
                        "Validation error missing attribute values on mandatory destination attribute "
                            + "(entity=Book, attribute=label)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
            #expect(try ThreeVersions.leftovers(in: folder).isEmpty)

            let empty = folder.appendingPathComponent("empty.sqlite").path
            _ = try StoreGenerator(version: try Library.v1(), dataset: Dataset(seed: 1, objects: [:]), size: 0)
                .generate(at: empty)
            #expect(try migrator.migrateStore(at: empty).steps.count == 1, "Core Data's path: one step")
        }
    }

    @Test func mappingModelsMustNameKnownVersions() throws {
        var mapping = try ThreeVersions.mapping()
        mapping.sourceVersion = nil
        #expect(throws: MigrationError.self) {
            try StoreMigrator(history: ThreeVersions.history(), mappingModels: [mapping])
        }
        mapping.sourceVersion = "V7"
        #expect { try StoreMigrator(history: ThreeVersions.history(), mappingModels: [mapping]) } throws: {
            "\($0)".contains("names version 'V7'")
        }
    }

    @Test func theDirectPathIsOneStepAndPerEntitySplitsPasses() throws {
        var migrator = try StoreMigrator(history: ThreeVersions.history(labelIsRequired: false))
        let direct = try migrator.plan(from: "V1", to: "V3")
        migrator.path = .chained
        #expect(try migrator.plan(from: "V1", to: "V3").steps.count == 2)
        #expect(direct.steps.map(\.name) == ["V1 → V3"])
        #expect(direct.steps[0].through == ["V2"] && direct.steps[0].kind == .lightweight)

        var heavy = try ThreeVersions.migrator()
        heavy.passes = .perEntity
        #expect(try heavy.plan(from: "V2", to: "V3").steps[0].mappingModels.count == 2)
    }
}

@Suite("Whole migrations")
struct StoreMigratorTests {
    @Test(arguments: StorageMode.allCases)
    func aStoreMigratesAcrossTheChainInPlace(storage: StorageMode) throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder)
            let titles = try ThreeVersions.titles(store, column: "ZTITLE")
            var migrator = try ThreeVersions.migrator()
            migrator.options.storage = storage
            let outcome = try migrator.migrateStore(at: store)
            #expect(outcome.steps.map(\.step.kind) == [.lightweight, .heavyweight])
            #expect(try migrator.version(ofStoreAt: store).name == "V3")
            #expect(try ThreeVersions.titles(store, column: "ZNAME") == titles)
            #expect(try ThreeVersions.titles(store, column: "ZLABEL") == titles.map { "L-" + $0 })
            #expect(try ThreeVersions.leftovers(in: folder).isEmpty)
            let edges = try Connection(path: store, mode: .readOnly).scalar(
                "SELECT COUNT(*) FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR")
            #expect(edges?.int64 == 200)
        }
    }

    @Test func stageHandlersReadAndWriteTheWorkingStoreAndNeverTheOriginal() throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder)
            let before = try Library.dump(store)
            let seen = Seen()
            let upper = MigrationStage(
                from: "V1", to: "V2",
                willMigrate: { context in
                    seen.append("will \(context.step.from)→\(context.step.to) at \(context.store.version.name)")
                    #expect(context.store.path != store)
                    try context.store.connection.execute("UPDATE ZBOOK SET ZTITLE = upper(ZTITLE)")
                },
                didMigrate: { context in
                    seen.append("did \(context.step.from)→\(context.step.to) at \(context.store.version.name)")
                })
            let failing = MigrationStage(
                from: "V2", to: "V3",
                didMigrate: { context in
                    let labels = try context.store.connection.scalar(
                        "SELECT COUNT(*) FROM ZBOOK WHERE ZLABEL LIKE 'L-%'")
                    seen.append("did V2→V3 saw \(labels?.int64 ?? 0) labels")
                    throw MigrationError(.policy, "refused by the test")
                })
            #expect(throws: MigrationError.self) {
                try ThreeVersions.migrator(stages: [upper, failing]).migrateStore(at: store)
            }
            #expect(seen.lines == ["will V1→V2 at V1", "did V1→V2 at V2", "did V2→V3 saw 200 labels"])
            #expect(try Library.dump(store) == before, "a failed migration changed the original")
            #expect(try ThreeVersions.leftovers(in: folder).isEmpty)

            try ThreeVersions.migrator(stages: [upper]).migrateStore(at: store)
            let names = try ThreeVersions.titles(store, column: "ZNAME")
            #expect(names == names.map { $0.uppercased() })
        }
    }

    @Test func progressIsOneValueForTheWholeMigrationThatNeverGoesBack() throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder, size: 20_000)
            var updates: [StoreMigrationProgress] = []
            try ThreeVersions.migrator().migrateStore(at: store) { updates.append($0) }
            let fractions = updates.map(\.fractionCompleted)
            #expect(fractions == fractions.sorted())
            #expect(updates.first?.phase == .preparing && updates.last?.phase == .finished)
            #expect(updates.last?.fractionCompleted == 1 && updates.last?.localizedDescription == "100% completed")
            #expect(Set(updates.map(\.step)) == [0, 1, 2])
            let heavy = try #require(updates.first { $0.stepProgress?.stage == .createRelationships })
            #expect(heavy.stepDescription == "2 of 2")
            #expect(heavy.localizedAdditionalDescription.hasPrefix("step 2 of 2 (V2 → V3, heavyweight): pass 1 of 1"))
            #expect(
                updates.contains {
                    $0.phase == .migrating && $0.step == 2 && $0.fractionCompleted > 0.55 && $0.fractionCompleted < 0.95
                })
        }
    }

    /// Cancels after the `n`-th progress report: while preparing, inside the lightweight step, between the
    /// steps, inside each stage of the heavyweight step, and just before the swap.
    @Test(arguments: [1, 2, 4, 6, 10, 14, 18, 1_000])
    func cancellationAtAnyMomentLeavesTheOriginalAndNoWorkingFile(after reports: Int) throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder, size: 40_000)
            let before = try Library.dump(store)
            var count = 0
            var lastPhase = StoreMigrationProgress.Phase.preparing
            let migrator = try ThreeVersions.migrator()
            do {
                try migrator.migrateStore(
                    at: store,
                    progress: {
                        count += 1; lastPhase = $0.phase
                    }, shouldCancel: { count >= reports })
                #expect(reports == 1_000 && lastPhase == .finished, "not cancelled after \(count) reports")
            } catch let error as MigrationError {
                #expect(error.code == .cancelled)
                #expect(try Library.dump(store) == before)
                #expect(try migrator.version(ofStoreAt: store).name == "V1")
            }
            #expect(try ThreeVersions.leftovers(in: folder).isEmpty)
        }
    }

    @Test func cancellingTheBackgroundTaskCancelsTheMigration() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Library.makeStore(in: folder, size: 40_000)
        // The migration waits after its first step until the test has cancelled it.
        let cancelled = DispatchSemaphore(value: 0)
        var migrator = try ThreeVersions.migrator()
        migrator.onEvent = { event in if event == .stepFinished(1) { cancelled.wait() } }
        let (updates, result) = migrator.migrateStoreInBackground(at: store)
        for await update in updates where update.step == 1 {
            result.cancel()
            cancelled.signal()
            break
        }
        await #expect(throws: MigrationError.self) { try await result.value }
        #expect(try ThreeVersions.migrator().version(ofStoreAt: store).name == "V1")
        #expect(try ThreeVersions.leftovers(in: folder).isEmpty)
    }

    @Test func aStoreWhoseRowsSitOnlyInItsWriteAheadLogMigratesWithThem() throws {
        try withTemporaryFolder { folder in
            let generated = try Library.makeStore(in: folder)
            let store = folder.appendingPathComponent("wal-only.sqlite").path
            try copyWithRowsOnlyInTheLog(generated, to: store) { connection in
                try connection.execute("UPDATE ZBOOK SET ZTITLE = 'from the log ' || Z_PK")
            }
            #expect(FileManager.default.fileExists(atPath: store + "-wal"))
            let outcome = try ThreeVersions.migrator().migrateStore(at: store)
            #expect(outcome.steps.count == 2)
            // The swap removed the old store's sidecars: nothing stale is left to be applied to the new store.
            #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
            #expect(!FileManager.default.fileExists(atPath: store + "-shm"))
            let names = try ThreeVersions.titles(store, column: "ZNAME")
            #expect(names.count == 200 && names.allSatisfy { $0.hasPrefix("from the log ") })
            #expect(try ThreeVersions.leftovers(in: folder).isEmpty)
        }
    }

    @Test func aStoreWrittenDuringTheMigrationIsLeftAsItIs() throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder)
            var migrator = try ThreeVersions.migrator()
            migrator.onEvent = { event in
                guard event == .sealed, let connection = try? Connection(path: store, mode: .readWrite) else { return }
                try? connection.execute("UPDATE ZBOOK SET ZTITLE = 'written meanwhile' WHERE Z_PK = 1")
            }
            #expect {
                try migrator.migrateStore(at: store)
            } throws: { error in
                (error as? MigrationError)?.code == .fileSystem
                    && "\(error)".contains("changed while it was being migrated")
            }
            #expect(try migrator.version(ofStoreAt: store).name == "V1")
            #expect(try ThreeVersions.titles(store, column: "ZTITLE").first == "written meanwhile")
            #expect(try ThreeVersions.leftovers(in: folder).isEmpty)
        }
    }

    @Test func workingFilesOfAKilledMigrationAreRemovedByTheNextOne() throws {
        try withTemporaryFolder { folder in
            let store = try Library.makeStore(in: folder)
            for name in ["v1.sqlite.migrating-1", "v1.sqlite.migrating-1-wal", "v1.sqlite.migrating-2"] {
                _ = FileManager.default.createFile(
                    atPath: folder.appendingPathComponent(name).path, contents: Data("junk".utf8))
            }
            try ThreeVersions.migrator().migrateStore(at: store)
            #expect(try ThreeVersions.leftovers(in: folder).isEmpty)
        }
    }

    /// Copies `path` to `destination` so that the copy's changes made by `change` sit only in its `-wal`.
    private func copyWithRowsOnlyInTheLog(
        _ path: String, to destination: String, change: (Connection) throws -> Void
    ) throws {
        try FileManager.default.copyItem(atPath: path, toPath: destination)
        let connection = try Connection(path: destination, mode: .readWrite)
        try connection.setPragma("wal_autocheckpoint", "0")
        try change(connection)
        // Copy the files while the connection is open, so the log is not checkpointed by its close: the three
        // files a crashed app leaves. (Without its -shm, a log of data pages only is refused: nothing tells it
        // from another database's; HostileInputTests.aForeignLogOfDataPagesOnlyIsRefused.)
        let staged = destination + ".staged"
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: destination + suffix, toPath: staged + suffix)
        }
        _ = consume connection
        Store.remove(at: destination)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.moveItem(atPath: staged + suffix, toPath: destination + suffix)
        }
    }
}

/// Lines appended from stage handlers.
final class Seen: @unchecked Sendable {
    private(set) var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}

/// File-system failures, made real: a full disk (a 3 MiB tmpfs) and a folder nobody may write to (an
/// immutable folder). Both need root, which CI has; elsewhere they do not run.
@Suite("Whole migrations on a failing file system", .enabled(if: getuid() == 0, "needs root to mount a tmpfs"))
struct FileSystemFailureTests {
    private func run(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try? process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aFullDiskIsAClearErrorAndTheOriginalIsIntact() throws {
        try withTemporaryFolder { folder in
            let disk = folder.appendingPathComponent("disk")
            try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
            try #require(run("mount -t tmpfs -o size=3m tmpfs '\(disk.path)'") == 0, "cannot mount a tmpfs")
            defer { _ = run("umount '\(disk.path)'") }
            let generated = try Library.makeStore(in: folder, size: 16_000)
            let store = disk.appendingPathComponent("library.sqlite").path
            try FileManager.default.copyItem(atPath: generated, toPath: store)
            let before = try Library.dump(store)
            #expect {
                try ThreeVersions.migrator().migrateStore(at: store)
            } throws: { error in
                "\(error)".contains("full")
            }
            #expect(try Library.dump(store) == before)
            #expect(try ThreeVersions.leftovers(in: disk).isEmpty)
        }
    }

    @Test func aFolderThatCannotBeWrittenIsAClearErrorAndTheOriginalIsIntact() throws {
        try withTemporaryFolder { folder in
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            let store = locked.appendingPathComponent("library.sqlite").path
            try FileManager.default.copyItem(atPath: try Library.makeStore(in: folder), toPath: store)
            let before = try Library.dump(store)
            try #require(run("chattr +i '\(locked.path)'") == 0, "cannot make the folder immutable")
            defer { _ = run("chattr -i '\(locked.path)'") }
            #expect {
                try ThreeVersions.migrator().migrateStore(at: store)
            } throws: { error in
                "\(error)".contains(store)
            }
            #expect(try Library.dump(store) == before)
        }
    }
}

/// A migration refused before its first step leaves the store's folder as it was, file for file: reading a
/// store in WAL mode makes SQLite create an empty `-wal` and a `-shm` index beside it, which must go again.
@Suite("Refused migrations leave no file behind")
struct RefusedMigrationFileTests {
    @Test(arguments: ["store is at the target", "policy unbound"])
    func theFolderIsAsItWas(reason: String) throws {
        try SampleModels.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("library.sqlite").path
            _ = try StoreGenerator(version: try ThreeVersions.v2(), dataset: Dataset(), size: 50).generate(at: path)
            let before = try DamagedStoreTests.contents(of: folder)
            #expect(before.count == 1, "a generated store in WAL mode is one file once closed")
            var mapping = try ThreeVersions.mapping()
            if reason == "policy unbound" { mapping.entityMappings[1].policy = "NoSuchPolicy" }
            let migrator = try StoreMigrator(history: ThreeVersions.history(), mappingModels: [mapping])
            if reason == "policy unbound" {
                #expect(throws: (any Error).self) { try migrator.migrateStore(at: path) }
            } else {
                #expect(try migrator.migrateStore(at: path, to: "V2").steps.isEmpty)
            }
            #expect(try DamagedStoreTests.contents(of: folder) == before)
        }
    }
}
