import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Thrown when an expression needs something the verifier cannot re-derive on its own: the migration's
/// services (`$manager`, policies), key paths through relationships, `now()` or `uuid()`.
struct NotVerifiable: Error, CustomStringConvertible {
    let description: String
}

/// Where a source object's values are read: the current row of a statement over the source store, or the
/// arguments of an SQL function called with them.
protocol SourceRow {
    func value(_ index: Int32) -> SQLiteValue
    func int64(_ index: Int32) -> Int64
}

extension Statement: SourceRow {}
extension FunctionCall: SourceRow {
    func value(_ index: Int32) -> SQLiteValue { value(at: index) }
    func int64(_ index: Int32) -> Int64 { int64(at: index) }
}

/// The verifier's own evaluation context: `$source` is a row of the source store.
///
/// Column `keyColumn` of the row holds the object's primary key, column `firstColumn + slot` the source
/// attribute in `slot`, as ``MappingModel/StoredAttributeSlots`` numbers them.
final class SourceRowContext: EvaluationContext {
    private let row: any SourceRow
    private let keyColumn: Int32
    private let firstColumn: Int32
    private let types: [AttributeType]
    private let entityNumber: Int32
    /// Set when the evaluation read `now()` or `uuid()`, whose values only the engine knows.
    var usedUnknowable = false

    init(row: any SourceRow, keyColumn: Int32 = 0, firstColumn: Int32, types: [AttributeType], entityNumber: Int) {
        self.row = row
        self.keyColumn = keyColumn
        self.firstColumn = firstColumn
        self.types = types
        self.entityNumber = Int32(entityNumber)
    }

    func sourceValue(slot: Int) -> ExpressionValue {
        let value = row.value(firstColumn + Int32(slot))
        guard let decoded = AttributeValue(sqlite: value, as: types[slot]) else { return .null }
        return ExpressionValue(decoded)
    }

    func sourceObject() -> ObjectID? {
        ObjectID(side: .source, entity: entityNumber, primaryKey: row.int64(keyColumn))
    }

    func destinationObject() -> ObjectID? { nil }

    func value(of object: ObjectID, keyPath: [String]) throws -> ExpressionValue {
        throw NotVerifiable(description: "key path '\(keyPath.joined(separator: "."))' through a relationship")
    }

    func destinationInstances(entityMapping: String, sources: ExpressionValue) throws -> ExpressionValue {
        throw NotVerifiable(description: "$manager lookup of entity mapping '\(entityMapping)'")
    }

    func destinationInstances(sourceRelationship: String, sources: ExpressionValue) throws -> ExpressionValue {
        throw NotVerifiable(description: "$manager lookup through '\(sourceRelationship)'")
    }

    func callPolicy(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        throw NotVerifiable(description: "policy function '\(selector)'")
    }

    var now: Double {
        usedUnknowable = true
        return 0
    }

    func makeUUID() -> UUID {
        usedUnknowable = true
        return UUID()
    }
}
