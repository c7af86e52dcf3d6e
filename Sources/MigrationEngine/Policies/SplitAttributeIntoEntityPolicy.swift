import Foundation
import MappingModel
import ObjectModel

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
