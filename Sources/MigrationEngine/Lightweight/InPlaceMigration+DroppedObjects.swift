import ObjectModel
import PersistentStore

/// Edges to objects the step drops. The objects of a source entity without a destination counterpart (removed,
/// or made abstract) are not copied; Core Data's relationship mapping finds no destination instance for them,
/// so a to-one that held one comes out nil and a to-many loses it — never a key that points at nothing.
extension InPlaceMigration {
    /// The entity numbers, in the source store, of the concrete source entities whose objects the step drops.
    func droppedEntityNumbers(source: StoreLayout) -> [Int] {
        let kept = Set(plan.entities.map(\.source))
        return source.version.entities
            .filter { !$0.isAbstract && !kept.contains($0.name) }
            .compactMap { source.entityNumbers[$0.name] }
            .sorted()
    }

    /// An SQL condition true when `key`, a primary key of an object of source entity `entity` or one of its
    /// subentities, names an object the step drops; nil when no object of that hierarchy is dropped.
    func dropsObject(_ key: String, of entity: String, source: StoreLayout) -> String? {
        let range = source.entityNumberRange(of: entity)
        let dropped = droppedEntityNumbers(source: source).filter(range.contains)
        guard !dropped.isEmpty else { return nil }
        let numbers = dropped.map(String.init).joined(separator: ", ")
        return "\(key) IN (SELECT Z_PK FROM \(quoted(source.table(for: entity).name)) WHERE Z_ENT IN (\(numbers)))"
    }

    /// The SQL of foreign key `key` of source relationship `relationship` of `entity`, nil where the object it
    /// points at is dropped.
    func survivingKey(_ key: String, of relationship: String, of entity: String, source: StoreLayout) -> String {
        guard let declared = source.version.relationship(relationship, of: entity),
            let dropped = dropsObject(key, of: declared.destination, source: source)
        else { return key }
        return "(CASE WHEN \(dropped) THEN NULL ELSE \(key) END)"
    }

    /// Whether source relationship `relationship` of `entity` may hold an object the step drops.
    func mayHoldDroppedObjects(_ relationship: String, of entity: String, source: StoreLayout) -> Bool {
        guard let declared = source.version.relationship(relationship, of: entity) else { return false }
        return dropsObject("Z_PK", of: declared.destination, source: source) != nil
    }
}
