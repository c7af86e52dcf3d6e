import Foundation
import ReportModel
import Reporting
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// User text (scenario descriptions, failures, violation examples, file names) must never reach a writer's
/// output as markup.
@Suite("Escaping")
struct EscapingTests {
    let report = SampleReport.report

    @Test func htmlEscapesUserText() {
        let html = HTMLReport.render(report)
        #expect(!html.contains("<script"), "no script element, neither ours nor the report's")
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; | pipes."))
        #expect(html.contains("Shop: Customer &amp; &quot;Address&quot; split"))
        #expect(!html.contains("{{"), "every template tag was rendered")
    }

    @Test func htmlIsSelfContained() {
        let html = HTMLReport.render(report)
        for external in ["http://", "https://", "src=", "@import", "url("] {
            #expect(!html.contains(external), "\(external) would load something from outside the file")
        }
    }

    @Test func unavailableHeapReadsUnavailableNeverZero() {
        let html = HTMLReport.render(report)
        // The verdict row of the cell without jemalloc, and its phases.
        #expect(html.contains(#"<td class="num muted">unavailable</td>"#))
    }

    @Test func junitIsWellFormedAndEscaped() throws {
        let xml = JUnitReport.render(report)
        #expect(!xml.contains("<script"))
        #expect(xml.contains("&lt;script&gt;"))
        #if canImport(FoundationXML) || canImport(Darwin)
            let document = try XMLDocument(data: Data(xml.utf8))
            let suites = try document.nodes(forXPath: "/testsuites/testsuite")
            #expect(suites.count == 2)
            let cases = try document.nodes(forXPath: "//testcase")
            #expect(cases.count == report.cells.count)
            #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
            #expect(try document.nodes(forXPath: "//testcase/failure").count >= 3)
        #endif
    }

    @Test func markdownTableCellsEscapePipesAndLineBreaks() {
        let summary = MarkdownSummary.render(report)
        // Every row of a table has as many column separators (unescaped pipes) as the table's header.
        var columns: Int?
        for line in summary.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            let separators = zip(line, [" "] + line.dropLast()).count { $0 == "|" && $1 != "\\" }
            #expect(separators == (columns ?? separators), "\(line)")
            columns = columns ?? separators
        }
        #expect(summary.contains(#"during "pass 2" \| out of memory?<br>the kernel's OOM killer chose it"#))
        #expect(summary.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co \\| x"))
    }
}
