import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension MigrationSession {
    /// A stored value as an expression value of an attribute of `type`: decoded as the store layer decodes it
    /// (``PersistentStore``'s `AttributeValue(sqlite:as:)`); a value of a storage class the type does not take
    /// (a damaged store: text in an integer column) is carried on as stored, for the mapping to convert or
    /// refuse. Every value of the seven real Core Data stores in the fixtures has its type's storage class.
    static func expressionValue(_ value: SQLiteValue, as type: AttributeType) -> ExpressionValue {
        if let decoded = AttributeValue(sqlite: value, as: type) { return ExpressionValue(decoded) }
        return switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .double(number)
        case .text(let text): .string(text)
        case .blob(let bytes): .binary(bytes)
        }
    }

    /// The value as stored for an attribute of `type`, converting what Core Data would convert; `property` names
    /// the attribute in the error, made only when there is one (a policy's values name theirs per call).
    static func sqliteValue(
        _ value: ExpressionValue, as type: AttributeType, property: @autoclosure () -> String
    ) throws -> SQLiteValue {
        func mismatch() -> MigrationError {
            let property = property()
            return MigrationError(
                .evaluation, "'\(property)' (\(type.rawValue)) cannot hold \(value)", property: property,
                underlying: nil)
        }
        switch (value, type) {
        case (.null, _): return .null
        case (.integer(let number), .integer16), (.integer(let number), .integer32), (.integer(let number), .integer64):
            guard type.integerRange!.contains(number) else { throw mismatch() }
            return .integer(number)
        case (.double(let number), .integer16), (.double(let number), .integer32), (.double(let number), .integer64):
            guard number.isFinite, type.integerRange!.contains(Int64(number.rounded(.towardZero))) else {
                throw mismatch()
            }
            return .integer(Int64(number.rounded(.towardZero)))
        case (.boolean(let flag), .integer16), (.boolean(let flag), .integer32), (.boolean(let flag), .integer64),
            (.boolean(let flag), .boolean):
            return .integer(flag ? 1 : 0)
        case (.integer(let number), .boolean): return .integer(number != 0 ? 1 : 0)
        case (.double(let number), .double), (.double(let number), .float): return .real(number)
        case (.integer(let number), .double), (.integer(let number), .float): return .real(Double(number))
        case (.decimal(let text), .decimal): return .text(text)
        case (.integer(let number), .decimal): return .text(String(number))
        case (.double(let number), .decimal): return .text(String(number))
        case (.string(let text), .string), (.uri(let text), .string): return .text(text)
        case (.string(let text), .uri), (.uri(let text), .uri): return .text(text)
        case (.date(let seconds), .date): return .real(seconds)
        case (.binary(let bytes), .binary), (.binary(let bytes), .transformable): return .blob(bytes)
        case (.uuid(let uuid), .uuid): return AttributeValue.uuid(uuid).sqliteValue
        case (.string(let text), .uuid):
            guard let uuid = UUID(uuidString: text) else { throw mismatch() }
            return AttributeValue.uuid(uuid).sqliteValue
        case (.uuid(let uuid), .string): return .text(uuid.uuidString)
        default: throw mismatch()
        }
    }
}
