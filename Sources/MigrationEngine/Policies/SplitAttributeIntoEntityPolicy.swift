import Foundation
import MappingModel
import ObjectModel

/// Moves the value of source attribute `attribute` into a new object of `entity` (its `targetAttribute`),
/// related to the migrated object through `relationship`; `identifierAttribute`, if given, gets a new UUID.
/// Objects whose value is nil get no new object.
final class SplitAttributeIntoEntityPolicy: EntityMigrationPolicy, DefaultRelationshipCreation {
    var answeredSelectors: Set<String>? { [] }

    func relationshipsSetInStageOne(by mapping: EntityMapping) -> Set<String> {
        BuiltInPolicies.relationshipNamed(by: mapping)
    }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try BuiltInPolicies.check(
            [
                ("attribute", .sourceAttribute, false), ("entity", .entity, false),
                ("targetAttribute", .attribute(of: "entity"), false), ("relationship", .relationship, false),
                ("identifierAttribute", .attribute(of: "entity"), true),
            ], of: mapping, in: session)
    }

    private struct Values {
        let attribute: String
        let entity: String
        let target: String
        let relationship: String
        /// The identifier attribute, if any, and whether it holds text.
        let identifier: (name: String, isString: Bool)?
    }

    private let settings = BuiltInPolicies.Settings<Values>()

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let settings = try settings.of(mapping) { mapping in
            let attribute = try BuiltInPolicies.setting("attribute", of: mapping)
            let entity = try BuiltInPolicies.setting("entity", of: mapping)
            return Values(
                attribute: attribute, entity: entity,
                target: try BuiltInPolicies.setting("targetAttribute", of: mapping),
                relationship: try BuiltInPolicies.setting("relationship", of: mapping),
                identifier: mapping.userInfo["identifierAttribute"].map {
                    ($0, session.destinationVersion.attribute($0, of: entity)?.type == .string)
                })
        }
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        let value = try session.sourceValue(settings.attribute)
        guard !value.isNull else { return }
        let split = try session.createDestinationInstance(entity: settings.entity)
        try session.setValue(value, forKey: settings.target, of: split)
        if let identifier = settings.identifier {
            let uuid = session.makeUUID()
            try session.setValue(
                identifier.isString ? .string(uuid.uuidString) : .uuid(uuid), forKey: identifier.name, of: split)
        }
        try session.setValue(.object(split), forKey: settings.relationship, of: destination)
    }
}
