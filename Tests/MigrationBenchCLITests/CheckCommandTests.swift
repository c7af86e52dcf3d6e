import Foundation
import Testing

/// `check` through the built executable: findings, exit codes, JSON and reports.
@Suite("check command")
struct CheckCommandTests {
    /// The shop model's V1 → V2 renames `Review.stars` to `rating` without a renaming identifier: inferred, it
    /// fails on every review (the new required rating); its mapping model carries the stars over. The two names
    /// are not alike, so the removal of `stars` is a plain removal, not a `dataLoss` finding.
    @Test func findingsFailAndTheMappingModelFixesThem() throws {
        try Executable.withTemporaryFolder { folder in
            let bare = try Executable.run(
                ["check", "Scenarios/models/shop.yaml", "--sizes", "20", "--json"], in: folder)
            #expect(bare.status == 2, "\(bare.error)")
            let json = try bare.json()
            #expect(json["model"] as? String == "Scenarios/models/shop.yaml")
            #expect(json["current"] as? String == "V2")
            let findings = try #require(json["findings"] as? [[String: Any]])
            let review = findings.filter { $0["entity"] as? String == "Review" }
            #expect(review.map { "\($0["code"]!) \($0["property"]!)" } == ["needsValue rating"])
            for finding in findings {
                #expect(Set(finding.keys) == ["code", "severity", "from", "to", "entity", "property", "message"])
                #expect(finding["severity"] as? String == "error" && finding["from"] as? String == "V1")
            }
            let steps = try #require(json["steps"] as? [[String: Any]])
            #expect(steps.count == 1 && steps[0]["outcome"] as? String == "failed")

            let fixed = try Executable.run(
                [
                    "check", "Scenarios/models/shop.yaml", "--mapping", "Scenarios/mappings/shop-v1-v2.yaml",
                    "--sizes", "20,200", "--json",
                ], in: folder)
            #expect(fixed.status == 0, "\(fixed.error)")
            let clean = try fixed.json()
            #expect((clean["findings"] as? [Any])?.isEmpty == true)
            let ran = try #require(clean["steps"] as? [[String: Any]])
            #expect(ran.map { $0["size"] as? Int } == [20, 200])
            for step in ran {
                #expect(step["kind"] as? String == "heavyweight" && step["outcome"] as? String == "passed")
                #expect((step["mapping"] as? String)?.hasSuffix("shop-v1-v2.yaml") == true)
                #expect((step["seconds"] as? Double ?? 0) > 0)
                #expect((step["peakHeapBytes"] as? Int ?? 0) > 0, "the executable links jemalloc")
            }
        }
    }

    /// The summary line's share of overhead counts a failed migration's time as a migration's, and says none when
    /// no step ran at all (every one refused): it read 381,560,100 % and 1,116,082,600 % before.
    @Test func theOverheadShareIsAFigureOnlyOfWhatRan() throws {
        try Executable.withTemporaryFolder { folder in
            let failed = try Executable.run(["check", "Scenarios/models/shop.yaml", "--sizes", "20"], in: folder)
            #expect(failed.status == 2)
            let share = try #require(
                failed.output.split(separator: "\n").first { $0.hasPrefix("FAILED") }?.split(separator: "(").last?
                    .split(separator: "%").first.flatMap { Double($0) }, "\(failed.output)")
            // How large the share is depends on the machine's load; that a failed step counts as migration time is
            // held exactly by ModelCheckerTests.eachFindingIsReportedWhereItIs.
            #expect(share >= 0, "\(failed.output)")
            let model = folder.appendingPathComponent("model.yaml").path
            try """
            versions:
              - { name: V1, entities: [{ name: Book, attributes: [{ name: pages, type: String }] }] }
              - { name: V2, entities: [{ name: Book, attributes: [{ name: pages, type: Integer 16 }] }] }
            """.write(toFile: model, atomically: true, encoding: .utf8)
            let refused = try Executable.run(["check", model, "--sizes", "20"], in: folder)
            #expect(refused.status == 2)
            #expect(refused.output.contains("check's own overhead") && !refused.output.contains("of them)"))
        }
    }

    /// The reports: findings first, a JUnit failure per error finding.
    @Test func reportsCarryTheFindings() throws {
        try Executable.withTemporaryFolder { folder in
            let out = folder.appendingPathComponent("reports")
            let run = try Executable.run(
                ["check", "Scenarios/models/school.yaml", "--sizes", "20", "--out", out.path], in: folder)
            #expect(run.status == 2, "\(run.error)")
            #expect(run.output.contains("error: needsValue: V1 → V3: Student.fullName"), "Core Data's path: one step")
            let latest = out.appendingPathComponent("latest")
            let report =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: latest.appendingPathComponent("report.json"))) as? [String: Any]
            let check = try #require(report?["check"] as? [String: Any])
            #expect((check["findings"] as? [Any])?.count == 2)
            #expect(((report?["verdict"] as? [String: Any])?["exitCode"] as? Int) == 2)
            let junit = try String(contentsOf: latest.appendingPathComponent("junit.xml"), encoding: .utf8)
            #expect(junit.contains(#"<testsuite name="findings" tests="2" failures="2""#))
            let summary = try String(contentsOf: latest.appendingPathComponent("summary.md"), encoding: .utf8)
            #expect(summary.contains("### Findings"))
            let html = try String(contentsOf: latest.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(html.contains("Steps, version by version") && html.contains("needsValue"))
        }
    }

    /// A dataset shapes the stores: the library's makes N objects in all (a tenth of them authors) instead of
    /// N of every entity.
    @Test func aDatasetShapesTheStores() throws {
        try Executable.withTemporaryFolder { folder in
            func objects(_ extra: [String]) throws -> Int? {
                let out = folder.appendingPathComponent(UUID().uuidString)
                let run = try Executable.run(
                    ["check", "Scenarios/models/library.yaml", "--sizes", "100", "--out", out.path] + extra, in: folder)
                #expect(run.status == 0, "\(run.error)")
                let report =
                    try JSONSerialization.jsonObject(
                        with: Data(contentsOf: out.appendingPathComponent("latest/report.json"))) as? [String: Any]
                return ((report?["cells"] as? [[String: Any]])?.first)?["objects"] as? Int
            }
            let plain = try objects([])
            let shaped = try objects(["--dataset", "Scenarios/datasets/library.yaml"])
            #expect(plain == 200 && shaped == 100)
        }
    }

    @Test func aBudgetExceededExitsThreeAndBadInputOne() throws {
        try Executable.withTemporaryFolder { folder in
            let slow = try Executable.run(
                ["check", "Scenarios/models/library.yaml", "--sizes", "20", "--max-step-seconds", "0"], in: folder)
            #expect(slow.status == 3, "\(slow.error)")
            #expect(slow.output.contains("error: overTimeBudget: V1 → V2"))
            let heap = try Executable.run(
                ["check", "Scenarios/models/library.yaml", "--sizes", "20", "--max-step-heap", "1KiB"], in: folder)
            #expect(heap.status == 3 && heap.output.contains("overMemoryBudget"), "\(heap.output)")
            let missing = try Executable.run(["check", "no-such-model.yaml"], in: folder)
            #expect(
                missing.status == 1 && missing.errorLines.count == 1 && missing.error.contains("no-such-model.yaml"))
            let budget = try Executable.run(
                ["check", "Scenarios/models/library.yaml", "--max-step-seconds", "-1"], in: folder)
            #expect(budget.status == 1 && budget.error.contains("--max-step-seconds"))
            // V2 (the current version) first: no version comes before it, so nothing is migrated.
            let order = try Executable.run(
                ["check", "Scenarios/models/library.yaml", "--order", "V2", "V1", "--sizes", "10", "--json"], in: folder
            )
            #expect(order.status == 0, "\(order.error)")
            #expect((try order.json()["steps"] as? [Any])?.isEmpty == true)
            let sizes = try Executable.run(["check", "Scenarios/models/library.yaml", "--sizes", "ten"], in: folder)
            #expect(sizes.status == 1 && sizes.error.contains("--sizes"))
        }
    }
}
