import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// One destination attribute of one entity mapping, with the value it must hold.
///
/// A class, read for every object: handing it to the comparison costs one reference, not a copy of the
/// attribute and the expression.
final class AttributeCheck {
    /// Where the expected value comes from.
    enum Expectation {
        /// The mapping's value expression, evaluated by the verifier over the source row.
        case expression(CompiledExpression)
        /// The same value for every object: the attribute's default, or a constant expression.
        case value(SQLiteValue)
        /// A new UUID (``BuiltInPolicy/assignNewIdentifier``): set, well formed; unique is checked per entity.
        case newIdentifier
        /// The source attribute in `slot`, converted to the attribute's type (``BuiltInPolicy/convertType``).
        case converted(slot: Int)
    }

    let attribute: Attribute
    /// The destination column.
    let column: String
    let expectation: Expectation
    /// SQL over the source row `s` and destination row `d` that is true when the stored value may be wrong:
    /// such rows are then looked at closely. Nil when only the verifier's own evaluation can tell.
    let differs: String?
    /// Set once the check cannot be made (the reason is listed as not checked).
    var skipped = false

    init(attribute: Attribute, column: String, expectation: Expectation, differs: String?) {
        self.attribute = attribute
        self.column = column
        self.expectation = expectation
        self.differs = differs
    }

    /// The checks of every stored attribute of destination entity `entity` made by `compiled` from source
    /// entity `sourceEntity`; literal values for `differs` go to `bindings` (`?1`, `?2`, …).
    static func checks(
        for compiled: CompiledEntityMapping,
        from sourceEntity: String,
        to entity: String,
        source: StoreLayout,
        destination: StoreLayout,
        bindings: inout [SQLiteValue]
    ) -> [AttributeCheck] {
        let table = destination.table(for: entity)
        let sourceTable = source.table(for: sourceEntity)
        let sourceAttributes = source.version.storedAttributes(of: sourceEntity)
        let policy = BuiltInPolicy(compiled.mapping)
        let policyAttribute = compiled.mapping.userInfo["attribute"]
        var checks: [AttributeCheck] = []
        for attribute in destination.version.storedAttributes(of: entity) {
            guard let column = table.column(for: attribute.name, of: entity, version: destination.version)?.name else {
                continue
            }
            let target = "d.\(quoted(column))"
            func literal(_ value: SQLiteValue) -> AttributeCheck {
                guard value != .null else {
                    return AttributeCheck(
                        attribute: attribute, column: column, expectation: .value(value),
                        differs: "\(target) IS NOT NULL")
                }
                bindings.append(value)
                let parameter =
                    attribute.type == .decimal ? "CAST(?\(bindings.count) AS NUMERIC)" : "?\(bindings.count)"
                return AttributeCheck(
                    attribute: attribute, column: column, expectation: .value(value),
                    differs: "\(target) IS NOT \(parameter)")
            }
            if attribute.name == policyAttribute, policy == .assignNewIdentifier {
                checks.append(
                    AttributeCheck(attribute: attribute, column: column, expectation: .newIdentifier, differs: nil))
                continue
            }
            if attribute.name == policyAttribute, policy == .convertType {
                let from = compiled.mapping.userInfo["sourceAttribute"] ?? attribute.name
                if let slot = sourceAttributes.firstIndex(where: { $0.name == from }) {
                    checks.append(
                        AttributeCheck(
                            attribute: attribute, column: column, expectation: .converted(slot: slot), differs: nil))
                    continue
                }
            }
            guard let expression = compiled.attribute(named: attribute.name)?.expression else {
                checks.append(literal(attribute.defaultValue?.sqliteValue ?? .null))
                continue
            }
            if let constant = expression.constantValue, let value = StoredValue.expected(constant, as: attribute.type) {
                checks.append(literal(value))
                continue
            }
            var differs: String?
            if let name = expression.shape.sourceProperty,
                let copied = source.version.attribute(name, of: sourceEntity),
                !copied.isTransient, copied.type == attribute.type,
                let sourceColumn = sourceTable.column(for: copied.name, of: sourceEntity, version: source.version)
            {
                // The same type in a column of the same affinity: the stored values are identical.
                differs = "\(target) IS NOT s.\(quoted(sourceColumn.name))"
            }
            checks.append(
                AttributeCheck(
                    attribute: attribute, column: column, expectation: .expression(expression), differs: differs))
        }
        return checks
    }
}
