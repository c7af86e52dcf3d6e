import Foundation
import ObjectModel
import SQLiteDatabase

/// A text expression that SQLite can compute from the source row exactly as the compiled expression would:
/// string literals, `$source.x` of String attributes, `string($source.n)` of integer attributes, joined with
/// `+`. Decided by the compiler from the syntax; the engine renders it into its `INSERT … SELECT`.
///
/// The two agree only while each column read holds what its attribute type says (text, or an integer, or
/// NULL): ``guardSQL(column:)`` tests that per row, and a row that fails it must be computed by the compiled
/// expression instead (which then converts, or fails with its own error).
package indirect enum SQLForm: Sendable, Hashable {
    /// A string literal.
    case literal(String)
    /// A String attribute of the source row, by slot.
    case textAttribute(slot: Int)
    /// `string(…)` of an integer attribute of the source row, by slot: its decimal digits, as `String(n)`.
    case integerAsText(slot: Int)
    /// `a + b` of two texts; NULL when either is, as ``ValueOperations/add(_:_:column:)``.
    case concatenation(SQLForm, SQLForm)

    /// The SQL of the value, with `column(slot)` naming the source column of each attribute read.
    package func sql(column: (Int) -> String) -> String {
        switch self {
        case .literal(let text): SQLiteValue.text(text).sqlLiteral
        case .textAttribute(let slot): column(slot)
        case .integerAsText(let slot): "CAST(\(column(slot)) AS TEXT)"
        case .concatenation(let left, let right): "(\(left.sql(column: column)) || \(right.sql(column: column)))"
        }
    }

    /// SQL that is true when every column read holds what the form assumes; nil when it reads no column.
    package func guardSQL(column: (Int) -> String) -> String? {
        var tests: Set<String> = []
        var pending = [self]
        while let form = pending.popLast() {
            switch form {
            case .literal: break
            case .textAttribute(let slot): tests.insert("typeof(\(column(slot))) IN ('text', 'null')")
            case .integerAsText(let slot): tests.insert("typeof(\(column(slot))) IN ('integer', 'null')")
            case .concatenation(let left, let right): pending += [left, right]
            }
        }
        return tests.isEmpty ? nil : tests.sorted().joined(separator: " AND ")
    }

    /// The form of `syntax`, or nil when SQLite cannot compute it exactly as the compiled expression would.
    /// `attribute(key)` gives the slot and type of the source attribute `$source.key`.
    static func of(_ syntax: ExpressionSyntax, attribute: (String) -> (slot: Int, type: AttributeType)?) -> SQLForm? {
        switch syntax {
        case .literal(.string(let text), _):
            // SQLite text stops at a NUL byte in some functions; keep such literals in Swift.
            return text.utf8.contains(0) ? nil : .literal(text)
        case .member(.variable("source", _), let key, _):
            guard let found = attribute(key), found.type == .string else { return nil }
            return .textAttribute(slot: found.slot)
        case .call("string", let arguments, _) where arguments.count == 1:
            if case .member(.variable("source", _), let key, _) = arguments[0], let found = attribute(key),
                [.integer16, .integer32, .integer64].contains(found.type)
            {
                return .integerAsText(slot: found.slot)
            }
            // Every form is text, and `string(text)` is the text.
            return of(arguments[0], attribute: attribute)
        case .binary("+", let left, let right, _):
            guard let left = of(left, attribute: attribute), let right = of(right, attribute: attribute) else {
                return nil
            }
            return .concatenation(left, right)
        default:
            return nil
        }
    }
}
