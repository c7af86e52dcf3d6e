import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension VerificationRun {
    /// SQL over the key join's source row `s` and destination row `d` that is true when the value of `check`,
    /// an attribute the mapping gives by an expression, may be wrong, so that SQL alone tells the rows that need
    /// a closer look, as it does for copies. The verifier evaluates the expression itself, in an SQL function
    /// registered for it on this connection over the source attributes in `sourceColumns` (slot order). The
    /// function holds only when the comparison of the close look would find nothing: the expression evaluates,
    /// without `now()` or `uuid()`, to a value the attribute can store, and the stored value matches it. Nil
    /// when `check` is not an expression.
    func expressionDiffers(
        _ check: AttributeCheck, sourceColumns: [String], types: [AttributeType], entityNumber: Int
    ) throws -> String? {
        guard case .expression(let expression) = check.expectation else { return nil }
        predicateCount += 1
        let name = "verifier_expected_\(predicateCount)"
        let type = check.attribute.type
        try connection.registerPredicate(name, argumentCount: Int32(2 + sourceColumns.count)) { arguments in
            let context = SourceRowContext(
                row: arguments, keyColumn: 1, firstColumn: 2, types: types, entityNumber: entityNumber)
            guard let value = try? expression.evaluate(in: context), !context.usedUnknowable,
                let expected = StoredValue.expected(value, as: type)
            else { return false }
            return StoredValue.matches(arguments.value(0), expected, type: type)
        }
        let arguments = ["d.\(quoted(check.column))", "s.Z_PK"] + sourceColumns
        return "NOT \(name)(\(arguments.joined(separator: ", ")))"
    }
}
