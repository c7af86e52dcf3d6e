import Foundation
import ObjectModel

/// Conversions between kinds of values: the library's `string(x)`, `integer(x)`, `date(x)`, … and the final
/// conversion of a value to its destination attribute's type.
enum ValueConversion {
    /// The kind of `value`, for messages.
    static func typeName(of value: ExpressionValue) -> String {
        switch value {
        case .null: "nil"
        case .integer: "integer"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .boolean: "boolean"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "uuid"
        case .uri: "uri"
        case .object: "object"
        case .objects: "objects"
        }
    }

    private static func fail(_ message: String, column: Int) -> EvaluationError {
        ValueOperations.fail(message, column: column)
    }

    /// `string(x)`: numbers as written, dates as ISO 8601, binary data as base64, UUIDs upper-case.
    static func string(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null: .null
        case .integer(let number): .string(String(number))
        case .double(let number): .string(String(number))
        case .decimal(let text), .string(let text), .uri(let text): .string(text)
        case .boolean(let flag): .string(flag ? "true" : "false")
        case .date(let seconds): .string(dateString(seconds))
        case .binary(let bytes): .string(Data(bytes).base64EncodedString())
        case .uuid(let uuid): .string(uuid.uuidString)
        case .object, .objects: throw fail("cannot turn \(typeName(of: value)) into a string", column: column)
        }
    }

    /// `integer(x)`: texts are parsed, fractions truncated toward zero, booleans are 0 or 1.
    static func integer(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null, .integer: return value
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let number = Int64(trimmed) { return .integer(number) }
            if let number = Double(trimmed) { return try integer(.double(number), column: column) }
            throw fail("'\(text)' is not an integer", column: column)
        case .double, .decimal, .date:
            let number: Double
            if case .date(let seconds) = value { number = seconds } else { number = ValueOperations.double(value)! }
            guard number.isFinite, let whole = Int64(exactly: number.rounded(.towardZero)) else {
                throw fail("\(number) does not fit an integer", column: column)
            }
            return .integer(whole)
        default: throw fail("cannot turn \(typeName(of: value)) into an integer", column: column)
        }
    }

    /// `double(x)`: numbers, number texts, booleans, dates (their seconds).
    static func double(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null, .double: return value
        case .integer, .decimal: return .double(ValueOperations.double(value)!)
        case .boolean(let flag): return .double(flag ? 1 : 0)
        case .date(let seconds): return .double(seconds)
        case .string(let text):
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw fail("'\(text)' is not a number", column: column)
            }
            return .double(number)
        default: throw fail("cannot turn \(typeName(of: value)) into a double", column: column)
        }
    }

    /// `decimal` conversion, for decimal destination attributes.
    static func decimal(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null, .decimal: return value
        case .integer(let number): return .decimal(String(number))
        case .double(let number):
            guard number.isFinite else { throw fail("\(number) does not fit a decimal", column: column) }
            return ValueOperations.decimalValue(Decimal(number))
        case .boolean(let flag): return .decimal(flag ? "1" : "0")
        case .string(let text):
            guard ValueOperations.decimal(.decimal(text)) != nil else {
                throw fail("'\(text)' is not a decimal number", column: column)
            }
            return .decimal(text.trimmingCharacters(in: .whitespaces))
        default: throw fail("cannot turn \(typeName(of: value)) into a decimal", column: column)
        }
    }

    /// `boolean(x)`: `true`/`yes`/`1` and `false`/`no`/`0` texts, numbers (non-zero is true).
    static func boolean(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null, .boolean: return value
        case .integer(let number): return .boolean(number != 0)
        case .double(let number): return .boolean(number != 0)
        case .decimal: return .boolean(ValueOperations.double(value) != 0)
        case .string(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1": return .boolean(true)
            case "false", "no", "0": return .boolean(false)
            default: throw fail("'\(text)' is not a boolean", column: column)
            }
        default: throw fail("cannot turn \(typeName(of: value)) into a boolean", column: column)
        }
    }

    /// `date(x)`: ISO 8601 text (`2024-05-01`, `2024-05-01T12:00:00Z`, with fractional seconds), or seconds
    /// since 2001 as a number or a number text.
    static func date(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null, .date: return value
        case .integer, .double, .decimal: return .date(ValueOperations.double(value)!)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let seconds = Double(trimmed) { return .date(seconds) }
            for style in isoStyles {
                if let date = try? style.parse(trimmed) { return .date(date.timeIntervalSinceReferenceDate) }
            }
            throw fail("'\(text)' is not an ISO 8601 date", column: column)
        default: throw fail("cannot turn \(typeName(of: value)) into a date", column: column)
        }
    }

    private static let isoStyles: [Date.ISO8601FormatStyle] = [
        Date.ISO8601FormatStyle(),
        Date.ISO8601FormatStyle(includingFractionalSeconds: true),
        Date.ISO8601FormatStyle().year().month().day(),
    ]

    /// ISO 8601 text of a date, in UTC, with milliseconds only when it has a fraction of a second.
    static func dateString(_ seconds: Double) -> String {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        let whole = seconds.rounded(.down) == seconds
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }

    /// `uuid(text)`: parses a UUID.
    static func uuid(_ value: ExpressionValue, column: Int) throws -> ExpressionValue {
        switch value {
        case .null, .uuid: return value
        case .string(let text):
            guard let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
                throw fail("'\(text)' is not a UUID", column: column)
            }
            return .uuid(uuid)
        default: throw fail("cannot turn \(typeName(of: value)) into a UUID", column: column)
        }
    }

    /// Converts a value to the type of a destination attribute, checking that integers fit its width.
    static func coerce(_ value: ExpressionValue, to type: AttributeType, column: Int) throws -> ExpressionValue {
        switch type {
        case .integer16, .integer32, .integer64:
            let converted = try integer(value, column: column)
            if case .integer(let number) = converted, let range = type.integerRange, !range.contains(number) {
                throw fail("\(number) does not fit \(type.rawValue)", column: column)
            }
            return converted
        case .double, .float: return try double(value, column: column)
        case .decimal: return try decimal(value, column: column)
        case .boolean: return try boolean(value, column: column)
        case .string:
            if case .string = value { return value }
            if case .uri(let text) = value { return .string(text) }
        case .uri:
            if case .uri = value { return value }
            if case .string(let text) = value { return .uri(text) }
        case .date:
            if case .date = value { return value }
        case .binary, .transformable:
            if case .binary = value { return value }
        case .uuid:
            if case .uuid = value { return value }
        case .objectID, .undefined:
            return value
        }
        if value.isNull { return value }
        throw fail("a \(typeName(of: value)) value does not fit a \(type.rawValue) attribute", column: column)
    }
}
