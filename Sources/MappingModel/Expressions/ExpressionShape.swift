/// What a compiled expression is, decided once by the compiler from its syntax, so that the engine and the
/// verifier can take a shorter road for the common forms without ever reading the expression's text.
package enum ExpressionShape: Sendable, Hashable {
    /// `$source.a.b…`: a key path from the source object.
    case sourceKeyPath([String])
    /// The same value for every object.
    case constant(ExpressionValue)
    /// `FUNCTION($manager, "destinationInstancesFor…", "…", $source.r)`: the destination objects made from the
    /// source object's relationship `r` — by the named entity mapping, or by any (`entityMapping` nil).
    case relationshipCopy(relationship: String, entityMapping: String?)
    /// Anything else.
    case general

    /// The shape of `syntax`, given the constant the compiler found for it.
    static func of(_ syntax: ExpressionSyntax, constant: ExpressionValue?) -> ExpressionShape {
        if let constant { return .constant(constant) }
        if let path = sourceKeyPath(syntax) { return .sourceKeyPath(path) }
        guard case .call("FUNCTION", let arguments, _) = syntax, arguments.count == 4,
            case .variable("manager", _) = arguments[0], case .literal(.string(let selector), _) = arguments[1],
            case .literal(.string(let named), _) = arguments[2], let path = sourceKeyPath(arguments[3]),
            path.count == 1
        else { return .general }
        switch selector {
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            return .relationshipCopy(relationship: path[0], entityMapping: nil)
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            return .relationshipCopy(relationship: path[0], entityMapping: named)
        default:
            return .general
        }
    }

    /// The keys of `$source.a.b…`, or nil when `syntax` is not such a path.
    private static func sourceKeyPath(_ syntax: ExpressionSyntax) -> [String]? {
        var keys: [String] = []
        var base = syntax
        while case .member(let inner, let key, _) = base {
            keys.insert(key, at: 0)
            base = inner
        }
        guard case .variable("source", _) = base, !keys.isEmpty else { return nil }
        return keys
    }

    /// The source attribute or relationship read, when the shape is `$source.name` with one key.
    package var sourceProperty: String? {
        guard case .sourceKeyPath(let path) = self, path.count == 1 else { return nil }
        return path[0]
    }
}
