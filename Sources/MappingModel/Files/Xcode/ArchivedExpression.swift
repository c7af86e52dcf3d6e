import Foundation
import ObjectModel

/// Turns an archived NSExpression (Xcode's `valueexpressiondata`, a `.cdm`'s `NSValueExpression`) into the text
/// of our expression language, as `shared/formats/xcmappingmodel.md` §7.2 describes: `$source.color`,
/// `"text"`, `2`, `YES`, `FUNCTION($manager, "selector:", …)`.
struct ArchivedExpression {
    let archive: KeyedArchive
    private static let maximumDepth = 64

    /// The text of the expression at `value` (by default the archive's root).
    func text(_ value: PropertyListValue? = nil, depth: Int = 0) throws(PropertyListError) -> String {
        guard depth < Self.maximumDepth else {
            throw PropertyListError(message: "the expression is nested more than \(Self.maximumDepth) deep")
        }
        guard let object = try archive.object(value ?? archive.root) else { return "nil" }
        switch object.className {
        case "NSConstantValueExpression":
            return try constant(object["NSConstantValue"])
        case "NSSelfExpression":
            return "SELF"
        case "NSVariableExpression":
            guard let name = try archive.string(object["NSVariable"]), !name.isEmpty else {
                throw PropertyListError(message: "an NSVariableExpression has no NSVariable")
            }
            return "$" + name
        case "NSKeyPathSpecifierExpression":
            return try keyPath(object)
        case "NSKeyPathExpression", "NSFunctionExpression":
            let selector = try archive.string(object["NSSelectorName"]) ?? ""
            let arguments = try archive.array(object["NSArguments"])
            let operand = try archive.object(object["NSOperand"])
            if selector == "valueForKeyPath:" || selector == "valueForKey:", arguments.count == 1,
                let specifier = try archive.object(arguments[0]), specifier.className == "NSKeyPathSpecifierExpression"
            {
                let path = try keyPath(specifier)
                if operand == nil || operand?.className == "NSSelfExpression" { return path }
                return try text(object["NSOperand"], depth: depth + 1) + "." + path
            }
            guard !selector.isEmpty else {
                throw PropertyListError(message: "an \(object.className) has no NSSelectorName")
            }
            var parts = [try text(object["NSOperand"], depth: depth + 1), ExpressionText.literal(selector)]
            for argument in arguments { parts.append(try text(argument, depth: depth + 1)) }
            return "FUNCTION(" + parts.joined(separator: ", ") + ")"
        default:
            throw PropertyListError(message: "the expression class \(object.className) is not supported")
        }
    }

    private func keyPath(_ object: ArchivedObject) throws(PropertyListError) -> String {
        guard let path = try archive.string(object["NSKeyPath"]), !path.isEmpty else {
            throw PropertyListError(message: "an NSKeyPathSpecifierExpression has no NSKeyPath")
        }
        return path
    }

    private func constant(_ value: PropertyListValue?) throws(PropertyListError) -> String {
        switch try archive.resolve(value) {
        case nil, .null?: return "nil"
        case .boolean(let flag)?: return flag ? "YES" : "NO"
        case .integer(let number)?: return String(number)
        case .real(let number)?: return String(number)
        case .string(let text)?: return ExpressionText.literal(text)
        case .dictionary?:
            let object = try archive.object(value)
            if object?.fields["NS.string"] != nil, let text = try archive.string(value) {
                return ExpressionText.literal(text)
            }
            throw PropertyListError(message: "a constant of class \(object?.className ?? "?") is not supported")
        case let other?:
            throw PropertyListError(message: "a constant that is \(KeyedArchive.describe(other)) is not supported")
        }
    }
}
