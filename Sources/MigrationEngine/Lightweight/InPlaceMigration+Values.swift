import ObjectModel
import PersistentStore
import SQLiteDatabase

/// What an in-place step does to values, as Core Data's inferred mapping decides: numeric and Boolean
/// conversions, and the check of values a destination requires ("requires data validation").
extension InPlaceMigration {
    /// What turns the SQL of a stored value of the source counterpart of destination attribute `attribute` of
    /// `entity` into the SQL of its converted value, when its type changed; nil when stored values need no
    /// change.
    ///
    /// Core Data carries the number into a column of the new type (INTEGER for integers and Booleans, FLOAT
    /// for floating point, DECIMAL for decimals): integers and Booleans are kept as they are in an integer
    /// column (narrowing is not checked, as Core Data does not), a fraction going into an integer is truncated
    /// toward zero, a number going into a Boolean becomes 1 when non-zero, and integers become reals.
    func conversion(_ attribute: String, of entity: String) -> (@Sendable (String) -> String)? {
        guard let declared = plan.destination.attribute(attribute, of: entity),
            let correspondence = plan.correspondence(forDestination: entity),
            let sourceName = correspondence.attributes[attribute] ?? nil,
            let old = plan.source.attribute(sourceName, of: correspondence.source), old.type != declared.type
        else { return nil }
        let integers: Set<AttributeType> = [.integer16, .integer32, .integer64]
        let reals: Set<AttributeType> = [.double, .float]
        switch declared.type {
        case .boolean:
            return { "(CASE WHEN \($0) IS NULL THEN NULL WHEN CAST(\($0) AS REAL) <> 0 THEN 1 ELSE 0 END)" }
        case let type where integers.contains(type):
            if integers.contains(old.type) || old.type == .boolean { return nil }
            return { "CAST(\($0) AS INTEGER)" }
        case let type where reals.contains(type):
            if reals.contains(old.type) { return nil }
            return { "CAST(\($0) AS REAL)" }
        default:
            // A decimal column's NUMERIC affinity keeps the number.
            return nil
        }
    }

    /// Core Data's check before an in-place step that "requires data validation" commits: for every required
    /// value existing objects may lack, the objects of that entity without one are counted in the migrated
    /// tables, and one is enough to fail the step (134110). An entity without objects passes.
    ///
    /// - Throws: ``MigrationError/Code/validation`` naming the entity and the property, as Core Data does.
    func checkRequiredValues(layout destination: StoreLayout, connection: Connection) throws {
        for change in plan.changes where change.change == .needsValue {
            guard let property = change.property, let number = destination.entityNumbers[change.entity],
                let missing = missingCondition(property, of: change.entity, layout: destination)
            else { continue }
            let table = destination.table(for: change.entity)
            let count =
                try connection.scalar(
                    "SELECT COUNT(*) FROM \(quoted(table.name)) o WHERE o.Z_ENT = \(number) AND \(missing)")?.int64 ?? 0
            guard count > 0 else { continue }
            let kind = plan.destination.attribute(property, of: change.entity) != nil ? "attribute" : "relationship"
            throw MigrationError(
                .validation,
                "Cannot migrate store in-place: Validation error missing attribute values on mandatory destination "
                    + "\(kind) (entity=\(change.entity), \(kind)=\(property)): \(count) existing object(s) have none. "
                    + "Give it a default value, make it optional, or migrate with a mapping model that sets it",
                entity: change.entity, property: property, underlying: nil)
        }
    }

    /// Creates the destination's indexes. A uniqueness constraint that existing objects break (Core Data's
    /// inference ignores constraints, so the step fails only when rows violate one) fails the step naming the
    /// entity and its properties.
    ///
    /// - Throws: ``MigrationError/Code/validation`` for a broken uniqueness constraint.
    func createIndexes(layout destination: StoreLayout, connection: Connection) throws {
        for statement in destination.indexStatements() {
            do {
                try connection.execute(statement)
            } catch {
                guard error.isConstraintViolation, let broken = brokenConstraint(creating: statement) else {
                    throw error
                }
                throw MigrationError(
                    .validation,
                    "Cannot migrate store in-place: existing objects break a uniqueness constraint "
                        + "(entity=\(broken.entity), constraint=\(broken.properties.joined(separator: ","))): several "
                        + "objects share a value. Merge or change them first, or migrate with a mapping model",
                    entity: broken.entity, underlying: error)
            }
        }
    }

    /// The uniqueness constraint whose index `statement` creates: the index is named
    /// `Z_<Entity>_UNIQUE_<p1>_<p2>` (store-layout.md I6).
    private func brokenConstraint(creating statement: String) -> (entity: String, properties: [String])? {
        for entity in plan.destination.entities {
            for properties in entity.uniquenessConstraints
            where statement.contains(" Z_\(entity.name)_UNIQUE_\(properties.joined(separator: "_")) ON ") {
                return (entity.name, properties)
            }
        }
        return nil
    }

    /// SQL over row `o` of `entity`'s table that is true when the row has no value for `property`.
    private func missingCondition(_ property: String, of entity: String, layout: StoreLayout) -> String? {
        let table = layout.table(for: entity)
        if plan.destination.attribute(property, of: entity) != nil {
            return table.column(for: property, of: entity, version: plan.destination).map {
                "o.\(quoted($0.name)) IS NULL"
            }
        }
        guard let relationship = plan.destination.relationship(property, of: entity) else { return nil }
        switch layout.storage(of: relationship, in: entity) {
        case .foreignKey:
            return table.column(for: property, of: entity, version: plan.destination).map {
                "o.\(quoted($0.name)) IS NULL"
            }
        case .inverseForeignKey:
            // Core Data counts the objects no foreign key references.
            guard let inverse = plan.destination.inverse(of: relationship) else { return nil }
            let targets = layout.table(for: relationship.destination)
            guard
                let column = targets.column(for: inverse.name, of: relationship.destination, version: plan.destination)
            else { return nil }
            return "NOT EXISTS (SELECT 1 FROM \(quoted(targets.name)) t WHERE t.\(quoted(column.name)) = o.Z_PK)"
        case .joinTable:
            guard let join = layout.joinTable(for: property, of: entity) else { return nil }
            let owner = join.sourceColumn(forRelationship: property, of: entity)
            return "NOT EXISTS (SELECT 1 FROM \(quoted(join.name)) j WHERE j.\(quoted(owner)) = o.Z_PK)"
        case .none:
            return nil
        }
    }
}
