import Testing

@testable import MappingModel

/// Which expressions can be computed from the source row alone, and which of them SQLite can compute itself:
/// the engine runs a mapping inside SQLite only on these answers.
struct RowLocalExpressionTests {
    @Test(arguments: [
        ("$source.name", true),
        ("$source.name + '!'", true),
        ("lowercase($source.name) + string($source.age)", true),
        ("$source.age > 3 ? 'old' : 'young'", true),
        ("now()", true),
        ("$entityMapping.name + $source.name", true),
        ("'constant'", true),
        ("$source.editor.name", false),
        ("$source.books.@count", false),
        ("$source.editor", false),
        ("$source", false),
        ("$destination.name", false),
        ("uuidString(uuid())", false),
        (
            #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "editor", $source.editor)"#,
            false
        ),
    ])
    func readsOnlySourceAttributes(text: String, rowLocal: Bool) throws {
        #expect(try Library.compile(text).readsOnlySourceAttributes == rowLocal)
    }

    @Test(arguments: [
        ("'ISBN-' + string($source.age)", #"('ISBN-' || CAST(s.age AS TEXT))"#),
        ("$source.name + \"'s\"", #"(s.name || '''s')"#),
        ("string($source.name)", "s.name"),
        ("$source.nickname + $source.name", "(s.nickname || s.name)"),
    ])
    func textFormsBecomeSQL(text: String, sql: String) throws {
        let form = try #require(try Library.compile(text).sqlForm)
        // Slots are named by their attribute here, as the engine names them by their column.
        let names = ["name", "age", "rating", "price", "born", "active", "identifier", "photo", "site", "nickname"]
        #expect(form.sql { "s." + names[$0] } == sql)
    }

    @Test func guardsNameWhatEachColumnMustHold() throws {
        let form = try #require(try Library.compile("'ISBN-' + string($source.age) + $source.name").sqlForm)
        let names = ["name", "age"]
        #expect(
            form.guardSQL { "s." + names[$0] }
                == "typeof(s.age) IN ('integer', 'null') AND typeof(s.name) IN ('text', 'null')")
        #expect(try #require(try Library.compile("'a' + 'b'").constantValue) == .string("ab"))
    }

    @Test(arguments: [
        "lowercase($source.name)", "string($source.rating)", "$source.age + 1", "string($source.born)",
        "$source.site + 'x'", "$source.editor.name + 'x'", "'a' + 'b'",
    ])
    func othersStayInSwift(text: String) throws {
        #expect(try Library.compile(text).sqlForm == nil)
    }
}
