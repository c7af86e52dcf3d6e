import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// Compares the destination attributes of the checks `selected` (by index in `checks`), the n-th of them in
    /// column `firstColumn + n` of `row`, with what the source row of `context` gives.
    func compareAttributes(
        _ checks: [AttributeCheck],
        _ selected: [Int],
        row: Statement,
        firstColumn: Int32,
        key: Int64,
        entity: String,
        context: SourceRowContext
    ) {
        for (position, index) in selected.enumerated() {
            let check = checks[index]
            if !check.skipped
                && !compare(
                    check, row: row, column: firstColumn + Int32(position), key: key, entity: entity, context: context)
            {
                check.skipped = true
            }
        }
    }

    /// Compares one attribute's stored value with its expected value; false when it cannot be checked at all.
    private func compare(
        _ check: AttributeCheck,
        row: Statement,
        column: Int32,
        key: Int64,
        entity: String,
        context: SourceRowContext
    ) -> Bool {
        let type = check.attribute.type
        let expected: SQLiteValue?
        switch check.expectation {
        case .value(let value):
            expected = value
        case .expression(let expression):
            guard let value = expectedValue(of: expression, check.attribute, entity: entity, context: context) else {
                return false
            }
            expected = value
        case .newIdentifier:
            let actual = row.value(column)
            if !StoredValue.isIdentifier(actual, type: type) {
                collector.add(
                    .attributeValue, entity: entity, property: check.attribute.name, primaryKey: key,
                    "expected a new identifier, found \(StoredValue.describe(actual))")
            }
            return true
        case .converted(let slot):
            let value = context.sourceValue(slot: slot)
            expected = TypeConversion.convert(value, to: type).flatMap {
                StoredValue.expected($0, as: type)
            }
        }
        guard let expected else {
            let actual = row.value(column)
            collector.add(
                .attributeValue, entity: entity, property: check.attribute.name, primaryKey: key,
                "the mapping's value cannot be stored as \(type.rawValue); "
                    + "found \(StoredValue.describe(actual))")
            return true
        }
        if !StoredValue.matches(row, column, expected, type: type) {
            collector.add(
                .attributeValue, entity: entity, property: check.attribute.name, primaryKey: key,
                "expected \(StoredValue.describe(expected)), found \(StoredValue.describe(row.value(column)))")
        }
        return true
    }

    /// The value `expression` gives `attribute` for the source row of `context`, as the attribute stores it
    /// (`.some(nil)` when it cannot be stored); nil, listed as not checked, when the verifier cannot evaluate it.
    private func expectedValue(
        of expression: CompiledExpression, _ attribute: Attribute, entity: String,
        context: SourceRowContext
    ) -> SQLiteValue?? {
        let value: ExpressionValue
        do {
            value = try expression.evaluate(in: context)
        } catch {
            collector.skip(.attributeValue, entity: entity, property: attribute.name, "not evaluable: \(error)")
            return nil
        }
        if context.usedUnknowable {
            context.usedUnknowable = false
            collector.skip(
                .attributeValue, entity: entity, property: attribute.name,
                "'\(expression.text)' uses now() or uuid(), whose values only the engine knows")
            return nil
        }
        return .some(StoredValue.expected(value, as: attribute.type))
    }

    /// No two objects of `entity` got the same new identifier.
    func checkNewIdentifiersUnique(entity: String, attribute: String) throws {
        let table = layout.table(for: entity)
        guard let column = table.column(for: attribute, of: entity, version: destination)?.name else { return }
        let sql =
            "SELECT MIN(Z_PK), COUNT(*) FROM main.\(quoted(table.name)) WHERE Z_ENT = \(layout.entityNumbers[entity]!) "
            + "AND \(quoted(column)) IS NOT NULL GROUP BY \(quoted(column)) HAVING COUNT(*) > 1 ORDER BY 1"
        try forEachRow(sql) { row in
            collector.add(
                .attributeValue, entity: entity, property: attribute, primaryKey: row.int64(0),
                "\(row.int64(1)) objects share one new identifier")
        }
    }
}
