import Foundation

/// The run-time meaning of the operators on ``ExpressionValue``s. `nil` propagates through arithmetic, and
/// numbers of different kinds are promoted (integer → decimal → double) before they are combined.
enum ValueOperations {
    private enum Numbers {
        case integers(Int64, Int64)
        case decimals(Decimal, Decimal)
        case doubles(Double, Double)
    }

    private static func numbers(_ left: ExpressionValue, _ right: ExpressionValue) -> Numbers? {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return .integers(a, b)
        case (.double(let a), .double(let b)): return .doubles(a, b)
        default: break
        }
        if case .double = left, let b = double(right) { return double(left).map { .doubles($0, b) } }
        if case .double = right, let a = double(left) { return double(right).map { .doubles(a, $0) } }
        guard let a = decimal(left), let b = decimal(right) else { return nil }
        return .decimals(a, b)
    }

    static func double(_ value: ExpressionValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .double(let number): number
        case .decimal(let text): Double(text)
        default: nil
        }
    }

    static func decimal(_ value: ExpressionValue) -> Decimal? {
        switch value {
        case .integer(let number): Decimal(number)
        case .decimal(let text): Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        default: nil
        }
    }

    static func decimalValue(_ number: Decimal) -> ExpressionValue { .decimal("\(number)") }

    static func fail(_ message: String, column: Int) -> EvaluationError {
        EvaluationError(message, expression: "", column: column)
    }

    // MARK: - Arithmetic

    /// `left + right`: numbers, strings (concatenation), or a date plus seconds.
    static func add(_ left: ExpressionValue, _ right: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch (left, right) {
        case (.null, _), (_, .null): return .null
        case (.string(let a), .string(let b)), (.string(let a), .uri(let b)), (.uri(let a), .string(let b)):
            return .string(a + b)
        case (.date(let a), _) where double(right) != nil: return .date(a + double(right)!)
        case (_, .date(let b)) where double(left) != nil: return .date(double(left)! + b)
        default: break
        }
        switch numbers(left, right) {
        case .integers(let a, let b):
            let (sum, overflow) = a.addingReportingOverflow(b)
            if overflow { throw fail("integer overflow in \(a) + \(b)", column: column) }
            return .integer(sum)
        case .decimals(let a, let b): return decimalValue(a + b)
        case .doubles(let a, let b): return .double(a + b)
        case nil: throw mismatch("+", left, right, column: column)
        }
    }

    /// `left - right`: numbers, a date minus seconds, or the seconds between two dates.
    static func subtract(_ left: ExpressionValue, _ right: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch (left, right) {
        case (.null, _), (_, .null): return .null
        case (.date(let a), .date(let b)): return .double(a - b)
        case (.date(let a), _) where double(right) != nil: return .date(a - double(right)!)
        default: break
        }
        switch numbers(left, right) {
        case .integers(let a, let b):
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            if overflow { throw fail("integer overflow in \(a) - \(b)", column: column) }
            return .integer(difference)
        case .decimals(let a, let b): return decimalValue(a - b)
        case .doubles(let a, let b): return .double(a - b)
        case nil: throw mismatch("-", left, right, column: column)
        }
    }

    /// `left * right`.
    static func multiply(_ left: ExpressionValue, _ right: ExpressionValue, column: Int) throws -> ExpressionValue {
        if left.isNull || right.isNull { return .null }
        switch numbers(left, right) {
        case .integers(let a, let b):
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            if overflow { throw fail("integer overflow in \(a) * \(b)", column: column) }
            return .integer(product)
        case .decimals(let a, let b): return decimalValue(a * b)
        case .doubles(let a, let b): return .double(a * b)
        case nil: throw mismatch("*", left, right, column: column)
        }
    }

    /// `left / right`; two integers divide to an integer (truncating), like Swift.
    static func divide(_ left: ExpressionValue, _ right: ExpressionValue, column: Int) throws -> ExpressionValue {
        if left.isNull || right.isNull { return .null }
        switch numbers(left, right) {
        case .integers(let a, let b):
            guard b != 0 else { throw fail("division by zero", column: column) }
            let (quotient, overflow) = a.dividedReportingOverflow(by: b)
            if overflow { throw fail("integer overflow in \(a) / \(b)", column: column) }
            return .integer(quotient)
        case .decimals(let a, let b):
            guard !b.isZero else { throw fail("division by zero", column: column) }
            return decimalValue(a / b)
        case .doubles(let a, let b):
            guard b != 0 else { throw fail("division by zero", column: column) }
            return .double(a / b)
        case nil: throw mismatch("/", left, right, column: column)
        }
    }

    /// `left % right`: the remainder of the truncating division.
    static func remainder(_ left: ExpressionValue, _ right: ExpressionValue, column: Int) throws -> ExpressionValue {
        if left.isNull || right.isNull { return .null }
        switch numbers(left, right) {
        case .integers(let a, let b):
            guard b != 0 else { throw fail("division by zero", column: column) }
            return .integer(a.remainderReportingOverflow(dividingBy: b).partialValue)
        case .decimals, .doubles:
            guard let a = double(left), let b = double(right), b != 0 else {
                throw fail("division by zero", column: column)
            }
            return .double(a.truncatingRemainder(dividingBy: b))
        case nil: throw mismatch("%", left, right, column: column)
        }
    }

    /// `-value`.
    static func negate(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null: return .null
        case .integer(let number):
            guard number != .min else { throw fail("integer overflow in -(\(number))", column: column) }
            return .integer(-number)
        case .double(let number): return .double(-number)
        case .decimal: return decimalValue(-decimal(value)!)
        default: throw fail("cannot negate \(ValueConversion.typeName(of: value))", column: column)
        }
    }

    private static func mismatch(
        _ symbol: String,
        _ left: ExpressionValue,
        _ right: ExpressionValue,
        column: Int
    ) -> EvaluationError {
        fail(
            "cannot apply '\(symbol)' to \(ValueConversion.typeName(of: left)) and "
                + ValueConversion.typeName(of: right), column: column)
    }

    // MARK: - Comparison and logic

    /// Whether two values are equal; numbers of different kinds compare by value, `nil` equals only `nil`.
    static func equal(_ left: ExpressionValue, _ right: ExpressionValue) -> Bool {
        if left == right { return true }
        switch (left, right) {
        case (.string(let a), .uri(let b)), (.uri(let a), .string(let b)): return a == b
        default: break
        }
        switch numbers(left, right) {
        case .integers(let a, let b): return a == b
        case .decimals(let a, let b): return a == b
        case .doubles(let a, let b): return a == b
        case nil: return false
        }
    }

    /// The order of two values (-1, 0, 1), or nil when they have none (`nil`, or different kinds).
    static func compare(_ left: ExpressionValue, _ right: ExpressionValue) -> Int? {
        switch (left, right) {
        case (.string(let a), .string(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.date(let a), .date(let b)): return a < b ? -1 : a == b ? 0 : 1
        default: break
        }
        switch numbers(left, right) {
        case .integers(let a, let b): return a < b ? -1 : a == b ? 0 : 1
        case .decimals(let a, let b): return a < b ? -1 : a == b ? 0 : 1
        case .doubles(let a, let b): return a < b ? -1 : a == b ? 0 : 1
        case nil: return nil
        }
    }

    /// The value of a comparison operator; an order comparison with `nil` is false.
    static func comparison(_ symbol: String) -> @Sendable (ExpressionValue, ExpressionValue) -> Bool {
        switch symbol {
        case "==": { equal($0, $1) }
        case "!=": { !equal($0, $1) }
        case "<": { compare($0, $1).map { $0 < 0 } ?? false }
        case "<=": { compare($0, $1).map { $0 <= 0 } ?? false }
        case ">": { compare($0, $1).map { $0 > 0 } ?? false }
        default: { compare($0, $1).map { $0 >= 0 } ?? false }
        }
    }

    /// Whether a condition holds: `true`, a non-zero number; `nil` and everything else is false.
    static func truth(_ value: ExpressionValue) -> Bool {
        switch value {
        case .boolean(let flag): flag
        case .integer(let number): number != 0
        default: false
        }
    }
}
