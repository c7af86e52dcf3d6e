import Foundation
package import ObjectModel

/// Expression text written for the forms Core Data's own mapping models use, so that the mapping reader, the
/// inference, the validation and the verifier write each form one way.
package enum ExpressionText {
    /// `text` as a string literal of the expression language: in double quotes, with `\`, `"` and line
    /// breaks escaped (``ExpressionLexer`` reads them back).
    package static func literal(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// `value` as a literal of the expression language; nil for binary data and non-finite numbers, which have
    /// none.
    package static func literal(_ value: AttributeValue) -> String? {
        switch value {
        case .integer(let number): String(number)
        case .double(let number): number.isFinite ? "\(number)" : nil
        case .decimal(let digits): digits
        case .boolean(let flag): flag ? "true" : "false"
        case .string(let text), .uri(let text): literal(text)
        case .date(let seconds): "date(\(seconds))"
        case .uuid(let uuid): "uuid(\(literal(uuid.uuidString)))"
        case .binary: nil
        }
    }

    /// Core Data's copy of the source relationship `relationship`, through whichever entity mappings made its
    /// destinations: `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
    /// "author", $source.author)`.
    package static func relationshipCopy(_ relationship: String) -> String {
        "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", "
            + "\(literal(relationship)), $source.\(relationship))"
    }

    /// The copy of the source relationship `relationship` through the entity mapping `entityMapping` alone:
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "AuthorToAuthor",
    /// $source.author)`.
    package static func relationshipCopy(_ relationship: String, entityMapping: String) -> String {
        "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", "
            + "\(literal(entityMapping)), $source.\(relationship))"
    }
}
