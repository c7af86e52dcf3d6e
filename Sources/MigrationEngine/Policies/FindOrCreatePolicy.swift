import Foundation
import MappingModel
import ObjectModel

/// Relates every migrated object, through `relationship`, to the one object of `entity` whose `keyAttribute`
/// equals the source's `attribute` — found, or created the first time the value is seen. Duplicates merge.
final class FindOrCreatePolicy: EntityMigrationPolicy, DefaultRelationshipCreation {
    var answeredSelectors: Set<String>? { [] }

    func relationshipsSetInStageOne(by mapping: EntityMapping) -> Set<String> {
        BuiltInPolicies.relationshipNamed(by: mapping)
    }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try BuiltInPolicies.check(
            [
                ("attribute", .sourceAttribute, false), ("entity", .entity, false),
                ("keyAttribute", .attribute(of: "entity"), false), ("relationship", .relationship, false),
            ], of: mapping, in: session)
    }

    private struct Values {
        let attribute: String
        let entity: String
        let key: String
        let relationship: String
        /// The shared objects' group in ``DestinationObjects/sharedObjects``.
        let group: String
    }

    private let settings = BuiltInPolicies.Settings<Values>()

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let settings = try settings.of(mapping) { mapping in
            let attribute = try BuiltInPolicies.setting("attribute", of: mapping)
            let entity = try BuiltInPolicies.setting("entity", of: mapping)
            let key = try BuiltInPolicies.setting("keyAttribute", of: mapping)
            return Values(
                attribute: attribute, entity: entity, key: key,
                relationship: try BuiltInPolicies.setting("relationship", of: mapping), group: "\(entity).\(key)")
        }
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        let value = try session.sourceValue(settings.attribute)
        guard !value.isNull else { return }
        let object: ObjectID
        if let existing = session.objects.sharedObjects[settings.group]?[value] {
            object = existing
        } else {
            object = try session.createDestinationInstance(entity: settings.entity)
            try session.setValue(value, forKey: settings.key, of: object)
            session.objects.sharedObjects[settings.group, default: [:]][value] = object
        }
        try session.setValue(.object(object), forKey: settings.relationship, of: destination)
    }
}
