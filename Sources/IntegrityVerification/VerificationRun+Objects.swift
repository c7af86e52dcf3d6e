import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// Every source object is accounted for and every destination object has a source; attribute values are
    /// what the mapping gives. Object by object where primary keys are kept; by count elsewhere.
    func checkObjects() {
        for compiled in mappings {
            guard let sourceEntity = compiled.mapping.sourceEntity, let entity = compiled.mapping.destinationEntity
            else { continue }
            if preservesKeys(entity) {
                guarded(.missingObject, entity: entity) { try compareObjects(compiled, from: sourceEntity, to: entity) }
            } else {
                let reason =
                    compiled.mapping.policy.map { "custom policy '\($0)' decides which objects it makes" }
                    ?? "several source tables feed this table, so objects are not matched by primary key"
                collector.skip(.missingObject, entity: entity, reason)
                collector.skip(.attributeValue, entity: entity, reason)
            }
        }
        for (table, sourceTable) in preservedTables.sorted(by: { $0.key < $1.key }) {
            guarded(.unexpectedObject, entity: nil) {
                try findObjectsWithoutSource(table: table, sourceTable: sourceTable)
            }
        }
        for entity in destination.entities where !entity.isAbstract && !preservesKeys(entity.name) {
            guarded(.objectCount, entity: entity.name) { try compareCount(of: entity.name) }
        }
    }

    private struct CheckedAttribute {
        let attribute: Attribute
        let expression: CompiledExpression?
        var skipped = false
    }

    private func compareObjects(_ compiled: CompiledEntityMapping, from sourceEntity: String, to entity: String) throws
    {
        let sourceAttributes = source.attributes(of: sourceEntity).filter { !$0.isTransient }
        let sourceTable = sourceLayout.table(for: sourceEntity)
        let table = layout.table(for: entity)
        var checked: [CheckedAttribute] = []
        for property in compiled.attributes {
            guard let attribute = destination.attribute(property.name, of: entity), !attribute.isTransient else {
                continue
            }
            checked.append(CheckedAttribute(attribute: attribute, expression: property.expression))
        }
        var columns = ["s.Z_PK", "d.Z_PK", "d.Z_ENT"]
        for attribute in sourceAttributes {
            let column = sourceTable.column(for: attribute.name, of: sourceEntity, version: source)!
            columns.append("s.\(quoted(column.name))")
        }
        for item in checked {
            let column = table.column(for: item.attribute.name, of: entity, version: destination)!
            columns.append("d.\(quoted(column.name))")
        }
        let sourceNumber = sourceLayout.entityNumbers[sourceEntity]!
        let number = Int64(layout.entityNumbers[entity]!)
        let sql =
            "SELECT \(columns.joined(separator: ", ")) FROM src.\(quoted(sourceTable.name)) s "
            + "LEFT JOIN main.\(quoted(table.name)) d ON d.Z_PK = s.Z_PK WHERE s.Z_ENT = \(sourceNumber) ORDER BY s.Z_PK"
        let firstDestinationColumn = Int32(3 + sourceAttributes.count)
        try connection.withStatement(sql) { row in
            let context = SourceRowContext(
                statement: row, firstColumn: 3, types: sourceAttributes.map(\.type), entityNumber: sourceNumber)
            var filterUsable = true
            while try row.step() {
                let key = row.int64(0)
                var migrates = true
                if let filter = compiled.sourceFilter, filterUsable {
                    do {
                        migrates = try filter.isSatisfied(in: context)
                    } catch {
                        filterUsable = false
                        collector.skip(.missingObject, entity: entity, "source filter not evaluable: \(error)")
                    }
                }
                guard filterUsable else { continue }
                let present = !row.isNull(1) && row.int64(2) == number
                if !migrates {
                    if present {
                        collector.add(
                            .unexpectedObject, entity: entity, primaryKey: key,
                            "the source filter of \(compiled.name) excludes this \(sourceEntity) object")
                    }
                    continue
                }
                guard present else {
                    let found = row.isNull(1) ? "no object" : "an object of Z_ENT \(row.int64(2))"
                    collector.add(
                        .missingObject, entity: entity, primaryKey: key,
                        "\(sourceEntity) object \(key) should become \(entity) \(key); found \(found)")
                    continue
                }
                for index in checked.indices where !checked[index].skipped {
                    let actual = row.value(firstDestinationColumn + Int32(index))
                    if !compare(&checked[index], actual: actual, key: key, entity: entity, context: context) {
                        checked[index].skipped = true
                    }
                }
            }
        }
    }

    /// Compares one attribute's stored value with its expected value; false when it cannot be checked at all.
    private func compare(
        _ item: inout CheckedAttribute,
        actual: SQLiteValue,
        key: Int64,
        entity: String,
        context: SourceRowContext
    ) -> Bool {
        let attribute = item.attribute
        let expected: SQLiteValue?
        if let expression = item.expression {
            let value: ExpressionValue
            do {
                value = try expression.evaluate(in: context)
            } catch {
                collector.skip(.attributeValue, entity: entity, property: attribute.name, "not evaluable: \(error)")
                return false
            }
            if context.usedUnknowable {
                context.usedUnknowable = false
                collector.skip(
                    .attributeValue, entity: entity, property: attribute.name,
                    "'\(expression.text)' uses now() or uuid(), whose values only the engine knows")
                return false
            }
            expected = StoredValue.expected(value, as: attribute.type)
        } else {
            expected = attribute.defaultValue?.sqliteValue ?? .null
        }
        guard let expected else {
            collector.add(
                .attributeValue, entity: entity, property: attribute.name, primaryKey: key,
                "the mapping's value cannot be stored as \(attribute.type.rawValue); found \(StoredValue.describe(actual))"
            )
            return true
        }
        if !StoredValue.matches(actual, expected, type: attribute.type) {
            collector.add(
                .attributeValue, entity: entity, property: attribute.name, primaryKey: key,
                "expected \(StoredValue.describe(expected)), found \(StoredValue.describe(actual))")
        }
        return true
    }

    private func findObjectsWithoutSource(table: String, sourceTable: String) throws {
        var allowed: Set<[Int]> = []
        for compiled in mappings where compiled.mapping.policy == nil {
            guard let sourceEntity = compiled.mapping.sourceEntity, let entity = compiled.mapping.destinationEntity,
                layout.table(for: entity).name == table, let from = sourceLayout.entityNumbers[sourceEntity]
            else { continue }
            allowed.insert([from, layout.entityNumbers[entity]!])
        }
        let sql =
            "SELECT d.Z_PK, d.Z_ENT, s.Z_ENT FROM main.\(quoted(table)) d "
            + "LEFT JOIN src.\(quoted(sourceTable)) s ON s.Z_PK = d.Z_PK ORDER BY d.Z_PK"
        try forEachRow(sql) { row in
            let number = Int(row.int64(1))
            guard let entity = layout.entityName(number: number) else { return }
            if row.isNull(2) {
                collector.add(
                    .unexpectedObject, entity: entity, primaryKey: row.int64(0),
                    "no source object has primary key \(row.int64(0))")
            } else if !allowed.contains([Int(row.int64(2)), number]) {
                let from = sourceLayout.entityName(number: Int(row.int64(2))) ?? "Z_ENT \(row.int64(2))"
                collector.add(
                    .unexpectedObject, entity: entity, primaryKey: row.int64(0),
                    "no mapping makes \(entity) objects from \(from) objects")
            }
        }
    }

    private func compareCount(of entity: String) throws {
        let feeding = mappings(into: entity)
        var expected = 0
        for compiled in feeding {
            guard let sourceEntity = compiled.mapping.sourceEntity, compiled.mapping.policy == nil,
                compiled.sourceFilter == nil
            else {
                let reason =
                    compiled.mapping.policy.map { "custom policy '\($0)' decides how many objects it makes" }
                    ?? "mapping \(compiled.name) adds or filters objects"
                collector.skip(.objectCount, entity: entity, reason)
                return
            }
            let table = sourceLayout.table(for: sourceEntity).name
            let number = sourceLayout.entityNumbers[sourceEntity]!
            let count = try connection.scalar("SELECT COUNT(*) FROM src.\(quoted(table)) WHERE Z_ENT = \(number)")
            expected += Int(count?.int64 ?? 0)
        }
        let table = layout.table(for: entity).name
        let number = layout.entityNumbers[entity]!
        let actual = Int(
            try connection.scalar("SELECT COUNT(*) FROM main.\(quoted(table)) WHERE Z_ENT = \(number)")?.int64 ?? 0)
        if actual != expected {
            collector.add(
                .objectCount, entity: entity, primaryKey: nil, "expected \(expected) objects, found \(actual)")
        }
    }
}
