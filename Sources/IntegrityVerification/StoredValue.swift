import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// How values are stored and compared, re-derived from Core Data's layout rather than taken from the engine.
enum StoredValue {
    /// The value an attribute of `type` stores for `value`; nil when it cannot hold it.
    static func expected(_ value: ExpressionValue, as type: AttributeType) -> SQLiteValue? {
        switch (value, type) {
        case (.null, _): return .null
        case (.integer(let number), _) where type.integerRange != nil && type != .boolean:
            return type.integerRange!.contains(number) ? .integer(number) : nil
        case (.integer(let number), .boolean): return .integer(number != 0 ? 1 : 0)
        case (.double(let number), _) where type.integerRange != nil && type != .boolean:
            guard number.isFinite else { return nil }
            return .integer(Int64(number.rounded(.towardZero)))
        case (.boolean(let flag), _) where type.isInteger: return .integer(flag ? 1 : 0)
        case (.double(let number), .boolean): return .integer(number != 0 ? 1 : 0)
        case (.decimal(let text), _) where type.isInteger || type == .double || type == .float:
            // A numeric type change: the decimal's number, truncated toward zero for an integer.
            guard let number = Double(text), number.isFinite else { return nil }
            if type == .boolean { return .integer(number != 0 ? 1 : 0) }
            return type.isInteger ? .integer(Int64(number.rounded(.towardZero))) : .real(number)
        case (.boolean(let flag), .double), (.boolean(let flag), .float): return .real(flag ? 1 : 0)
        case (.boolean(let flag), .decimal): return .text(flag ? "1" : "0")
        case (.integer(let number), .double), (.integer(let number), .float): return .real(Double(number))
        case (.double(let number), .double), (.double(let number), .float), (.date(let number), .date):
            return .real(number)
        case (.decimal(let text), .decimal): return .text(text)
        case (.integer(let number), .decimal): return .text(String(number))
        case (.double(let number), .decimal): return .text(String(number))
        case (.string(let text), .string), (.uri(let text), .string), (.string(let text), .uri), (.uri(let text), .uri):
            return .text(text)
        case (.binary(let bytes), .binary), (.binary(let bytes), .transformable): return .blob(bytes)
        case (.uuid(let uuid), .uuid): return AttributeValue.uuid(uuid).sqliteValue
        case (.uuid(let uuid), .string): return .text(uuid.uuidString)
        default: return nil
        }
    }

    /// Whether the stored `actual` is `expected`; integers in real-typed columns compare as reals, and a
    /// decimal's text compares with the number SQLite's NUMERIC affinity turned it into.
    static func matches(_ actual: SQLiteValue, _ expected: SQLiteValue, type: AttributeType) -> Bool {
        if actual == expected { return true }
        if type == .decimal {
            let numbers = [actual, expected].map { $0.string.flatMap(Double.init) ?? $0.double }
            if let left = numbers[0], let right = numbers[1] { return left == right }
        }
        if let left = actual.double, let right = expected.double, actual.kind != .text, expected.kind != .text {
            return left == right
        }
        return false
    }

    /// Whether column `column` of the current row of `row` holds `expected`, as ``matches(_:_:type:)`` says,
    /// read without copying where the storage classes agree (text compared byte for byte).
    static func matches(_ row: Statement, _ column: Int32, _ expected: SQLiteValue, type: AttributeType) -> Bool {
        switch (expected, row.columnType(column)) {
        case (.text(var text), .text):
            let equal = text.withUTF8 { utf8 in
                row.withUnsafeText(column) { $0.elementsEqual(UnsafeRawBufferPointer(utf8)) }
            }
            return equal || matches(row.value(column), expected, type: type)
        case (.integer(let number), .integer): return row.int64(column) == number
        case (.real(let number), .real) where row.double(column) == number: return true
        case (.null, .null): return true
        default: return matches(row.value(column), expected, type: type)
        }
    }

    /// Whether `value` is a new identifier as an attribute of `type` stores it: 16 bytes for a UUID, the
    /// UUID's text for a string.
    static func isIdentifier(_ value: SQLiteValue, type: AttributeType) -> Bool {
        switch (value, type) {
        case (.blob(let bytes), .uuid): bytes.count == 16
        case (.text(let text), .string), (.text(let text), .uri): UUID(uuidString: text) != nil
        default: false
        }
    }

    /// A short description of a stored value for an example.
    static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "nil"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}
