import Foundation
import Testing

/// `plan` lists a lightweight step's changes, warning of data Core Data would lose; `migrate` fails a step
/// whose new required value existing objects lack, as Core Data's 134110 does, and leaves the store as it was.
@Suite("Lightweight changes in plan and migrate")
struct LightweightPlanTests {
    /// V2 renames `Note.title` to `heading`, replaces `body` by `text` without a renaming identifier (data
    /// loss) and adds a required `code` without a default value.
    static let model = """
        currentVersion: V2
        versions:
          - name: V1
            entities:
              - name: Note
                attributes:
                  - { name: title, type: String }
                  - { name: body, type: String, optional: true }
          - name: V2
            entities:
              - name: Note
                attributes:
                  - { name: heading, type: String, renamingIdentifier: title }
                  - { name: text, type: String, optional: true }
                  - { name: code, type: String }
        """

    @Test func planListsChangesAndMigrateFailsOnTheFirstObjectWithoutAValue() throws {
        try Executable.withTemporaryFolder { folder in
            let model = folder.appendingPathComponent("notes.yaml").path
            try Self.model.write(toFile: model, atomically: true, encoding: .utf8)
            let store = folder.appendingPathComponent("notes.sqlite").path
            let generate = try Executable.run(
                ["generate", "--model", model, "--version", "V1", "--size", "10", "--output", store], in: folder)
            try #require(generate.status == 0, "\(generate.error)")

            let plan = try Executable.run(["plan", store, "--model", model, "--json"], in: folder)
            #expect(plan.status == 0, "\(plan.error)")
            let steps = try #require(try plan.json()["steps"] as? [[String: Any]])
            let changes = try #require(steps.first?["changes"] as? [[String: Any]])
            func listed(_ property: String, _ change: String) -> Bool {
                changes.contains {
                    $0["entity"] as? String == "Note" && $0["property"] as? String == property
                        && $0["change"] as? String == change && !(($0["detail"] as? String) ?? "").isEmpty
                }
            }
            // `body` and `text` are not alike: a deliberate removal beside an addition, not a likely rename.
            #expect(listed("heading", "renamed") && listed("body", "removed") && listed("text", "added"))
            #expect(listed("code", "needsValue"), "\(changes)")
            let text = try Executable.run(["plan", store, "--model", model], in: folder)
            #expect(text.output.contains("warning: Note.code: needsValue:"), "\(text.output)")
            #expect(!text.output.contains("dataLoss"), "\(text.output)")

            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            let migrate = try Executable.run(["migrate", store, "--model", model], in: folder)
            #expect(migrate.status == 1)
            #expect(
                migrate.error.contains(
                    "Cannot migrate store in-place: Validation error missing attribute values on mandatory destination "
                        + "attribute (entity=Note, attribute=code)"), "\(migrate.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!files.contains { $0.contains(".migrating-") }, "\(files)")
        }
    }
}
