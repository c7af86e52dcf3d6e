import MappingModel
import ObjectModel
import Testing

/// Every compile error names the mapping, the property and the column of the offending token; run-time errors
/// name the expression and column.
struct ExpressionErrorTests {
    static let cases: [(String, MappingError.Code, Int)] = [
        // Syntax.
        ("1 +", .syntaxError, 4), ("'abc", .syntaxError, 1), ("(1 + 2", .syntaxError, 7), ("1 2", .syntaxError, 3),
        ("$source.", .syntaxError, 9), ("#", .syntaxError, 1), ("", .syntaxError, 1), ("name", .syntaxError, 1),
        (#""a\q""#, .syntaxError, 3), ("99999999999999999999", .syntaxError, 1), ("$", .syntaxError, 1),
        ("lowercase('a',)", .syntaxError, 15),
        // Names.
        ("$nope", .unknownVariable, 1), ("1 + $sauce.name", .unknownVariable, 5),
        ("$source.colour", .unknownKey, 9), ("$source.editor.colour", .unknownKey, 16),
        ("$source.name.length", .unknownKey, 14), ("$source.books.title", .unknownKey, 15),
        ("$source.cached", .unknownKey, 9), ("$entityMapping.colour", .unknownKey, 16),
        ("frobnicate(1)", .unknownFunction, 1), ("LOWERCASE('a')", .unknownFunction, 1),
        // Types.
        ("$source.name + 1", .typeMismatch, 14), ("$source.name > 1", .typeMismatch, 14),
        ("$source.active < true", .typeMismatch, 16), ("-$source.name", .typeMismatch, 1),
        ("!$source.age", .typeMismatch, 1), ("$source.age && true", .typeMismatch, 13),
        ("$source.name ? 1 : 2", .typeMismatch, 1), ("$source.active ? 1 : 'a'", .typeMismatch, 16),
        ("lowercase(1)", .typeMismatch, 11), ("substring('a', 'b', 1)", .typeMismatch, 16),
        ("count($source.name)", .typeMismatch, 7), ("dateString('x')", .typeMismatch, 12),
        ("min('a', 1)", .typeMismatch, 1), ("coalesce('a', 1)", .typeMismatch, 15), ("$manager", .typeMismatch, 1),
        ("$source.born * 2", .typeMismatch, 14),
        // Arity.
        ("lowercase('a', 'b')", .wrongArgumentCount, 1), ("now(1)", .wrongArgumentCount, 1),
        ("coalesce(1)", .wrongArgumentCount, 1), ("TERNARY(true, 1)", .wrongArgumentCount, 1),
        (#"FUNCTION($entityPolicy, "shout:with:", 1)"#, .wrongArgumentCount, 1),
        (
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook")"#,
            .wrongArgumentCount, 1
        ),
        // Core Data forms.
        (#"FUNCTION($source, "frobnicate:", 1)"#, .unknownSelector, 19),
        (
            #"FUNCTION($manager, "sourceInstancesForEntityMappingNamed:destinationInstances:", "X", $source)"#,
            .unknownSelector, 20
        ),
        (#"FUNCTION($source.name, "reversedString")"#, .unknownSelector, 24),
        (#"FUNCTION($source, "valueForKey:", "colour")"#, .unknownKey, 36),
        (#"FUNCTION($source, "valueForKeyPath:", "editor.colour")"#, .unknownKey, 47),
        (#"FUNCTION($source, $source.name)"#, .typeMismatch, 19),
        (
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NoSuchMapping", $source.books)"#,
            .unknownEntityMapping, 82
        ),
        (
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.editor)"#,
            .typeMismatch, 96
        ),
        (
            #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "owner", $source.editor)"#,
            .unknownKey, 87
        ),
        // Constants that fail.
        ("date('yesterday')", .invalidConstant, 1), ("1 / 0", .invalidConstant, 3),
        ("integer('x')", .invalidConstant, 1),
    ]

    @Test(arguments: cases)
    func isRefused(text: String, code: MappingError.Code, column: Int) {
        #expect {
            _ = try Library.compile(text)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            #expect(error.code == code, "\(text): \(error)")
            #expect(error.column == column, "\(text): \(error)")
            #expect(error.mapping == "AuthorToAuthor" && error.property == "name")
            #expect(error.description.hasPrefix("mapping 'AuthorToAuthor', property 'name': column \(column): "))
            return true
        }
    }

    @Test(arguments: [
        ("$destination.name == nil", MappingError.Code.unknownVariable, 1), ("$source.name", .typeMismatch, 1),
    ])
    func filtersAreBooleansOverTheSource(text: String, code: MappingError.Code, column: Int) {
        #expect {
            _ = try Library.compile(text, purpose: .filter, property: "filter")
        } throws: { error in
            let error = error as? MappingError
            return error?.code == code && error?.column == column && error?.property == "filter"
        }
    }

    @Test func policiesAndSourcesMustExist() {
        let noPolicy = EntityMapping(
            name: "Plain", kind: .transform, sourceEntity: "Author", destinationEntity: "Author")
        #expect(throws: MappingError.self) {
            _ = try Library.compile(#"FUNCTION($entityPolicy, "shout:", 1)"#, mapping: noPolicy)
        }
        let add = EntityMapping(name: "AddAuthor", kind: .add, sourceEntity: nil, destinationEntity: "Author")
        #expect {
            _ = try Library.compile("$source.name", mapping: add)
        } throws: { error in
            (error as? MappingError)?.code == .unknownVariable
        }
    }

    @Test(arguments: [
        ("$source.name", AttributeType.integer32), ("$source.age", .string), ("$source.books", .integer64),
        ("$source.born", .double), ("now()", .uuid),
    ])
    func attributeValuesMustFit(text: String, type: AttributeType) {
        #expect {
            _ = try Library.compile(text, purpose: .attribute(type))
        } throws: { error in
            (error as? MappingError)?.code == .typeMismatch
        }
    }

    @Test(arguments: ["$source.editor", "$source.name", "$destination", "$source.books"])
    func relationshipsNeedDestinationInstancesOfTheirEntity(text: String) throws {
        let version = try Library.version("V2")
        let toOne = try #require(version.relationship("editor", of: "Author"))
        #expect {
            _ = try Library.compile(
                text == "$destination" ? "$destination" : text,
                purpose: .relationship(text == "$destination" ? toOne.with(destination: "Book") : toOne))
        } throws: { error in
            (error as? MappingError)?.code == .typeMismatch
        }
    }

    @Test(arguments: [
        ("$source.age / 0", 13, "division by zero"), ("$source.age % ($source.age - 36)", 13, "division by zero"),
        ("date($source.name)", 1, "'Ada' is not an ISO 8601 date"),
        ("integer($source.name)", 1, "'Ada' is not an integer"),
        ("$source.age * 9223372036854775807", 13, "integer overflow"),
    ])
    func runtimeErrorsNameTheExpressionAndColumn(text: String, column: Int, message: String) throws {
        let expression = try Library.compile(text)
        #expect {
            _ = try expression.evaluate(in: StubContext())
        } throws: { error in
            guard let error = error as? EvaluationError else { return false }
            #expect(error.column == column && error.expression == text && error.message.hasPrefix(message), "\(error)")
            #expect(
                error.description
                    == "mapping 'AuthorToAuthor', property 'name': column \(column): \(error.message) in '\(text)'")
            return true
        }
    }

    @Test func valuesThatDoNotFitTheDestinationWidthFailAtRunTime() throws {
        let expression = try Library.compile("$source.age * 10000", purpose: .attribute(.integer16))
        #expect(throws: EvaluationError.self) { _ = try expression.evaluate(in: StubContext()) }
    }
}

extension Relationship {
    fileprivate func with(destination: String) -> Relationship {
        var copy = self
        copy.destination = destination
        return copy
    }
}

/// Expressions past the documented length and depth are refused with a syntax error instead of overflowing the
/// stack while they are parsed, compiled or evaluated (3,000 terms and deep parentheses used to crash).
struct ExpressionLimitTests {
    static let hostile: [(label: String, text: String)] = [
        ("3,000 terms", Array(repeating: "$source.age", count: 3_000).joined(separator: " + ")),
        ("10,000 parentheses", String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)),
        ("5,000 negations", String(repeating: "-", count: 5_000) + "1"),
        ("101 nested calls", String(repeating: "abs(", count: 101) + "1" + String(repeating: ")", count: 101)),
        ("20,000 characters", "'" + String(repeating: "a", count: 20_000) + "'"),
    ]

    @Test(arguments: hostile)
    func isRefusedWithoutCrashing(label: String, text: String) {
        #expect {
            _ = try Library.compile(text, purpose: .attribute(.integer64))
        } throws: { error in
            guard let error = error as? MappingError, error.code == .syntaxError else { return false }
            return error.message.contains("limit") || error.message.contains("nests deeper")
        }
    }

    @Test func expressionsWithinTheLimitsStillCompileAndRun() throws {
        let terms = Array(repeating: "$source.age", count: 50).joined(separator: " + ")
        let nested = String(repeating: "(", count: 60) + "$source.age" + String(repeating: ")", count: 60)
        for text in [terms, nested] {
            let expression = try Library.compile(text, purpose: .attribute(.integer64))
            _ = try expression.evaluate(in: StubContext())
        }
    }
}
