import ObjectModel

extension ExpressionCompiler {
    /// The selectors of `$manager` that are supported.
    static let managerSelectors = [
        "destinationInstancesForEntityMappingNamed:sourceInstances:",
        "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
    ]

    /// Core Data's string selectors (NSExpression's `FUNCTION(value, "lowercaseString")`) and the library
    /// function each one means.
    static let stringSelectors: [String: String] = [
        "lowercaseString": "lowercase", "uppercaseString": "uppercase", "length": "length",
        "stringByAppendingString:": "+", "hasPrefix:": "hasPrefix", "hasSuffix:": "hasSuffix",
        "containsString:": "contains", "integerValue": "integer", "intValue": "integer", "longLongValue": "integer",
        "doubleValue": "double", "floatValue": "double", "boolValue": "boolean", "description": "string",
        "stringValue": "string", "uuidString": "uuidString", "UUIDString": "uuidString",
    ]

    /// `FUNCTION(receiver, "selector:", arguments…)`, in the forms that Xcode and Core Data write.
    func function(_ syntax: [ExpressionSyntax], column: Int) throws(MappingError) -> TypedExpression {
        let receiver = syntax[0]
        guard case .literal(.string(let selector), let selectorColumn) = syntax[1] else {
            throw error(.typeMismatch, "the selector of FUNCTION must be a string literal", at: syntax[1].start)
        }
        let arguments = Array(syntax.dropFirst(2))
        let expectedCount = selector.filter { $0 == ":" }.count
        if case .variable("manager", _) = receiver {
            guard Self.managerSelectors.contains(selector) else {
                throw error(
                    .unknownSelector,
                    "unknown $manager selector '\(selector)' (supported: \(Self.managerSelectors.joined(separator: ", ")))",
                    at: selectorColumn)
            }
            try checkCount(selector, arguments, expectedCount, column: column)
            return try destinationInstances(
                byMapping: selector.hasPrefix("destinationInstancesForEntityMappingNamed"), arguments)
        }
        if case .variable("entityPolicy", let receiverColumn) = receiver {
            guard scope.entityMapping.policy != nil else {
                throw error(
                    .unknownVariable, "$entityPolicy is not available: the mapping has no policy", at: receiverColumn)
            }
            if let known = scope.policySelectors, !known.contains(selector) {
                let answered =
                    known.isEmpty ? "it answers none" : "it answers " + known.sorted().joined(separator: ", ")
                throw error(
                    .unknownSelector,
                    "the policy '\(scope.entityMapping.policy ?? "")' has no function for the selector '\(selector)' "
                        + "(\(answered)): register one for it", at: selectorColumn)
            }
            try checkCount(selector, arguments, expectedCount, column: column)
            var compiled: [TypedExpression] = []
            for argument in arguments { compiled.append(try compile(argument)) }
            let runs = compiled.map(\.run)
            return TypedExpression(type: .any) { context in
                var values: [ExpressionValue] = []
                values.reserveCapacity(runs.count)
                for run in runs { values.append(try run(context)) }
                return try context.callPolicy(selector: selector, arguments: values)
            }
        }
        let typedReceiver = try compile(receiver)
        let isObject: Bool
        switch typedReceiver.type {
        case .object, .any: isObject = true
        default: isObject = false
        }
        if isObject && (selector == "valueForKey:" || selector == "valueForKeyPath:") {
            try checkCount(selector, arguments, 1, column: column)
            guard case .literal(.string(let path), let pathColumn) = arguments[0], !path.isEmpty else {
                throw error(.typeMismatch, "the key of \(selector) must be a string literal", at: arguments[0].start)
            }
            let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if selector == "valueForKey:" && parts.count > 1 || parts.contains(where: \.isEmpty) {
                throw error(.unknownKey, "'\(path)' is not a valid key for \(selector)", at: pathColumn)
            }
            var keys: [(name: String, column: Int)] = []
            var offset = pathColumn + 1
            for part in parts {
                keys.append((part, offset))
                offset += part.count + 1
            }
            return try keyPath(base: receiver, keys: keys)
        }
        switch typedReceiver.type {
        case .object, .objects:
            throw error(
                .unknownSelector,
                "unknown selector '\(selector)' for \(typedReceiver.type) (supported: valueForKey:, "
                    + "valueForKeyPath:)", at: selectorColumn)
        default:
            guard let name = Self.stringSelectors[selector] else {
                let known = Self.stringSelectors.keys.sorted().joined(separator: ", ")
                throw error(
                    .unknownSelector, "unknown selector '\(selector)' for \(typedReceiver.type) (supported: \(known))",
                    at: selectorColumn)
            }
            try checkCount(selector, arguments, expectedCount, column: column)
            if name == "+" { return try binary("+", receiver, arguments[0], column: column) }
            return try call(name, [receiver] + arguments, column: column)
        }
    }

    private func checkCount(
        _ selector: String,
        _ arguments: [ExpressionSyntax],
        _ expected: Int,
        column: Int
    ) throws(MappingError) {
        guard arguments.count == expected else {
            throw error(
                .wrongArgumentCount,
                "the selector '\(selector)' takes \(expected) argument\(expected == 1 ? "" : "s"), not \(arguments.count)",
                at: column)
        }
    }

    /// `destinationInstancesForEntityMappingNamed:sourceInstances:` and
    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`.
    private func destinationInstances(
        byMapping: Bool,
        _ syntax: [ExpressionSyntax]
    ) throws(MappingError) -> TypedExpression {
        guard case .literal(.string(let name), let nameColumn) = syntax[0] else {
            let what = byMapping ? "entity mapping" : "source relationship"
            throw error(.typeMismatch, "the \(what) name must be a string literal", at: syntax[0].start)
        }
        let sources = try compile(syntax[1])
        var sourceEntity: String?
        var isToMany: Bool?
        switch sources.type {
        case .object(let entity, .source): (sourceEntity, isToMany) = (entity, false)
        case .objects(let entity, .source): (sourceEntity, isToMany) = (entity, true)
        case .null, .any: break
        default:
            throw error(
                .typeMismatch, "sourceInstances must be source objects, not \(sources.type)", at: syntax[1].start)
        }
        let destination: String?
        if byMapping {
            guard let mapping = scope.entityMappings.first(where: { $0.name == name }) else {
                throw error(.unknownEntityMapping, "unknown entity mapping '\(name)'", at: nameColumn)
            }
            guard let mappedSource = mapping.sourceEntity, let mappedDestination = mapping.destinationEntity else {
                throw error(
                    .typeMismatch,
                    "entity mapping '\(name)' is a \(mapping.kind.rawValue) mapping: it makes no "
                        + "destination instances from source instances", at: nameColumn)
            }
            if let sourceEntity, !scope.source.entity(sourceEntity, isKindOf: mappedSource),
                !scope.source.entity(mappedSource, isKindOf: sourceEntity)
            {
                throw error(
                    .typeMismatch, "entity mapping '\(name)' maps '\(mappedSource)', not '\(sourceEntity)'",
                    at: syntax[1].start)
            }
            destination = mappedDestination
        } else {
            guard let entity = scope.entityMapping.sourceEntity,
                let relationship = scope.source.relationship(name, of: entity)
            else {
                let owner = scope.entityMapping.sourceEntity ?? "(none)"
                throw error(.unknownKey, "unknown relationship '\(name)' of source entity '\(owner)'", at: nameColumn)
            }
            isToMany = isToMany ?? relationship.isToMany
            destination = destinationEntity(forSource: relationship.destination)
        }
        let type: ExpressionType =
            destination.map { isToMany == false ? .object($0, .destination) : .objects($0, .destination) } ?? .any
        let run = sources.run
        let single = isToMany == false
        if byMapping {
            return TypedExpression(type: type) { context in
                let value = try run(context)
                if value.isNull { return .null }
                return Self.shaped(try context.destinationInstances(entityMapping: name, sources: value), single)
            }
        }
        return TypedExpression(type: type) { context in
            let value = try run(context)
            if value.isNull { return .null }
            return Self.shaped(try context.destinationInstances(sourceRelationship: name, sources: value), single)
        }
    }

    /// One object for a to-one, as Core Data's array of destination instances holds at most one then.
    private static func shaped(_ value: ExpressionValue, _ single: Bool) -> ExpressionValue {
        guard single, case .objects(let objects) = value else { return value }
        return objects.last.map { .object($0) } ?? .null
    }

    /// The destination entity that the entity mappings make from objects of the source entity `entity`: the
    /// only one, or the one all others inherit from; else the destination entity of the same name.
    private func destinationEntity(forSource entity: String) -> String? {
        let candidates = Set(
            scope.entityMappings.compactMap { mapping -> String? in
                guard let source = mapping.sourceEntity, let destination = mapping.destinationEntity,
                    scope.source.entity(source, isKindOf: entity)
                else { return nil }
                return destination
            })
        if let common = candidates.sorted().first(where: { candidate in
            candidates.allSatisfy { scope.destination.entity($0, isKindOf: candidate) }
        }) {
            return common
        }
        if candidates.isEmpty, scope.destination.entity(named: entity) != nil { return entity }
        return nil
    }
}
