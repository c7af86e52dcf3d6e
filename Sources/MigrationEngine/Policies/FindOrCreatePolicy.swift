import Foundation
import MappingModel
import ObjectModel

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
