import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension MigrationSession {
    /// A stored value as an expression value of an attribute of `type`.
    static func expressionValue(_ value: SQLiteValue, as type: AttributeType) -> ExpressionValue {
        switch (type, value) {
        case (_, .null): .null
        case (.boolean, .integer(let number)): .boolean(number != 0)
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)), (.integer64, .integer(let number)):
            .integer(number)
        case (.date, .real(let number)): .date(number)
        case (.date, .integer(let number)): .date(Double(number))
        case (.double, .real(let number)), (.float, .real(let number)): .double(number)
        case (.double, .integer(let number)), (.float, .integer(let number)): .double(Double(number))
        case (.decimal, .text(let text)): .decimal(text)
        case (.decimal, .integer(let number)): .decimal(String(number))
        case (.decimal, .real(let number)): .decimal(String(number))
        case (.uri, .text(let text)): .uri(text)
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (_, .text(let text)): .string(text)
        case (_, .blob(let bytes)): .binary(bytes)
        case (_, .integer(let number)): .integer(number)
        case (_, .real(let number)): .double(number)
        }
    }

    /// The value as stored for an attribute of `type`, converting what Core Data would convert.
    static func sqliteValue(_ value: ExpressionValue, as type: AttributeType, property: String) throws -> SQLiteValue {
        func mismatch() -> MigrationError {
            MigrationError(
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
