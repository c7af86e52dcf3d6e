import Foundation
import MappingModel
import ObjectModel
import Testing

/// Every form of the language parses, type-checks and evaluates to the expected value.
struct ExpressionEvaluationTests {
    static let books = StubContext.books.map {
        ObjectID(side: .destination, entity: 2, primaryKey: $0.primaryKey + 100)
    }
    static let editor = ObjectID(side: .destination, entity: 1, primaryKey: 102)

    static let cases: [(String, ExpressionValue)] = [
        // Literals.
        ("42", .integer(42)), ("1.5", .double(1.5)), ("2e3", .double(2000)), (#""a\"b\\c\nd""#, .string("a\"b\\c\nd")),
        ("'single'", .string("single")), ("true", .boolean(true)), ("YES", .boolean(true)), ("NO", .boolean(false)),
        ("false", .boolean(false)), ("nil", .null),
        // Variables and key paths.
        ("$source.name", .string("Ada")), ("$source.nickname", .null), ("$source.editor.name", .string("Charles")),
        ("$source.editor.editor.name", .null), ("$source.books", .objects(StubContext.books)),
        ("$source.books.@count", .integer(2)), ("$source", .object(StubContext.ada)),
        ("$destination.name", .string("Ada L.")), ("$entityMapping", .string("AuthorToAuthor")),
        ("$entityMapping.name", .string("AuthorToAuthor")), ("$entityMapping.sourceEntityName", .string("Author")),
        ("$entityMapping.userInfo.origin", .string("tests")), ("$propertyMapping", .string("name")),
        ("$propertyMapping.userInfo.hint", .string("full name")),
        // Arithmetic.
        ("$source.age + 1", .integer(37)), ("$source.age - 40", .integer(-4)), ("$source.age * 2.5", .double(90)),
        ("$source.age / 5", .integer(7)), ("$source.age % 5", .integer(1)), ("$source.rating / 2", .double(2.25)),
        ("-$source.age", .integer(-36)), ("2 + 3 * 4", .integer(14)), ("(2 + 3) * 4", .integer(20)),
        ("$source.price + 1", .decimal("3.5")), ("$source.price * 2", .decimal("5")),
        ("$source.age + nil", .null), ("$source.born + 10", .date(-4_999_999_990)),
        ("now() - $source.born", .double(5_700_000_000)),
        // Comparison and logic.
        ("$source.age > 30", .boolean(true)), ("$source.age = 36", .boolean(true)),
        ("$source.age == 36.0", .boolean(true)),
        ("$source.name != 'Bob'", .boolean(true)), ("$source.age <= 35", .boolean(false)),
        ("$source.age >= 36", .boolean(true)), ("$source.age < 40", .boolean(true)),
        ("$source.born < now()", .boolean(true)), ("$source.nickname == nil", .boolean(true)),
        ("$source.age < nil", .boolean(false)), ("$source.active && $source.age > 3", .boolean(true)),
        ("NOT $source.active OR false", .boolean(false)), ("!$source.active || true", .boolean(true)),
        ("$source.active AND NOT false", .boolean(true)), ("$source.editor == $source.editor", .boolean(true)),
        // Strings and conditionals.
        ("$source.name + ' Lovelace'", .string("Ada Lovelace")),
        ("$source.site + '/x'", .string("https://example.org/x")),
        ("$source.age > 30 ? 'old' : 'young'", .string("old")), ("TERNARY($source.active, 1, 2.5)", .double(1)),
        ("$source.nickname == nil ? $source.name : $source.nickname", .string("Ada")),
        // The function library.
        ("lowercase($source.name)", .string("ada")), ("uppercase($source.name)", .string("ADA")),
        ("trim('  x y  ')", .string("x y")), ("substring('abcdef', 1, 3)", .string("bcd")),
        ("substring('abc', 2, 10)", .string("c")), ("length($source.name)", .integer(3)),
        ("contains($source.name, 'd')", .boolean(true)), ("hasPrefix($source.name, 'Ad')", .boolean(true)),
        ("hasSuffix($source.name, 'x')", .boolean(false)), ("replace($source.name, 'A', 'E')", .string("Eda")),
        ("string($source.age)", .string("36")), ("string(1.5)", .string("1.5")), ("string(true)", .string("true")),
        ("string($source.identifier)", .string(Library.uuid.uuidString)), ("string($source.photo)", .string("AQID")),
        ("integer('12')", .integer(12)), ("integer(3.9)", .integer(3)), ("integer($source.active)", .integer(1)),
        ("double('2.5')", .double(2.5)), ("double($source.age)", .double(36)), ("boolean('yes')", .boolean(true)),
        ("boolean(0)", .boolean(false)), ("date('2001-01-02T00:00:00Z')", .date(86400)),
        ("date('2001-01-03')", .date(172_800)),
        ("date(60)", .date(60)), ("date('90.5')", .date(90.5)),
        ("dateString(date(0))", .string("2001-01-01T00:00:00Z")),
        ("dateString(date(0.25))", .string("2001-01-01T00:00:00.250Z")), ("uuid()", .uuid(Library.uuid)),
        ("uuid('\(Library.uuid.uuidString)')", .uuid(Library.uuid)),
        ("uuidString($source.identifier)", .string(Library.uuid.uuidString)), ("now()", .date(700_000_000)),
        ("coalesce($source.nickname, nil, $source.name)", .string("Ada")), ("coalesce(nil, 2, 3.5)", .double(2)),
        ("abs(-3)", .integer(3)), ("abs(-$source.rating)", .double(4.5)), ("round(2.5)", .double(3)),
        ("round($source.price)", .decimal("3")), ("min(3, 2.5)", .double(2.5)), ("max($source.age, 40)", .integer(40)),
        ("min('b', 'a')", .string("a")), ("count($source.books)", .integer(2)), ("count($source.editor)", .integer(1)),
        // Core Data's FUNCTION forms.
        (#"FUNCTION($source, "valueForKey:", "name")"#, .string("Ada")),
        (#"FUNCTION($source, "valueForKeyPath:", "editor.name")"#, .string("Charles")),
        (#"FUNCTION($source.editor, "valueForKey:", "name")"#, .string("Charles")),
        (
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)"#,
            .objects(books)
        ),
        (
            #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "editor", $source.editor)"#,
            .object(editor)
        ),
        (#"FUNCTION($entityPolicy, "shout:", $source.name)"#, .string("ADA!")),
        (#"FUNCTION($source.name, "lowercaseString")"#, .string("ada")),
        (#"FUNCTION($source.name, "uppercaseString")"#, .string("ADA")),
        (#"FUNCTION($source.name, "length")"#, .integer(3)),
        (#"FUNCTION('a', "stringByAppendingString:", 'b')"#, .string("ab")),
        (#"FUNCTION('12', "integerValue")"#, .integer(12)),
    ]

    @Test(arguments: cases)
    func evaluates(text: String, expected: ExpressionValue) throws {
        let expression = try Library.compile(text)
        #expect(try expression.evaluate(in: StubContext()) == expected, "\(text)")
        #expect(expression.text == text)
    }

    @Test(arguments: [
        ("$source.age", ExpressionType.integer), ("$source.price", .decimal), ("$source.age + 1.5", .double),
        ("$source.books", .objects("Book", .source)), ("$source.editor", .object("Author", .source)),
        (#"FUNCTION($entityPolicy, "shout:", 1)"#, .any), ("nil", .null), ("$source.site", .uri),
        (
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)"#,
            .objects("Book", .destination)
        ),
    ])
    func staticTypes(text: String, type: ExpressionType) throws {
        #expect(try Library.compile(text).type == type)
    }

    @Test func constantsAreFoldedOnce() throws {
        #expect(
            try Library.compile("dateString(date('2001-01-01')) + '!'").constantValue
                == .string("2001-01-01T00:00:00Z!"))
        #expect(try Library.compile("1 + 2 * 3").constantValue == .integer(7))
        #expect(try Library.compile("false && $source.active").constantValue == .boolean(false))
        #expect(try Library.compile("$source.age + 1").constantValue == nil)
        #expect(try Library.compile("uuid()").constantValue == nil)
    }

    @Test func shortCircuitSkipsTheRightSide() throws {
        let context = try StubContext()
        let expression = try Library.compile(#"$source.active || FUNCTION($entityPolicy, "shout:", 'x') == 'X!'"#)
        #expect(try expression.evaluate(in: context) == .boolean(true))
        #expect(context.policyCalls.isEmpty)
    }

    @Test func destinationAttributesGetTheirType() throws {
        let context = try StubContext()
        let toDouble = try Library.compile("$source.age", purpose: .attribute(.double))
        #expect(try toDouble.evaluate(in: context) == .double(36))
        #expect(toDouble.type == .double)
        let toDecimal = try Library.compile("$source.rating", purpose: .attribute(.decimal))
        #expect(try toDecimal.evaluate(in: context) == .decimal("4.5"))
        let toURI = try Library.compile("'https://a.b'", purpose: .attribute(.uri))
        #expect(try toURI.evaluate(in: context) == .uri("https://a.b"))
        let filter = try Library.compile("$source.age > 18", purpose: .filter, property: "filter")
        #expect(try filter.isSatisfied(in: context))
    }

    @Test func toManyRelationshipsGetCollections() throws {
        let version = try Library.version("V2")
        let books = try #require(version.relationship("books", of: "Author"))
        let expression = try Library.compile(
            #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "editor", $source.editor)"#,
            purpose: .relationship(try #require(version.relationship("editor", of: "Author"))))
        #expect(try expression.evaluate(in: StubContext()) == .object(Self.editor))
        let wrapped = try Library.compile(
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "AuthorToAuthor", $source.editor)"#,
            purpose: .relationship(books.withDestination("Author")))
        #expect(try wrapped.evaluate(in: StubContext()) == .objects([Self.editor]))
    }
}

extension Relationship {
    fileprivate func withDestination(_ entity: String) -> Relationship {
        var copy = self
        copy.destination = entity
        return copy
    }
}
