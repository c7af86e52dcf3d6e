import Foundation
import MappingModel
import ObjectModel

/// Migrates none of the entity's objects.
final class DropAllRowsPolicy: EntityMigrationPolicy, DefaultRelationshipCreation {
    var answeredSelectors: Set<String>? { [] }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
    }
}
