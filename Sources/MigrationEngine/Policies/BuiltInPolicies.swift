import Foundation
import MappingModel
import ObjectModel

/// The policies this package ships, for needs seen in real apps. Each reads its settings from the entity
/// mapping's `userInfo`, so mapping files can use them without code:
///
/// | name | what it does | userInfo |
/// |---|---|---|
/// | `AssignNewIdentifier` | gives every migrated object a new UUID (primary-key adoption) | `attribute` |
/// | `DropAllRows` | migrates none of the entity's objects | — |
/// | `SplitAttributeIntoEntity` | moves an attribute's value into a new related object | `attribute`, `entity`, `targetAttribute`, `relationship`, optional `identifierAttribute` |
/// | `FindOrCreate` | relates every object to one shared object per distinct value, merging duplicates | `attribute`, `entity`, `keyAttribute`, `relationship` |
/// | `ConvertType` | converts a value to the destination attribute's type (text ↔ numbers, dates, booleans, UUIDs) | `attribute`, optional `sourceAttribute` |
public enum BuiltInPolicies {
    /// Every built-in policy by name.
    public static let all: [String: PolicyRegistry.Factory] = [
        "AssignNewIdentifier": { AssignNewIdentifierPolicy() },
        "DropAllRows": { DropAllRowsPolicy() },
        "SplitAttributeIntoEntity": { SplitAttributeIntoEntityPolicy() },
        "FindOrCreate": { FindOrCreatePolicy() },
        "ConvertType": { ConvertTypePolicy() },
    ]

    static func setting(_ key: String, of mapping: EntityMapping) throws -> String {
        guard let value = mapping.userInfo[key], !value.isEmpty else {
            throw MigrationError(
                .policy,
                "entity mapping '\(mapping.name)' (\(mapping.policyDescription ?? "no policy")) needs userInfo "
                    + "'\(key)'", entityMapping: mapping.name, underlying: nil)
        }
        return value
    }

    /// What a setting of a built-in policy names.
    enum Setting {
        /// An attribute of the source entity.
        case sourceAttribute
        /// A destination entity.
        case entity
        /// An attribute of the entity named by the setting `entity` (or of the destination entity).
        case attribute(of: String?)
        /// A relationship of the destination entity.
        case relationship
    }

    /// Checks, before the first object, that `settings` (required unless marked optional) name what they must,
    /// so that a typo fails naming the mapping file, the entity mapping, the policy and the setting.
    static func check(
        _ settings: [(key: String, names: Setting, optional: Bool)], of mapping: EntityMapping,
        in session: MigrationSession
    ) throws {
        func fail(_ key: String, _ problem: String) -> MigrationError {
            MigrationError(
                .policy, "\(session.policyPlace)setting '\(key)': \(problem)", entityMapping: mapping.name,
                underlying: nil)
        }
        for (key, names, optional) in settings {
            guard let value = mapping.userInfo[key], !value.isEmpty else {
                if optional { continue }
                throw fail(key, "needs a value (in the binding's or the entity mapping's userInfo)")
            }
            switch names {
            case .sourceAttribute:
                let entity = mapping.sourceEntity ?? ""
                guard session.sourceVersion.attribute(value, of: entity) != nil else {
                    throw fail(key, "source entity '\(entity)' has no attribute '\(value)'")
                }
            case .entity:
                guard session.destinationVersion.entity(named: value) != nil else {
                    throw fail(key, "version '\(session.destinationVersion.name)' has no entity '\(value)'")
                }
            case .attribute(let entitySetting):
                let entity = entitySetting.flatMap { mapping.userInfo[$0] } ?? mapping.destinationEntity ?? ""
                guard session.destinationVersion.attribute(value, of: entity) != nil else {
                    throw fail(key, "'\(entity)' has no attribute '\(value)'")
                }
            case .relationship:
                let entity = mapping.destinationEntity ?? ""
                guard session.destinationVersion.relationship(value, of: entity) != nil else {
                    throw fail(key, "'\(entity)' has no relationship '\(value)'")
                }
            }
        }
    }
}

/// Gives every migrated object a new UUID in `userInfo["attribute"]` (a UUID or String attribute).
final class AssignNewIdentifierPolicy: EntityMigrationPolicy {
    var answeredSelectors: Set<String>? { [] }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try BuiltInPolicies.check([("attribute", .attribute(of: nil), false)], of: mapping, in: session)
    }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let attribute = try BuiltInPolicies.setting("attribute", of: mapping)
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        try session.setValue(.uuid(session.makeUUID()), forKey: attribute, of: destination)
    }
}

/// Migrates none of the entity's objects.
final class DropAllRowsPolicy: EntityMigrationPolicy {
    var answeredSelectors: Set<String>? { [] }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
    }
}

/// Moves the value of source attribute `attribute` into a new object of `entity` (its `targetAttribute`),
/// related to the migrated object through `relationship`; `identifierAttribute`, if given, gets a new UUID.
/// Objects whose value is nil get no new object.
final class SplitAttributeIntoEntityPolicy: EntityMigrationPolicy {
    var answeredSelectors: Set<String>? { [] }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try BuiltInPolicies.check(
            [
                ("attribute", .sourceAttribute, false), ("entity", .entity, false),
                ("targetAttribute", .attribute(of: "entity"), false), ("relationship", .relationship, false),
                ("identifierAttribute", .attribute(of: "entity"), true),
            ], of: mapping, in: session)
    }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let attribute = try BuiltInPolicies.setting("attribute", of: mapping)
        let entity = try BuiltInPolicies.setting("entity", of: mapping)
        let target = try BuiltInPolicies.setting("targetAttribute", of: mapping)
        let relationship = try BuiltInPolicies.setting("relationship", of: mapping)
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        let value = try session.sourceValue(attribute)
        guard !value.isNull else { return }
        let split = try session.createDestinationInstance(entity: entity)
        try session.setValue(value, forKey: target, of: split)
        if let identifier = mapping.userInfo["identifierAttribute"] {
            let uuid = session.makeUUID()
            let type = session.destinationVersion.attribute(identifier, of: entity)?.type
            try session.setValue(
                type == .string ? .string(uuid.uuidString) : .uuid(uuid), forKey: identifier, of: split)
        }
        try session.setValue(.object(split), forKey: relationship, of: destination)
    }
}

/// Relates every migrated object, through `relationship`, to the one object of `entity` whose `keyAttribute`
/// equals the source's `attribute` — found, or created the first time the value is seen. Duplicates merge.
final class FindOrCreatePolicy: EntityMigrationPolicy {
    var answeredSelectors: Set<String>? { [] }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try BuiltInPolicies.check(
            [
                ("attribute", .sourceAttribute, false), ("entity", .entity, false),
                ("keyAttribute", .attribute(of: "entity"), false), ("relationship", .relationship, false),
            ], of: mapping, in: session)
    }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let attribute = try BuiltInPolicies.setting("attribute", of: mapping)
        let entity = try BuiltInPolicies.setting("entity", of: mapping)
        let key = try BuiltInPolicies.setting("keyAttribute", of: mapping)
        let relationship = try BuiltInPolicies.setting("relationship", of: mapping)
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        let value = try session.sourceValue(attribute)
        guard !value.isNull else { return }
        let object: ObjectID
        let group = "\(entity).\(key)"
        if let existing = session.objects.sharedObjects[group]?[value] {
            object = existing
        } else {
            object = try session.createDestinationInstance(entity: entity)
            try session.setValue(value, forKey: key, of: object)
            session.objects.sharedObjects[group, default: [:]][value] = object
        }
        try session.setValue(.object(object), forKey: relationship, of: destination)
    }
}

/// Converts source attribute `sourceAttribute` (default: `attribute`) to the type of destination attribute
/// `attribute`: text to and from integers, decimals, doubles, booleans (`YES`/`true`/`1`), dates
/// (ISO 8601 or seconds since 2001) and UUIDs.
final class ConvertTypePolicy: EntityMigrationPolicy {
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
