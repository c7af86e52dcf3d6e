import Foundation
import SQLiteDatabase
import TestFixtures
import Testing

/// `migration-bench verify` end to end: a generated store migrated by the engine, verified clean, damaged,
/// verified again; exit codes 0, 2 and 1.
@Suite("migration-bench verify")
struct VerifyCommandTests {
    static let model = "Scenarios/models/library.yaml"
    static let mapping = "Scenarios/mappings/library-v1-v2.yaml"

    @Test func verifyReportsCleanThenDamagedStores() throws {
        try Executable.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let destination = folder.appendingPathComponent("v2.sqlite").path
            let generate = try Executable.run(
                [
                    "generate", "--model", Self.model, "--version", "V1", "--dataset",
                    "Scenarios/datasets/library.yaml",
                    "--size", "500", "--output", source,
                ], in: folder)
            #expect(generate.status == 0, "\(generate.error)")
            let migrate = try Executable.run(
                [
                    "benchmark", "migration-cell", "--source", source, "--model", Self.model, "--from", "V1", "--to",
                    "V2", "--mode", "streaming", "--mapping", Self.mapping, "--output", destination, "--repetitions",
                    "3",
                ], in: folder)
            #expect(migrate.status == 0, "\(migrate.error)")
            // Three runs in one process, each into a new --output (the last one kept, and verified below).
            let cell = try migrate.json()
            let runs = try #require(cell["runs"] as? [[String: Any]])
            let seconds = runs.compactMap { $0["seconds"] as? Double }.sorted()
            #expect(runs.count == 3 && seconds.count == 3 && cell["seconds"] as? Double == seconds[1])
            #expect(
                runs.allSatisfy { $0["objectCount"] as? Int == cell["objectCount"] as? Int }
                    && cell["objectCount"] as? Int == 500)
            let arguments = [
                "verify", "--source", source, "--destination", destination, "--model", Self.model, "--mapping",
                Self.mapping, "--json",
            ]

            let clean = try Executable.run(arguments, in: folder)
            #expect(clean.status == 0, "\(clean.output)\(clean.error)")
            let report = try clean.json()
            #expect(report["passed"] as? Bool == true)
            #expect((report["violations"] as? [Any])?.isEmpty == true)
            #expect((report["notChecked"] as? [Any])?.isEmpty == true)
            #expect(report["seconds"] is Double)
            #expect(report.keys.contains("peakHeapBytes"))

            let connection = try Connection(path: destination, mode: .readWrite)
            try connection.execute("UPDATE ZBOOK SET ZISBN = 'ISBN-?' WHERE Z_PK IN (3, 4)")
            let damaged = try Executable.run(arguments, in: folder)
            #expect(damaged.status == 2, "\(damaged.error)")
            let groups = try #require(try damaged.json()["violations"] as? [[String: Any]])
            #expect(groups.count == 1)
            #expect(groups.first?["kind"] as? String == "attributeValue")
            #expect(groups.first?["entity"] as? String == "Book")
            #expect(groups.first?["property"] as? String == "isbn")
            #expect(groups.first?["count"] as? Int == 2)
            let examples = try #require(groups.first?["examples"] as? [[String: Any]])
            #expect(examples.map { $0["primaryKey"] as? Int } == [3, 4])

            let text = try Executable.run(Array(arguments.dropLast()), in: folder)
            #expect(text.status == 2)
            #expect(text.output.contains("attributeValue Book.isbn: 2") && text.output.contains("FAILED"))

            let missing = try Executable.run(
                ["verify", "--source", source, "--destination", folder.appendingPathComponent("none.sqlite").path]
                    + ["--model", Self.model], in: folder)
            #expect(missing.status == 1)
            #expect(missing.errorLines.count == 1, "\(missing.error)")
        }
    }

    /// A check that fails to run — here `PRAGMA integrity_check`, stopped by a required generated column whose
    /// `abs()` overflows — was listed as not checked and `verify` passed, exit 0: it is a checkFailed
    /// violation naming the check and the SQL error, exit 2.
    @Test func aCheckThatFailsToRunIsExitCode2() throws {
        try Executable.withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("v1.sqlite").path
            let destination = folder.appendingPathComponent("v2.sqlite").path
            let generate = try Executable.run(
                ["generate", "--model", Self.model, "--version", "V1", "--size", "50", "--output", source], in: folder)
            try #require(generate.status == 0, "\(generate.error)")
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            let migrate = try Executable.run(
                ["migrate", destination, "--model", Self.model, "--mapping", Self.mapping], in: folder)
            try #require(migrate.status == 0, "\(migrate.error)")
            try Connection(path: destination, mode: .readWrite).execute(
                "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = substr(sql, 1, length(sql) - 1) "
                    + "|| ', ZBROKEN INTEGER NOT NULL AS (abs(-9223372036854775807 - 1 + Z_PK * 0)))' "
                    + "WHERE name = 'ZAUTHOR'; PRAGMA writable_schema = OFF")
            let run = try Executable.run(
                [
                    "verify", "--source", source, "--destination", destination, "--model", Self.model, "--mapping",
                    Self.mapping, "--json",
                ], in: folder)
            #expect(run.status == 2, "\(run.output)\(run.error)")
            let groups = try #require(try run.json()["violations"] as? [[String: Any]])
            let failed = try #require(groups.first { $0["kind"] as? String == "checkFailed" }, "\(groups)")
            let detail = (failed["examples"] as? [[String: Any]])?.first?["detail"] as? String ?? ""
            #expect(detail.hasPrefix("the integrityCheck check failed to run: ") && detail.contains("integer overflow"))
        }
    }
}

/// A source store whose `-wal` belongs to another database is an integrity failure of that store (exit 2), also
/// when the foreign log makes it unreadable: CoreDataPlus's V1 store beside the log of wibosco's store.
@Suite("migration-bench verify, a source with a foreign -wal")
struct VerifyForeignLogTests {
    @Test func aForeignLogMakingTheSourceUnreadableIsAnIntegrityFailure() throws {
        let store = Fixtures.coreDataPlus.appendingPathComponent("SampleModel/Fixtures/SampleModel_V1.sqlite")
        let model = Fixtures.coreDataPlus.appendingPathComponent("SampleModel/SampleModel.xcdatamodeld").path
        try Fixtures.withStoreCopy(at: store) { source in
            let destination = source.deletingLastPathComponent().appendingPathComponent("copy.sqlite")
            try FileManager.default.copyItem(at: source, to: destination)
            let log = Fixtures.root.appendingPathComponent("stores/CoreDataMigration_Example_WAL.sqlite-wal")
            try FileManager.default.copyItem(atPath: log.path, toPath: source.path + "-wal")
            let run = try Executable.run(
                ["verify", "--source", source.path, "--destination", destination.path, "--model", model],
                in: source.deletingLastPathComponent())
            #expect(run.status == 2, "\(run.output)\(run.error)")
            #expect(run.errorLines.count == 1 && run.errorLines[0].contains("-wal"), "\(run.error)")
        }
    }
}

/// The command line's way to a Swift policy's declaration: `makes` in the binding file. A store migrated with the
/// built-in split (standing in for the app's Post2ToPost3MigrationPolicy, as Core Data would have run it) verifies
/// clean against the declaration, and against a binding that declares nothing its colours are unexpected.
@Suite("migration-bench verify, a policy's declaration in the binding file")
struct VerifyDeclaredPolicyTests {
    @Test func declaredColoursAreCheckedUndeclaredOnesUnexpected() throws {
        try Executable.withTemporaryFolder { folder in
            let model = Executable.fixtures.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path
            let mapping = Executable.fixtures.appendingPathComponent("Mappings/Migration2to3.xcmappingmodel").path
            let source = folder.appendingPathComponent("v2.sqlite").path
            let destination = folder.appendingPathComponent("v3.sqlite").path
            let dataset = folder.appendingPathComponent("dataset.yaml").path
            try "attributes:\n  Post.hexColor: { nullRatio: 0 }\n".write(
                toFile: dataset, atomically: true, encoding: .utf8)
            let generate = try Executable.run(
                [
                    "generate", "--model", model, "--version", "CoreDataMigration_Example 2", "--size", "40",
                    "--dataset", dataset, "--output", source,
                ], in: folder)
            #expect(generate.status == 0, "\(generate.error)")
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            let migrate = try Executable.run(
                [
                    "migrate", destination, "--model", model, "--to", "CoreDataMigration_Example 3", "--policies",
                    "Scenarios/policies/CoreDataMigration_Example.yaml",
                ], in: folder)
            #expect(migrate.status == 0, "\(migrate.error)")
            let declared = folder.appendingPathComponent("declared.yaml").path
            try """
            policies:
              Post2ToPost3MigrationPolicy:
                makes:
                  - { entity: Color, relationship: color, from: hexColor, attribute: hex, identifier: colorID }
            """.write(toFile: declared, atomically: true, encoding: .utf8)
            let silent = folder.appendingPathComponent("silent.yaml").path
            try "policies:\n  Post2ToPost3MigrationPolicy: Post2ToPost3MigrationPolicy\n".write(
                toFile: silent, atomically: true, encoding: .utf8)
            func verify(_ policies: String) throws -> Executable.Run {
                try Executable.run(
                    [
                        "verify", "--source", source, "--destination", destination, "--model", model, "--mapping",
                        mapping, "--policies", policies, "--json",
                    ], in: folder)
            }
            let clean = try verify(declared)
            #expect(clean.status == 0, "\(clean.output)\(clean.error)")
            #expect((try clean.json()["notChecked"] as? [Any])?.isEmpty == true, "\(clean.output)")
            let flagged = try verify(silent)
            #expect(flagged.status == 2, "\(flagged.output)\(flagged.error)")
            let groups = try #require(try flagged.json()["violations"] as? [[String: Any]])
            #expect(groups.map { $0["kind"] as? String } == ["unexpectedObject"])
            #expect(groups.first?["entity"] as? String == "Color" && groups.first?["count"] as? Int == 40)
        }
    }
}
