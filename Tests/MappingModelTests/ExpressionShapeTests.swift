import Testing

@testable import MappingModel

/// The compiler tells what an expression is from its syntax, whatever its spacing — never from its text.
struct ExpressionShapeTests {
    @Test(arguments: [
        ("$source.name", ExpressionShape.sourceKeyPath(["name"])),
        ("  $source . editor.name ", .sourceKeyPath(["editor", "name"])),
        ("'Anonymous'", .constant(.string("Anonymous"))),
        ("1 + 2 * 3", .constant(.integer(7))),
        ("$source.name + '!'", .general),
        ("lowercase($source.name)", .general),
        ("$source", .general),
        (
            #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "editor", $source.editor)"#,
            .relationshipCopy(relationship: "editor", entityMapping: nil)
        ),
        (
            #"FUNCTION( $manager ,"destinationInstancesForEntityMappingNamed:sourceInstances:","BookToBook",$source.books )"#,
            .relationshipCopy(relationship: "books", entityMapping: "BookToBook")
        ),
        (
            #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "editor", $source.editor.editor)"#,
            .general
        ),
    ])
    func shapeOf(text: String, shape: ExpressionShape) throws {
        #expect(try Library.compile(text).shape == shape)
    }

    @Test func onlyOneKeyNamesASourceProperty() throws {
        #expect(try Library.compile("$source.name").shape.sourceProperty == "name")
        #expect(try Library.compile("$source.editor.name").shape.sourceProperty == nil)
        #expect(try Library.compile("'x'").shape.sourceProperty == nil)
    }
}
