import Foundation
import MappingModel
import ObjectModel

/// Gives every migrated object a new UUID in `userInfo["attribute"]` (a UUID or String attribute).
final class AssignNewIdentifierPolicy: EntityMigrationPolicy, DefaultRelationshipCreation {
    var answeredSelectors: Set<String>? { [] }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try BuiltInPolicies.check([("attribute", .attribute(of: nil), false)], of: mapping, in: session)
    }

    private let settings = BuiltInPolicies.Settings<String>()

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let attribute = try settings.of(mapping) { try BuiltInPolicies.setting("attribute", of: $0) }
        let destination = try session.createDestinationInstance(for: source, mapping: mapping)
        try session.setValue(.uuid(session.makeUUID()), forKey: attribute, of: destination)
    }
}
