import ObjectModel

/// A type-checked expression on its way to a closure tree.
struct TypedExpression {
    var type: ExpressionType
    var run: Evaluator
    /// The value, when it does not depend on the object.
    var constant: ExpressionValue?
    /// The attribute's type, when the expression is a plain slot read `$source.attribute`.
    var slotAttribute: AttributeType?

    init(type: ExpressionType, constant: ExpressionValue? = nil, run: @escaping Evaluator) {
        self.type = type
        self.constant = constant
        self.run = run
    }

    /// A constant.
    static func constant(_ value: ExpressionValue, type: ExpressionType) -> TypedExpression {
        TypedExpression(type: type, constant: value) { _ in value }
    }
}

/// Parses, type-checks and compiles value expressions, once, before the first object is migrated.
///
/// Errors name the entity mapping, the property and the column of the offending token.
package struct ExpressionCompiler {
    let scope: ExpressionScope

    /// A compiler of expressions in `scope`.
    package init(scope: ExpressionScope) {
        self.scope = scope
    }

    /// Compiles `text` for the scope's purpose.
    package func compile(_ text: String) throws(MappingError) -> CompiledExpression {
        let syntax: ExpressionSyntax
        do {
            syntax = try ExpressionParser.parse(text)
        } catch {
            throw located(error)
        }
        let typed = try finish(try compile(syntax), syntax: syntax)
        let sourceEntity = scope.entityMapping.sourceEntity
        let rowLocal = syntax.readsOnlySourceAttributes { key in
            sourceEntity.flatMap { scope.environment.attributeSlot(entity: $0, attribute: key) } != nil
        }
        let sqlForm = SQLForm.of(syntax) { key in
            guard let entity = sourceEntity, let attribute = scope.source.attribute(key, of: entity),
                let slot = scope.environment.attributeSlot(entity: entity, attribute: key)
            else { return nil }
            return (slot, attribute.type)
        }
        return CompiledExpression(
            text: text, type: typed.type, mapping: scope.entityMapping.name, property: scope.property,
            constantValue: typed.constant, shape: .of(syntax, constant: typed.constant),
            readsOnlySourceAttributes: rowLocal, sqlForm: typed.constant == nil ? sqlForm : nil, run: typed.run)
    }

    // MARK: - Errors

    func error(_ code: MappingError.Code, _ message: String, at column: Int) -> MappingError {
        located(MappingError(code, message, column: column))
    }

    private func located(_ error: MappingError) -> MappingError {
        var located = error
        located.mapping = scope.entityMapping.name
        located.property = scope.property
        return located
    }

    // MARK: - Nodes

    func compile(_ syntax: ExpressionSyntax) throws(MappingError) -> TypedExpression {
        switch syntax {
        case .literal(let value, _):
            return .constant(value, type: Self.type(of: value))
        case .variable(let name, let column):
            return try variable(name, column: column)
        case .member:
            var keys: [(name: String, column: Int)] = []
            var base = syntax
            while case .member(let inner, let key, let column) = base {
                keys.insert((key, column), at: 0)
                base = inner
            }
            return try keyPath(base: base, keys: keys)
        case .unary(let symbol, let operand, let column):
            return try unary(symbol, compile(operand), operand: operand, column: column)
        case .binary(let symbol, let left, let right, let column):
            return try binary(symbol, left, right, column: column)
        case .conditional(let condition, let then, let otherwise, let column):
            return try conditional(condition, then, otherwise, column: column)
        case .call(let name, let arguments, let column):
            return try call(name, arguments, column: column)
        }
    }

    static func type(of value: ExpressionValue) -> ExpressionType {
        switch value {
        case .null: .null
        case .integer: .integer
        case .double: .double
        case .decimal: .decimal
        case .string: .string
        case .boolean: .boolean
        case .date: .date
        case .binary: .binary
        case .uuid: .uuid
        case .uri: .uri
        case .object, .objects: .any
        }
    }

    private func variable(_ name: String, column: Int) throws(MappingError) -> TypedExpression {
        let mapping = scope.entityMapping
        switch name {
        case "source":
            guard let entity = mapping.sourceEntity else {
                throw error(.unknownVariable, "$source is not available: the mapping has no source entity", at: column)
            }
            return TypedExpression(type: .object(entity, .source)) { context in
                context.sourceObject().map { .object($0) } ?? .null
            }
        case "destination":
            if case .filter = scope.purpose {
                throw error(.unknownVariable, "$destination is not available in a source filter", at: column)
            }
            guard let entity = mapping.destinationEntity else {
                throw error(
                    .unknownVariable, "$destination is not available: the mapping has no destination entity",
                    at: column)
            }
            return TypedExpression(type: .object(entity, .destination)) { context in
                context.destinationObject().map { .object($0) } ?? .null
            }
        case "entityMapping":
            return .constant(.string(mapping.name), type: .string)
        case "propertyMapping":
            return .constant(scope.property.map { .string($0) } ?? .null, type: .string)
        case "manager", "entityPolicy":
            throw error(
                .typeMismatch, "$\(name) can only be the receiver of FUNCTION($\(name), \"selector:\", …)", at: column)
        default:
            throw error(
                .unknownVariable,
                "unknown variable '$\(name)' (expected $source, $destination, $manager, $entityMapping, "
                    + "$propertyMapping or $entityPolicy)", at: column)
        }
    }

    // MARK: - Key paths

    /// `base.key1.key2…`: attributes and relationships of objects; `$source.attribute` compiles to a slot read.
    func keyPath(base: ExpressionSyntax, keys: [(name: String, column: Int)]) throws(MappingError) -> TypedExpression {
        if case .variable(let name, _) = base, name == "entityMapping" || name == "propertyMapping" {
            return try mappingKey(of: name, keys: keys)
        }
        let root = try compile(base)
        var type = root.type
        var path: [String] = []
        var counts = false
        var pathType = type
        var attribute: Attribute?
        for (index, key) in keys.enumerated() {
            if counts || attribute != nil {
                throw error(
                    .unknownKey, "'\(keys[index - 1].name)' is \(type); it has no key '\(key.name)'", at: key.column)
            }
            switch type {
            case .object(let entity, let side):
                let model = scope.model(side)
                if let found = model.attribute(key.name, of: entity) {
                    attribute = found
                    type = ExpressionType(found.type)
                } else if let relationship = model.relationship(key.name, of: entity) {
                    type =
                        relationship.isToMany
                        ? .objects(relationship.destination, side) : .object(relationship.destination, side)
                } else {
                    let what = index == keys.count - 1 ? "attribute" : "relationship"
                    throw error(.unknownKey, "unknown \(what) '\(key.name)' of entity '\(entity)'", at: key.column)
                }
                path.append(key.name)
            case .objects:
                guard key.name == "@count" else {
                    throw error(
                        .unknownKey,
                        "'\(keys[index - 1].name)' is a to-many relationship: only @count can follow it, "
                            + "or use count(…) or FUNCTION($manager, …)", at: key.column)
                }
                counts = true
                pathType = type
                type = .integer
            case .any:
                path.append(key.name)
            default:
                throw error(.unknownKey, "\(type) has no key '\(key.name)'", at: key.column)
            }
        }
        var typed = try objectPath(
            root: root, base: base, path: path, attribute: attribute, type: counts ? pathType : type,
            column: keys[0].column)
        if counts {
            let run = typed.run
            typed = TypedExpression(type: .integer) { context in
                switch try run(context) {
                case .objects(let objects): .integer(Int64(objects.count))
                case .object: .integer(1)
                default: .integer(0)
                }
            }
        }
        return typed
    }

    private func objectPath(
        root: TypedExpression,
        base: ExpressionSyntax,
        path: [String],
        attribute: Attribute?,
        type: ExpressionType,
        column: Int
    ) throws(MappingError) -> TypedExpression {
        if path.isEmpty { return root }
        if case .variable("source", _) = base, path.count == 1, let attribute,
            let entity = scope.entityMapping.sourceEntity
        {
            guard let slot = scope.environment.attributeSlot(entity: entity, attribute: attribute.name) else {
                throw error(
                    .unknownKey, "attribute '\(attribute.name)' of entity '\(entity)' has no stored value",
                    at: column)
            }
            var typed = TypedExpression(type: type) { context in context.sourceValue(slot: slot) }
            typed.slotAttribute = attribute.type
            return typed
        }
        let run = root.run
        return TypedExpression(type: type) { context in
            switch try run(context) {
            case .object(let object): return try context.value(of: object, keyPath: path)
            case .null: return .null
            case let other:
                throw ValueOperations.fail(
                    "\(ValueConversion.typeName(of: other)) has no key '\(path[0])'", column: column)
            }
        }
    }

    /// `$entityMapping.name`, `.sourceEntityName`, `.destinationEntityName`, `.userInfo.key`;
    /// `$propertyMapping.name`, `.userInfo.key`: constants.
    private func mappingKey(
        of variable: String, keys: [(name: String, column: Int)]
    ) throws(MappingError)
        -> TypedExpression
    {
        let mapping = scope.entityMapping
        let isEntity = variable == "entityMapping"
        let userInfo: [String: String] =
            isEntity
            ? mapping.userInfo
            : (mapping.attributeMappings + mapping.relationshipMappings).first { $0.name == scope.property }?
                .userInfo ?? [:]
        var value: String?
        switch keys[0].name {
        case "name": value = isEntity ? mapping.name : scope.property
        case "sourceEntityName" where isEntity: value = mapping.sourceEntity
        case "destinationEntityName" where isEntity: value = mapping.destinationEntity
        case "userInfo" where keys.count == 2: value = userInfo[keys[1].name]
        default:
            throw error(.unknownKey, "$\(variable) has no key '\(keys[0].name)'", at: keys[0].column)
        }
        let expected = keys[0].name == "userInfo" ? 2 : 1
        guard keys.count == expected else {
            throw error(.unknownKey, "a string has no key '\(keys[expected].name)'", at: keys[expected].column)
        }
        return .constant(value.map { .string($0) } ?? .null, type: .string)
    }

    // MARK: - Constant folding

    /// A node applying `operation` to one operand; folded at compile time when the operand is constant.
    func pure(
        _ type: ExpressionType,
        _ operand: TypedExpression,
        column: Int,
        _ operation: @escaping @Sendable (ExpressionValue) throws -> ExpressionValue
    ) throws(MappingError) -> TypedExpression {
        if let value = operand.constant { return try fold(type, column: column) { try operation(value) } }
        let run = operand.run
        return TypedExpression(type: type) { context in try operation(try run(context)) }
    }

    /// A node applying `operation` to two operands; folded at compile time when both are constant.
    func pure(
        _ type: ExpressionType,
        _ left: TypedExpression,
        _ right: TypedExpression,
        column: Int,
        _ operation: @escaping @Sendable (ExpressionValue, ExpressionValue) throws -> ExpressionValue
    ) throws(MappingError) -> TypedExpression {
        if let a = left.constant, let b = right.constant {
            return try fold(type, column: column) { try operation(a, b) }
        }
        let (runLeft, runRight) = (left.run, right.run)
        return TypedExpression(type: type) { context in try operation(try runLeft(context), try runRight(context)) }
    }

    /// A node applying `operation` to any number of operands; folded when all are constant.
    func pure(
        _ type: ExpressionType,
        _ operands: [TypedExpression],
        column: Int,
        _ operation: @escaping @Sendable ([ExpressionValue]) throws -> ExpressionValue
    ) throws(MappingError) -> TypedExpression {
        let constants = operands.compactMap(\.constant)
        if constants.count == operands.count {
            return try fold(type, column: column) { try operation(constants) }
        }
        let runs = operands.map(\.run)
        return TypedExpression(type: type) { context in
            var values: [ExpressionValue] = []
            values.reserveCapacity(runs.count)
            for run in runs { values.append(try run(context)) }
            return try operation(values)
        }
    }

    private func fold(
        _ type: ExpressionType,
        column: Int,
        _ operation: () throws -> ExpressionValue
    ) throws(MappingError) -> TypedExpression {
        do {
            return .constant(try operation(), type: type)
        } catch let failure as EvaluationError {
            throw error(.invalidConstant, failure.message, at: failure.column)
        } catch {
            throw self.error(.invalidConstant, "\(error)", at: column)
        }
    }
}
