import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// A to-one relationship whose foreign key a relationship mapping can set directly: no order key, no inverse
/// to keep in step.
struct ForeignKeyTarget {
    let name: String
    let slot: Int
    let writer: DestinationWriter
    /// Set when the mapping is Xcode's canonical form over a source to-one (see ``SourceForeignKeyLookup``).
    let lookup: SourceForeignKeyLookup?
}

/// A relationship mapping in the form Xcode writes for a relationship it carries across,
/// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "r", $source.r)`
/// (``ExpressionShape/relationshipCopy(relationship:entityMapping:)``), over a source to-one `r` stored as a
/// foreign key: its value is the source foreign key looked up in the associations of `r`'s destination
/// entity — computed directly, without the expression machinery.
struct SourceForeignKeyLookup {
    /// The column of `r` in the source reader.
    let readerIndex: Int
    /// The entity number of `r`'s destination in the source store (it has no subentities).
    let sourceEntity: Int32
}

extension MigrationSession {
    /// The destination primary key that the current source row's foreign key leads to, through the
    /// associations; `.some(nil)` for none, nil when the associations cannot tell (several tables).
    func lookUpForeignKey(_ lookup: SourceForeignKeyLookup) -> Int64?? {
        guard let reader = cursor.reader, let key = reader.value(at: lookup.readerIndex).int64 else {
            return .some(nil)
        }
        guard let tables = associations.tables(ofSourceEntity: lookup.sourceEntity) else { return .some(nil) }
        guard tables.count == 1 else { return nil }
        return .some(tables[0].firstDestination(ofSource: key)?.primaryKey)
    }

    /// The one destination object (or none) a to-one relationship was given; nil when it is anything else.
    static func singleObject(_ value: ExpressionValue) -> Int64?? {
        switch value {
        case .null: .some(nil)
        case .object(let object) where object.side == .destination: .some(object.primaryKey)
        case .objects(let list) where list.count <= 1 && list.allSatisfy({ $0.side == .destination }):
            .some(list.first?.primaryKey)
        default: nil
        }
    }
}
