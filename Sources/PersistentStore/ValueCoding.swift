import Foundation
public import ObjectModel
public import SQLiteDatabase

extension AttributeValue {
    /// The value as Core Data stores it in SQLite: booleans as 0/1, dates as seconds since 2001,
    /// UUIDs as 16 bytes, decimals as text.
    public var sqliteValue: SQLiteValue {
        switch self {
        case .integer(let value): .integer(value)
        case .boolean(let value): .integer(value ? 1 : 0)
        case .double(let value), .date(let value): .real(value)
        case .decimal(let text), .string(let text), .uri(let text): .text(text)
        case .binary(let bytes): .blob(bytes)
        case .uuid(let uuid): .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        }
    }

    /// Reads a stored value of an attribute of `type`; nil for NULL or a value of the wrong kind.
    public init?(sqlite value: SQLiteValue, as type: AttributeType) {
        switch (type, value) {
        case (_, .null): return nil
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)), (.integer64, .integer(let number)):
            self = .integer(number)
        case (.boolean, .integer(let number)): self = .boolean(number != 0)
        case (.double, .real(let number)), (.float, .real(let number)): self = .double(number)
        case (.double, .integer(let number)), (.float, .integer(let number)): self = .double(Double(number))
        case (.date, .real(let seconds)): self = .date(seconds)
        case (.date, .integer(let seconds)): self = .date(Double(seconds))
        case (.decimal, .text(let text)): self = .decimal(text)
        case (.decimal, .integer(let number)): self = .decimal(String(number))
        case (.decimal, .real(let number)): self = .decimal(String(number))
        case (.string, .text(let text)): self = .string(text)
        case (.uri, .text(let text)): self = .uri(text)
        case (.binary, .blob(let bytes)), (.transformable, .blob(let bytes)): self = .binary(bytes)
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            self = .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        default: return nil
        }
    }
}
