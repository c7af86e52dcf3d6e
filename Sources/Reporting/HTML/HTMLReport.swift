import Mustache
public import ReportModel

/// Writes `index.html`: one self-contained page that opens offline, with the verdict, the steps, the budgets,
/// the baseline comparison, charts of time and peak heap against store size per mode, each cell's phases and
/// memory over time, and the environment.
public enum HTMLReport {
    /// The page for `report`.
    public static func render(_ report: Report) -> String {
        library.render(HTMLPage(report), withTemplate: "page") ?? ""
    }

    /// The templates, parsed once; they are constants, so a parse error is a bug that the tests catch.
    private static let library: MustacheLibrary = {
        let templates = [
            "page": HTMLTemplate.page, "style": HTMLTemplate.style, "chip": HTMLTemplate.chip,
            "cell": HTMLTemplate.cell, "chart": HTMLTemplate.chart, "budgets": HTMLTemplate.budgets,
            "check": HTMLTemplate.checkSection, "findings": HTMLTemplate.findings,
        ]
        var library = MustacheLibrary()
        for (name, text) in templates {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("the HTML template \(name) does not parse: \(error)")
            }
        }
        return library
    }()
}
