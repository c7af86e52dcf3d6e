import Testing

@testable import Reporting

@Suite("HTML templates")
struct TemplateTests {
    static let templates = [
        HTMLTemplate.page, HTMLTemplate.cell, HTMLTemplate.chart, HTMLTemplate.chip, HTMLTemplate.budgets,
        HTMLTemplate.checkSection, HTMLTemplate.style,
    ]

    /// `{{{name}}}` and `{{& name}}` would write a value without escaping it.
    @Test(arguments: templates)
    func everyValueIsEscaped(template: String) {
        #expect(!template.contains("{{{"))
        #expect(!template.contains("{{&"))
    }

    /// The page must open offline and run nothing.
    @Test(arguments: templates)
    func noScriptAndNoExternalResource(template: String) {
        for forbidden in ["<script", "http:", "https:", "@import", "url("] {
            #expect(!template.contains(forbidden), "\(forbidden)")
        }
    }
}
