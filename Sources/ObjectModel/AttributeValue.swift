public import Foundation

/// A typed value of an attribute: a default value in a model, or a value in a store.
public enum AttributeValue: Sendable, Hashable {
    case integer(Int64)
    case double(Double)
    /// A decimal number kept as its text, exactly as written.
    case decimal(String)
    case string(String)
    case boolean(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, Core Data's reference date.
    case date(Double)
    case binary([UInt8])
    case uuid(UUID)
    case uri(String)

    /// Parses a default value as Xcode writes it (`defaultValueString`) for an attribute of `type`.
    ///
    /// Accepts what Core Data accepts: `YES`/`NO` for numbers and booleans, integers written with a
    /// fraction, and so on. The second element describes any coercion, for a warning.
    public static func parse(_ text: String, as type: AttributeType) -> (value: AttributeValue, coercion: String?)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            if let value = Int64(trimmed) { return (.integer(value), nil) }
            if let flag = Self.yesNo(trimmed) {
                return (.integer(flag ? 1 : 0), "boolean text '\(text)' read as \(flag ? 1 : 0)")
            }
            if let value = Double(trimmed), value.isFinite, value.rounded(.towardZero) == value,
                abs(value) < 9.2e18
            {
                return (.integer(Int64(value)), "'\(text)' read as the integer \(Int64(value))")
            }
            return nil
        case .boolean:
            if let flag = Self.yesNo(trimmed) { return (.boolean(flag), nil) }
            if let value = Int64(trimmed) { return (.boolean(value != 0), "'\(text)' read as \(value != 0)") }
            return nil
        case .double, .float:
            if let value = Double(trimmed) { return (.double(value), nil) }
            if let flag = Self.yesNo(trimmed) {
                return (.double(flag ? 1 : 0), "boolean text '\(text)' read as \(flag ? 1 : 0)")
            }
            return nil
        case .decimal:
            guard Decimal(string: trimmed) != nil else { return nil }
            return (.decimal(trimmed), nil)
        case .string:
            return (.string(text), nil)
        case .uri:
            return (.uri(text), nil)
        case .uuid:
            guard let uuid = UUID(uuidString: trimmed) else { return nil }
            return (.uuid(uuid), nil)
        case .date:
            guard let seconds = Double(trimmed) else { return nil }
            return (.date(seconds), nil)
        case .binary, .transformable, .objectID, .undefined:
            return nil
        }
    }

    private static func yesNo(_ text: String) -> Bool? {
        switch text.uppercased() {
        case "YES", "TRUE": true
        case "NO", "FALSE": false
        default: nil
        }
    }
}
