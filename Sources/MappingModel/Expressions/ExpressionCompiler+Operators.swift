import ObjectModel

extension ExpressionCompiler {
    /// Whether a value of `type` may stand where `allowed` types are expected (`nil` and `any` always may).
    static func fits(_ type: ExpressionType, _ allowed: (ExpressionType) -> Bool) -> Bool {
        type == .null || type == .any || allowed(type)
    }

    private static func isCondition(_ type: ExpressionType) -> Bool { fits(type) { $0 == .boolean } }

    private static func isText(_ type: ExpressionType) -> Bool { type == .string || type == .uri }

    /// The type of arithmetic on two numeric types: integer with integer, else decimal, double wins.
    static func promoted(_ left: ExpressionType, _ right: ExpressionType) -> ExpressionType {
        if left == .null || left == .any { return right == .null ? left : right }
        if right == .null || right == .any { return left }
        if left == .double || right == .double { return .double }
        if left == .decimal || right == .decimal { return .decimal }
        return .integer
    }

    func unary(
        _ symbol: String,
        _ operand: TypedExpression,
        operand syntax: ExpressionSyntax,
        column: Int
    ) throws(MappingError) -> TypedExpression {
        if symbol == "-" {
            guard Self.fits(operand.type, \.isNumeric) else {
                throw error(.typeMismatch, "cannot negate \(operand.type)", at: column)
            }
            return try pure(operand.type, operand, column: column) { try ValueOperations.negate($0, column: column) }
        }
        guard Self.isCondition(operand.type) else {
            throw error(.typeMismatch, "'!' needs a boolean, not \(operand.type)", at: column)
        }
        return try pure(.boolean, operand, column: column) { .boolean(!ValueOperations.truth($0)) }
    }

    func binary(
        _ symbol: String,
        _ leftSyntax: ExpressionSyntax,
        _ rightSyntax: ExpressionSyntax,
        column: Int
    ) throws(MappingError) -> TypedExpression {
        let left = try compile(leftSyntax)
        let right = try compile(rightSyntax)
        let (l, r) = (left.type, right.type)
        switch symbol {
        case "&&", "||":
            guard Self.isCondition(l), Self.isCondition(r) else {
                let word = symbol == "&&" ? "AND" : "OR"
                throw error(.typeMismatch, "'\(symbol)' (\(word)) needs booleans, not \(l) and \(r)", at: column)
            }
            return logical(isAnd: symbol == "&&", left, right)
        case "==", "!=", "<", "<=", ">", ">=":
            let ordered = symbol != "==" && symbol != "!="
            guard let common = l.unified(with: r) ?? Self.sameObjects(l, r),
                !ordered || Self.fits(common, { $0.isNumeric || $0 == .string || $0 == .date })
            else {
                throw error(.typeMismatch, "cannot compare \(l) with \(r) using '\(symbol)'", at: column)
            }
            let test = ValueOperations.comparison(symbol)
            return try pure(.boolean, left, right, column: column) { .boolean(test($0, $1)) }
        case "+":
            if Self.isText(l) && Self.fits(r, Self.isText) || Self.isText(r) && Self.fits(l, Self.isText) {
                return try pure(.string, left, right, column: column) {
                    try ValueOperations.add($0, $1, column: column)
                }
            }
            if l == .date && Self.fits(r, \.isNumeric) || r == .date && Self.fits(l, \.isNumeric) {
                return try pure(.date, left, right, column: column) { try ValueOperations.add($0, $1, column: column) }
            }
            return try arithmetic(symbol, left, right, column: column, ValueOperations.add)
        case "-":
            if l == .date && (r == .date || Self.fits(r, \.isNumeric)) {
                let type: ExpressionType = r == .date ? .double : .date
                return try pure(type, left, right, column: column) {
                    try ValueOperations.subtract($0, $1, column: column)
                }
            }
            return try arithmetic(symbol, left, right, column: column, ValueOperations.subtract)
        case "*": return try arithmetic(symbol, left, right, column: column, ValueOperations.multiply)
        case "/": return try arithmetic(symbol, left, right, column: column, ValueOperations.divide)
        default: return try arithmetic(symbol, left, right, column: column, ValueOperations.remainder)
        }
    }

    private static func sameObjects(_ left: ExpressionType, _ right: ExpressionType) -> ExpressionType? {
        switch (left, right) {
        case (.object(_, let a), .object(_, let b)) where a == b: left
        case (.objects(_, let a), .objects(_, let b)) where a == b: left
        default: nil
        }
    }

    private func arithmetic(
        _ symbol: String,
        _ left: TypedExpression,
        _ right: TypedExpression,
        column: Int,
        _ operation: @escaping @Sendable (ExpressionValue, ExpressionValue, Int) throws -> ExpressionValue
    ) throws(MappingError) -> TypedExpression {
        guard Self.fits(left.type, \.isNumeric), Self.fits(right.type, \.isNumeric) else {
            let hint = symbol == "+" ? " (use string(x) to turn a value into text)" : ""
            throw error(.typeMismatch, "cannot apply '\(symbol)' to \(left.type) and \(right.type)\(hint)", at: column)
        }
        let type =
            symbol == "%" && Self.promoted(left.type, right.type) == .decimal
            ? .double : Self.promoted(left.type, right.type)
        return try pure(type, left, right, column: column) { try operation($0, $1, column) }
    }

    private func logical(isAnd: Bool, _ left: TypedExpression, _ right: TypedExpression) -> TypedExpression {
        if let value = left.constant {
            let decided = ValueOperations.truth(value) != isAnd
            if decided { return .constant(.boolean(!isAnd), type: .boolean) }
            if let other = right.constant { return .constant(.boolean(ValueOperations.truth(other)), type: .boolean) }
            let run = right.run
            return TypedExpression(type: .boolean) { context in .boolean(ValueOperations.truth(try run(context))) }
        }
        let (runLeft, runRight) = (left.run, right.run)
        if isAnd {
            return TypedExpression(type: .boolean) { context in
                guard ValueOperations.truth(try runLeft(context)) else { return .boolean(false) }
                return .boolean(ValueOperations.truth(try runRight(context)))
            }
        }
        return TypedExpression(type: .boolean) { context in
            if ValueOperations.truth(try runLeft(context)) { return .boolean(true) }
            return .boolean(ValueOperations.truth(try runRight(context)))
        }
    }

    /// `condition ? then : otherwise`, also written `TERNARY(condition, then, otherwise)`.
    func conditional(
        _ conditionSyntax: ExpressionSyntax,
        _ thenSyntax: ExpressionSyntax,
        _ otherwiseSyntax: ExpressionSyntax,
        column: Int
    ) throws(MappingError) -> TypedExpression {
        let condition = try compile(conditionSyntax)
        guard Self.isCondition(condition.type) else {
            throw error(
                .typeMismatch, "the condition must be a boolean, not \(condition.type)", at: conditionSyntax.start)
        }
        let then = try compile(thenSyntax)
        let otherwise = try compile(otherwiseSyntax)
        guard let type = then.type.unified(with: otherwise.type) ?? Self.sameObjects(then.type, otherwise.type) else {
            throw error(
                .typeMismatch, "the two branches have different types, \(then.type) and \(otherwise.type)",
                at: column)
        }
        let (thenValue, otherwiseValue) = (try converted(then, to: type), try converted(otherwise, to: type))
        if let value = condition.constant { return ValueOperations.truth(value) ? thenValue : otherwiseValue }
        let (test, runThen, runOtherwise) = (condition.run, thenValue.run, otherwiseValue.run)
        return TypedExpression(type: type) { context in
            ValueOperations.truth(try test(context)) ? try runThen(context) : try runOtherwise(context)
        }
    }

    /// `typed` with its numbers converted to `type`, the common type of conditional branches or coalesced values.
    func converted(_ typed: TypedExpression, to type: ExpressionType) throws(MappingError) -> TypedExpression {
        guard typed.type != type, typed.type.isNumeric, type == .double || type == .decimal else { return typed }
        let column = 1
        return try pure(type, typed, column: column) { value in
            type == .double
                ? try ValueConversion.double(value, column: column) : try ValueConversion.decimal(value, column: column)
        }
    }

    // MARK: - The result

    /// Checks that the expression's type fits its purpose, and converts values to the destination's type.
    func finish(_ typed: TypedExpression, syntax: ExpressionSyntax) throws(MappingError) -> TypedExpression {
        let column = syntax.start
        switch scope.purpose {
        case .value:
            return typed
        case .filter:
            guard Self.isCondition(typed.type) else {
                throw error(.typeMismatch, "a source filter must be a boolean, not \(typed.type)", at: column)
            }
            return TypedExpression(type: .boolean, constant: typed.constant, run: typed.run)
        case .attribute(let attributeType):
            return try attribute(typed, attributeType, column: column)
        case .relationship(let relationship):
            return try self.relationship(typed, relationship, column: column)
        }
    }

    private func attribute(
        _ typed: TypedExpression,
        _ attributeType: AttributeType,
        column: Int
    ) throws(MappingError) -> TypedExpression {
        let target = ExpressionType(attributeType)
        let fits: Bool
        switch target {
        case .integer, .double, .decimal: fits = Self.fits(typed.type) { $0.isNumeric || $0 == .boolean }
        // Any number sets a Boolean, non-zero being true, as an NSNumber does (lightweight.md §2.3: numeric →
        // Boolean is inferred).
        case .boolean: fits = Self.fits(typed.type) { $0 == .boolean || $0.isNumeric }
        case .string, .uri: fits = Self.fits(typed.type, Self.isText)
        default: fits = Self.fits(typed.type) { $0 == target }
        }
        guard fits else {
            throw error(
                .typeMismatch, "a \(typed.type) value does not fit the \(attributeType.rawValue) attribute", at: column)
        }
        let isExact =
            typed.slotAttribute == attributeType
            || typed.type == target && attributeType != .integer16 && attributeType != .integer32
        if isExact { return typed }
        return try pure(target, typed, column: column) {
            try ValueConversion.coerce($0, to: attributeType, column: column)
        }
    }

    private func relationship(
        _ typed: TypedExpression,
        _ relationship: Relationship,
        column: Int
    ) throws(MappingError) -> TypedExpression {
        let entity = relationship.destination
        let target: ExpressionType =
            relationship.isToMany ? .objects(entity, .destination) : .object(entity, .destination)
        let kind = relationship.isToMany ? "to-many" : "to-one"
        switch typed.type {
        case .null, .any:
            break
        case .object(let found, let side), .objects(let found, let side):
            guard side == .destination else {
                throw error(
                    .typeMismatch,
                    "the \(kind) relationship needs destination instances, not source objects: use "
                        + "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", …)",
                    at: column)
            }
            guard scope.destination.entity(found, isKindOf: entity) || scope.destination.entity(entity, isKindOf: found)
            else {
                throw error(.typeMismatch, "objects of '\(found)' do not fit a relationship to '\(entity)'", at: column)
            }
            if case .objects = typed.type, !relationship.isToMany {
                throw error(.typeMismatch, "the to-one relationship gets several objects (\(typed.type))", at: column)
            }
        default:
            throw error(.typeMismatch, "a \(typed.type) value does not fit the \(kind) relationship", at: column)
        }
        guard relationship.isToMany else { return TypedExpression(type: target, run: typed.run) }
        let run = typed.run
        return TypedExpression(type: target) { context in
            let value = try run(context)
            if case .object(let object) = value { return .objects([object]) }
            return value
        }
    }
}
