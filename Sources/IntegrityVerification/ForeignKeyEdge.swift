import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// A to-one relationship whose edges are compared in the key join of its objects, see
/// ``VerificationRun/foreignKeyEdges(of:entity:)``.
struct ForeignKeyEdge {
    let relationship: Relationship
    /// The destination foreign-key column.
    let column: String
    /// The source foreign-key column it copies.
    let sourceColumn: String
    /// Whether a primary key is an object of the relationship's destination entity in the destination store.
    let target: Statement

    /// `d.<column> IS NOT s.<sourceColumn>`: true when the row needs a close look.
    var differs: String { "d.\(quoted(column)) IS NOT s.\(quoted(sourceColumn))" }

    /// The destination key `actual` of object `key` against the source key `expected`, whose target must
    /// have been migrated for the edge to be expected.
    func compare(actual: Int64?, expected: Int64?, key: Int64, entity: String, collector: ViolationCollector) throws {
        var wanted = expected
        if let expected, actual != expected {
            target.reset()
            try target.bind(expected, at: 1)
            if try !target.step() { wanted = nil }
        }
        guard actual != wanted else { return }
        if let wanted {
            collector.add(
                .missingEdge, entity: entity, property: relationship.name, primaryKey: key,
                "edge \(key) → \(wanted) is missing")
        }
        if let actual {
            collector.add(
                .unexpectedEdge, entity: entity, property: relationship.name, primaryKey: key,
                "edge \(key) → \(actual) has no source")
        }
    }
}

extension VerificationRun {
    /// The to-one relationships of `entity` whose edges can be compared in the key join of its objects: a
    /// foreign key copied from a source foreign key, between objects that keep their keys at both ends, so
    /// that the destination key must equal the source key, or be nil when the target was not migrated.
    func foreignKeyEdges(of compiled: CompiledEntityMapping, entity: String) throws -> [ForeignKeyEdge] {
        guard let sourceEntity = compiled.mapping.sourceEntity, case .sameKeys(let feeders) = correspondences[entity],
            feeders.count == 1
        else { return [] }
        var result: [ForeignKeyEdge] = []
        for relationship in destination.relationships(of: entity) where !relationship.isTransient {
            guard layout.storage(of: relationship, in: entity) == .foreignKey,
                let expression = compiled.relationship(named: relationship.name)?.expression,
                let sourceName = Self.copiedRelationship(expression),
                let sourceRelationship = source.relationship(sourceName, of: sourceEntity),
                sourceLayout.storage(of: sourceRelationship, in: sourceEntity) == .foreignKey,
                // A narrowed inverse keeps only some links: its edges are compared as a whole.
                !isNarrowed(relationship, from: sourceRelationship),
                let sourceColumn = sourceLayout.table(for: sourceEntity)
                    .column(for: sourceName, of: sourceEntity, version: source),
                let column = layout.table(for: entity).column(for: relationship.name, of: entity, version: destination)
            else { continue }
            let sourceTargets = sourceLayout.table(for: sourceRelationship.destination).name
            let targetsKeepKeys = destination.hierarchy(of: relationship.destination).allSatisfy { target in
                switch correspondences[target] {
                case .sameKeys: preservedTables[layout.table(for: target).name] == sourceTargets
                case .noObjects, nil: true
                default: false
                }
            }
            guard targetsKeepKeys else { continue }
            let target = try connection.prepare(
                "SELECT 1 FROM main.\(quoted(layout.table(for: relationship.destination).name)) WHERE Z_PK = ?1 "
                    + "AND Z_ENT BETWEEN \(Self.range(relationship.destination, in: layout))")
            result.append(
                ForeignKeyEdge(
                    relationship: relationship, column: column.name, sourceColumn: sourceColumn.name, target: target))
        }
        return result
    }
}
