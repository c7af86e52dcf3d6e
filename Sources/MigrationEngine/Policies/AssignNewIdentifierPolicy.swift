import Foundation
import MappingModel
import ObjectModel

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
