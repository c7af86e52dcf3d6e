import Foundation
import MappingModel
import ObjectModel

/// The entity migration policies this package ships, known to the verifier by name and documented settings
/// only, never by their code: what each one makes is re-derived from the mapping's user info and the source
/// store.
enum BuiltInPolicy: String {
    /// Every migrated object gets a new UUID in `attribute`.
    case assignNewIdentifier = "AssignNewIdentifier"
    /// No object is migrated.
    case dropAllRows = "DropAllRows"
    /// The value of source `attribute` moves into a new object of `entity` (its `targetAttribute`), related
    /// through `relationship`; `identifierAttribute`, if given, gets a new UUID. Nil values make no object.
    case splitAttributeIntoEntity = "SplitAttributeIntoEntity"
    /// Every migrated object is related through `relationship` to the one object of `entity` whose
    /// `keyAttribute` equals the source's `attribute`; nil values relate to nothing.
    case findOrCreate = "FindOrCreate"
    /// Destination `attribute` holds source `sourceAttribute` (default: `attribute`) converted to its type.
    case convertType = "ConvertType"

    /// The built-in policy `mapping` names, or nil for none or a custom one.
    init?(_ mapping: EntityMapping) {
        guard let name = mapping.policy else { return nil }
        self.init(rawValue: name)
    }

    /// Whether the policy makes objects of another entity (`userInfo["entity"]`).
    var makesObjects: Bool { self == .splitAttributeIntoEntity || self == .findOrCreate }
}

extension EntityMapping {
    /// The objects of other entities that the mapping's policy makes beside its own: those a Swift policy
    /// declares, or those a built-in policy's settings describe (a setting left out reads as an empty name,
    /// which the check reports as unusable).
    var madeObjects: [MadeObjects] {
        if let declaration { return declaration.makes }
        guard let policy = BuiltInPolicy(self), policy.makesObjects else { return [] }
        let shared = policy == .findOrCreate
        return [
            MadeObjects(
                rule: shared ? .onePerValue : .onePerObject, entity: userInfo["entity"] ?? "",
                relationship: userInfo["relationship"] ?? "", sourceAttribute: userInfo["attribute"] ?? "",
                attribute: userInfo[shared ? "keyAttribute" : "targetAttribute"] ?? "",
                identifierAttribute: shared ? nil : userInfo["identifierAttribute"])
        ]
    }
}

/// ``BuiltInPolicy/convertType``'s conversions, re-derived from its documentation: text to and from
/// integers, decimals, doubles, booleans (`YES`/`true`/`1`), dates (ISO 8601 or seconds since 2001) and UUIDs.
enum TypeConversion {
    /// `value` converted to `type`; nil when it cannot be (the migration must then have failed).
    static func convert(_ value: ExpressionValue, to type: AttributeType) -> ExpressionValue? {
        if value.isNull { return .null }
        var text: String?
        switch value {
        case .string(let string), .uri(let string), .decimal(let string):
            text = string.trimmingCharacters(in: .whitespaces)
        default: text = nil
        }
        switch (type, value) {
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer): return value
        case (.integer16, .double(let number)), (.integer32, .double(let number)), (.integer64, .double(let number)):
            return integer(number)
        case (.integer16, .boolean(let flag)), (.integer32, .boolean(let flag)), (.integer64, .boolean(let flag)):
            return .integer(flag ? 1 : 0)
        case (.integer16, _), (.integer32, _), (.integer64, _):
            guard let text else { return nil }
            if let number = Int64(text) { return .integer(number) }
            return Double(text).flatMap(integer)
        case (.double, .double), (.float, .double): return value
        case (.double, .integer(let number)), (.float, .integer(let number)): return .double(Double(number))
        case (.double, _), (.float, _): return text.flatMap(Double.init).map { .double($0) }
        case (.decimal, .integer(let number)): return .decimal(String(number))
        case (.decimal, .double(let number)): return .decimal(String(number))
        case (.decimal, _):
            guard let text, Decimal(string: text) != nil else { return nil }
            return .decimal(text)
        case (.boolean, .boolean): return value
        case (.boolean, .integer(let number)): return .boolean(number != 0)
        case (.boolean, _):
            switch text?.lowercased() {
            case "yes", "true", "1": return .boolean(true)
            case "no", "false", "0", "": return .boolean(false)
            default: return nil
            }
        case (.date, .date): return value
        case (.date, .double(let seconds)): return .date(seconds)
        case (.date, .integer(let seconds)): return .date(Double(seconds))
        case (.date, _):
            guard let text else { return nil }
            if let seconds = Double(text) { return .date(seconds) }
            return ISO8601DateFormatter().date(from: text).map { .date($0.timeIntervalSinceReferenceDate) }
        case (.uuid, .uuid): return value
        case (.uuid, _): return text.flatMap(UUID.init(uuidString:)).map { .uuid($0) }
        case (.string, .string), (.string, .uri), (.uri, .string), (.uri, .uri): return value
        case (.string, .integer(let number)), (.uri, .integer(let number)): return .string(String(number))
        case (.string, .double(let number)), (.uri, .double(let number)): return .string(String(number))
        case (.string, .decimal(let string)), (.uri, .decimal(let string)): return .string(string)
        case (.string, .boolean(let flag)), (.uri, .boolean(let flag)): return .string(flag ? "YES" : "NO")
        case (.string, .uuid(let uuid)), (.uri, .uuid(let uuid)): return .string(uuid.uuidString)
        case (.string, .date(let seconds)), (.uri, .date(let seconds)):
            return .string(ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: seconds)))
        case (.string, _), (.uri, _): return nil
        default: return value
        }
    }

    private static func integer(_ number: Double) -> ExpressionValue? {
        guard number.isFinite, let whole = Int64(exactly: number.rounded(.towardZero)) else { return nil }
        return .integer(whole)
    }
}
