import Foundation
import MappingModel
import ObjectModel

/// Converts source attribute `sourceAttribute` (default: `attribute`) to the type of destination attribute
/// `attribute`: text to and from integers, decimals, doubles, booleans (`YES`/`true`/`1`), dates
/// (ISO 8601 or seconds since 2001) and UUIDs.
final class ConvertTypePolicy: EntityMigrationPolicy, DefaultRelationshipCreation {
    var answeredSelectors: Set<String>? { [] }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try BuiltInPolicies.check(
            [("attribute", .attribute(of: nil), false), ("sourceAttribute", .sourceAttribute, true)], of: mapping,
            in: session)
    }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let attribute = try BuiltInPolicies.setting("attribute", of: mapping)
        let sourceAttribute = mapping.userInfo["sourceAttribute"] ?? attribute
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        let entity = mapping.destinationEntity ?? ""
        guard let type = session.destinationVersion.attribute(attribute, of: entity)?.type else {
            throw MigrationError(
                .policy, "'\(entity)' has no attribute '\(attribute)' to convert into", entityMapping: mapping.name,
                entity: entity, property: attribute, underlying: nil)
        }
        let value = try session.sourceValue(sourceAttribute)
        try session.setValue(try Self.convert(value, to: type), forKey: attribute, of: destination)
    }

    static func convert(_ value: ExpressionValue, to type: AttributeType) throws -> ExpressionValue {
        func fail() -> MigrationError { MigrationError(.evaluation, "cannot convert \(value) to \(type.rawValue)") }
        if value.isNull { return .null }
        let text: String? =
            switch value {
            case .string(let text), .uri(let text), .decimal(let text): text.trimmingCharacters(in: .whitespaces)
            default: nil
            }
        switch type {
        case .integer16, .integer32, .integer64:
            if case .integer = value { return value }
            if case .double(let number) = value { return .integer(Int64(number.rounded(.towardZero))) }
            if case .boolean(let flag) = value { return .integer(flag ? 1 : 0) }
            guard let text, let number = Int64(text) ?? Double(text).map({ Int64($0.rounded(.towardZero)) }) else {
                throw fail()
            }
            return .integer(number)
        case .double, .float:
            if case .double = value { return value }
            if case .integer(let number) = value { return .double(Double(number)) }
            guard let text, let number = Double(text) else { throw fail() }
            return .double(number)
        case .decimal:
            if case .integer(let number) = value { return .decimal(String(number)) }
            if case .double(let number) = value { return .decimal(String(number)) }
            guard let text, Decimal(string: text) != nil else { throw fail() }
            return .decimal(text)
        case .boolean:
            if case .boolean = value { return value }
            if case .integer(let number) = value { return .boolean(number != 0) }
            switch text?.lowercased() {
            case "yes", "true", "1": return .boolean(true)
            case "no", "false", "0", "": return .boolean(false)
            default: throw fail()
            }
        case .date:
            if case .date = value { return value }
            if case .double(let seconds) = value { return .date(seconds) }
            if case .integer(let seconds) = value { return .date(Double(seconds)) }
            guard let text else { throw fail() }
            if let seconds = Double(text) { return .date(seconds) }
            guard let date = ISO8601DateFormatter().date(from: text) else { throw fail() }
            return .date(date.timeIntervalSinceReferenceDate)
        case .uuid:
            if case .uuid = value { return value }
            guard let text, let uuid = UUID(uuidString: text) else { throw fail() }
            return .uuid(uuid)
        case .string, .uri:
            switch value {
            case .string, .uri: return value
            case .integer(let number): return .string(String(number))
            case .double(let number): return .string(String(number))
            case .decimal(let text): return .string(text)
            case .boolean(let flag): return .string(flag ? "YES" : "NO")
            case .uuid(let uuid): return .string(uuid.uuidString)
            case .date(let seconds):
                return .string(ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: seconds)))
            default: throw fail()
            }
        default:
            return value
        }
    }
}
