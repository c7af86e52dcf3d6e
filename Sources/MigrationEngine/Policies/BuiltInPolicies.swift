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

    /// The relationship named by `mapping`'s `relationship` setting, which a policy that has one sets itself in
    /// stage 1 (``DefaultRelationshipCreation/relationshipsSetInStageOne(by:)``).
    static func relationshipNamed(by mapping: EntityMapping) -> Set<String> {
        Set(mapping.userInfo["relationship"].map { [$0] } ?? [])
    }

    static func setting(_ key: String, of mapping: EntityMapping) throws -> String {
        guard let value = mapping.userInfo[key], !value.isEmpty else {
            throw MigrationError(
                .policy,
                "entity mapping '\(mapping.name)' (\(mapping.policyDescription ?? "no policy")) needs userInfo "
                    + "'\(key)'", entityMapping: mapping.name, underlying: nil)
        }
        return value
    }

    /// A built-in policy's settings for the mapping it runs, read from the mapping's `userInfo` for its first
    /// object and kept, rather than looked up (and checked) again for every object.
    final class Settings<Values> {
        private var mapping: String?
        private var values: Values?

        /// The settings of `mapping`, made by `read` the first time (or when the policy runs another mapping).
        func of(_ mapping: EntityMapping, _ read: (EntityMapping) throws -> Values) throws -> Values {
            if let values, self.mapping == mapping.name { return values }
            let values = try read(mapping)
            (self.mapping, self.values) = (mapping.name, values)
            return values
        }
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
