import Foundation

extension ExpressionCompiler {
    /// The functions of the library, with their least and greatest number of arguments.
    static let library: [String: ClosedRange<Int>] = [
        "lowercase": 1...1, "uppercase": 1...1, "trim": 1...1, "substring": 3...3, "length": 1...1,
        "contains": 2...2, "hasPrefix": 2...2, "hasSuffix": 2...2, "replace": 3...3, "string": 1...1,
        "integer": 1...1, "double": 1...1, "boolean": 1...1, "date": 1...1, "dateString": 1...1, "uuid": 0...1,
        "uuidString": 1...1, "now": 0...0, "coalesce": 2...Int.max, "abs": 1...1, "round": 1...1, "min": 2...2,
        "max": 2...2, "count": 1...1, "TERNARY": 3...3, "FUNCTION": 2...Int.max,
    ]

    func call(_ name: String, _ syntax: [ExpressionSyntax], column: Int) throws(MappingError) -> TypedExpression {
        guard let arity = Self.library[name] else {
            let known = Self.library.keys.sorted().joined(separator: ", ")
            throw error(.unknownFunction, "unknown function '\(name)' (known: \(known))", at: column)
        }
        guard arity.contains(syntax.count) else {
            let expected =
                arity.lowerBound == arity.upperBound
                ? "\(arity.lowerBound)"
                : arity.upperBound == .max
                    ? "at least \(arity.lowerBound)"
                    : "\(arity.lowerBound) to \(arity.upperBound)"
            let noun = expected == "1" ? "argument" : "arguments"
            throw error(
                .wrongArgumentCount, "\(name) takes \(expected) \(noun), not \(syntax.count)", at: column)
        }
        if name == "FUNCTION" { return try function(syntax, column: column) }
        if name == "TERNARY" { return try conditional(syntax[0], syntax[1], syntax[2], column: column) }
        var arguments: [TypedExpression] = []
        for argument in syntax { arguments.append(try compile(argument)) }

        /// Checks that argument `index` is of an allowed type.
        func require(_ index: Int, _ what: String, _ allowed: (ExpressionType) -> Bool) throws(MappingError) {
            guard Self.fits(arguments[index].type, allowed) else {
                throw error(
                    .typeMismatch, "argument \(index + 1) of \(name) must be \(what), not \(arguments[index].type)",
                    at: syntax[index].start)
            }
        }
        let isText: (ExpressionType) -> Bool = { $0 == .string || $0 == .uri }
        let isScalar: (ExpressionType) -> Bool = {
            switch $0 {
            case .object, .objects: false
            default: true
            }
        }
        switch name {
        case "lowercase", "uppercase", "trim", "length":
            try require(0, "a string", isText)
            return try pure(name == "length" ? .integer : .string, arguments[0], column: column) { value in
                guard case .string(let text) = try Self.text(value, column: column) else { return .null }
                switch name {
                case "lowercase": return .string(text.lowercased())
                case "uppercase": return .string(text.uppercased())
                case "trim": return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
                default: return .integer(Int64(text.count))
                }
            }
        case "contains", "hasPrefix", "hasSuffix":
            try require(0, "a string", isText)
            try require(1, "a string", isText)
            return try pure(.boolean, arguments[0], arguments[1], column: column) { value, part in
                guard case .string(let text) = try Self.text(value, column: column),
                    case .string(let piece) = try Self.text(part, column: column)
                else { return .null }
                switch name {
                case "contains": return .boolean(text.contains(piece))
                case "hasPrefix": return .boolean(text.hasPrefix(piece))
                default: return .boolean(text.hasSuffix(piece))
                }
            }
        case "substring":
            try require(0, "a string", isText)
            try require(1, "an integer", { $0 == .integer })
            try require(2, "an integer", { $0 == .integer })
            return try pure(.string, arguments, column: column) { values in
                guard case .string(let text) = try Self.text(values[0], column: column),
                    case .integer(let start) = values[1], case .integer(let length) = values[2]
                else { return .null }
                return .string(String(text.dropFirst(Int(max(0, start))).prefix(Int(max(0, length)))))
            }
        case "replace":
            for index in 0..<3 { try require(index, "a string", isText) }
            return try pure(.string, arguments, column: column) { values in
                guard case .string(let text) = try Self.text(values[0], column: column),
                    case .string(let old) = try Self.text(values[1], column: column),
                    case .string(let new) = try Self.text(values[2], column: column)
                else { return .null }
                return .string(old.isEmpty ? text : text.replacingOccurrences(of: old, with: new))
            }
        case "string":
            try require(0, "a value", isScalar)
            return try pure(.string, arguments[0], column: column) { try ValueConversion.string($0, column: column) }
        case "integer", "double", "boolean":
            try require(0, "a number, boolean, date or string") {
                $0.isNumeric || $0 == .boolean || $0 == .date || $0 == .string
            }
            let type: ExpressionType = name == "integer" ? .integer : name == "double" ? .double : .boolean
            return try pure(type, arguments[0], column: column) { value in
                switch type {
                case .integer: try ValueConversion.integer(value, column: column)
                case .double: try ValueConversion.double(value, column: column)
                default: try ValueConversion.boolean(value, column: column)
                }
            }
        case "date":
            try require(0, "an ISO 8601 string or seconds since 2001") { $0.isNumeric || $0 == .string || $0 == .date }
            return try pure(.date, arguments[0], column: column) { try ValueConversion.date($0, column: column) }
        case "dateString":
            try require(0, "a date", { $0 == .date })
            return try pure(.string, arguments[0], column: column) { try ValueConversion.string($0, column: column) }
        case "uuid":
            guard arguments.isEmpty else {
                try require(0, "a string", isText)
                return try pure(.uuid, arguments[0], column: column) { try ValueConversion.uuid($0, column: column) }
            }
            return TypedExpression(type: .uuid) { context in .uuid(context.makeUUID()) }
        case "uuidString":
            try require(0, "a uuid", { $0 == .uuid })
            return try pure(.string, arguments[0], column: column) { try ValueConversion.string($0, column: column) }
        case "now":
            return TypedExpression(type: .date) { context in .date(context.now) }
        case "coalesce":
            return try coalesce(arguments, syntax, column: column)
        case "abs", "round":
            try require(0, "a number", \.isNumeric)
            return try pure(arguments[0].type, arguments[0], column: column) { value in
                try Self.absoluteOrRounded(value, rounds: name == "round", column: column)
            }
        case "min", "max":
            guard let type = arguments[0].type.unified(with: arguments[1].type),
                Self.fits(type, { $0.isNumeric || $0 == .string || $0 == .date })
            else {
                throw error(
                    .typeMismatch,
                    "\(name) needs two numbers, strings or dates, not \(arguments[0].type) and "
                        + "\(arguments[1].type)", at: column)
            }
            let wantsLess = name == "min"
            return try pure(type, arguments[0], arguments[1], column: column) { a, b in
                guard let order = ValueOperations.compare(a, b) else { return a.isNull ? b : a }
                return (order <= 0) == wantsLess ? a : b
            }
        default:  // count
            try require(0, "a to-many relationship") {
                if case .objects = $0 { return true }
                if case .object = $0 { return true }
                return false
            }
            return try pure(.integer, arguments[0], column: column) { value in
                switch value {
                case .objects(let objects): .integer(Int64(objects.count))
                case .object: .integer(1)
                default: .integer(0)
                }
            }
        }
    }

    /// A string, or nil for `nil`; anything else (possible only for `any`) fails.
    private static func text(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .string: return value
        case .uri(let text): return .string(text)
        case .null: return .null
        default:
            throw ValueOperations.fail("expected a string, not \(ValueConversion.typeName(of: value))", column: column)
        }
    }

    private static func absoluteOrRounded(_ value: ExpressionValue, rounds: Bool, column: Int) throws -> ExpressionValue
    {
        switch value {
        case .null: return .null
        case .integer(let number):
            if rounds { return value }
            guard number != .min else {
                throw ValueOperations.fail("integer overflow in abs(\(number))", column: column)
            }
            return .integer(abs(number))
        case .double(let number): return .double(rounds ? number.rounded() : abs(number))
        case .decimal:
            var number = ValueOperations.decimal(value)!
            if rounds {
                var rounded = Decimal()
                NSDecimalRound(&rounded, &number, 0, .plain)
                return ValueOperations.decimalValue(rounded)
            }
            return ValueOperations.decimalValue(number < 0 ? -number : number)
        default:
            throw ValueOperations.fail("expected a number, not \(ValueConversion.typeName(of: value))", column: column)
        }
    }

    private func coalesce(
        _ arguments: [TypedExpression],
        _ syntax: [ExpressionSyntax],
        column: Int
    ) throws(MappingError) -> TypedExpression {
        var type = ExpressionType.null
        for (index, argument) in arguments.enumerated() {
            guard let common = type.unified(with: argument.type) ?? (type == .null ? argument.type : nil) else {
                throw error(
                    .typeMismatch, "argument \(index + 1) of coalesce is \(argument.type), the ones before are \(type)",
                    at: syntax[index].start)
            }
            type = common
        }
        var values: [TypedExpression] = []
        for argument in arguments { values.append(try converted(argument, to: type)) }
        if let value = values[0].constant, !value.isNull { return .constant(value, type: type) }
        let runs = values.map(\.run)
        return TypedExpression(type: type) { context in
            for run in runs {
                let value = try run(context)
                if !value.isNull { return value }
            }
            return .null
        }
    }
}
