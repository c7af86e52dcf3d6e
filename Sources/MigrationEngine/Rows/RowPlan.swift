import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Where one attribute mapping's value goes in the destination row, resolved once per entity mapping.
struct AttributeTarget {
    let name: String
    let property: String
    let expression: CompiledExpression
    let slot: Int
    let type: AttributeType
    /// `expression`'s ``MappingModel/CompiledExpression/evaluator``, for the row path's objects.
    let evaluate: @Sendable (any EvaluationContext) throws -> ExpressionValue

    init(name: String, property: String, expression: CompiledExpression, slot: Int, type: AttributeType) {
        self.name = name
        self.property = property
        self.expression = expression
        self.slot = slot
        self.type = type
        self.evaluate = expression.evaluator
    }

    /// The expression's value for the current object of `context`, as stored in the column: what the row path
    /// and the bulk statement's `value` function both write. An evaluation error names `mapping`, the property
    /// and the source object. A static function of the target's place, not a method: calling a method on
    /// `targets[index]` copied the whole target for every object (value-witness copy and destroy, a retain and
    /// release of each field: +6.7 % instructions of the in-memory step at 100,000 objects).
    @inline(__always)
    static func columnValue(
        of target: UnsafePointer<AttributeTarget>, in context: any EvaluationContext,
        mapping: @autoclosure () -> String, source: @autoclosure () -> Int64?
    ) throws -> SQLiteValue {
        let value: ExpressionValue
        do {
            value = try target.pointee.evaluate(context)
        } catch {
            throw MigrationSession.evaluationFailure(
                error, mapping: mapping(), property: target.pointee.name, source: source())
        }
        return try MigrationSession.sqliteValue(value, as: target.pointee.type, property: target.pointee.property)
    }
}

/// A foreign key written while the row is made (stage 1): the source reader's slot that holds the source
/// object's foreign key, the destination slot, and the associations of the target's entity mapping.
struct StageOneForeignKey {
    let sourceSlot: Int
    let slot: Int
    let table: AssociationTable
}

/// What fills one slot of a destination row.
enum SlotFill {
    /// A value known before the first object: a default, or a constant expression already converted.
    case value(SQLiteValue)
    /// The source reader's slot, copied as it is stored (`$source.x` into an attribute of the same type).
    case copy(sourceSlot: Int)
    /// A relationship set in stage 1, by its index in ``RowPlan/foreignKeys``.
    case foreignKey(Int)
    /// An expression or a conversion, evaluated per object, by its index in ``RowPlan/evaluated``.
    case evaluated(Int)
}

/// The destination row of one compiled entity mapping: every slot of the destination entity's row
/// (``PersistentStore/RowShape``) and what fills it — built once, and read by every stage-1 path: the SQL path
/// renders it into its `INSERT … SELECT` (``selectList(sourceColumn:foreignKey:evaluated:constant:)``), the
/// default-policy path streams it slot by slot (``fill(_:from:results:stageOneKey:)``), and the policy path
/// makes the values it hands to the policy (``values(from:results:stageOneKey:)``).
struct RowPlan {
    /// Every slot of the row, in slot order.
    let slots: [SlotFill]
    /// The expressions evaluated per object.
    let evaluated: [AttributeTarget]
    /// The foreign keys set in stage 1.
    let foreignKeys: [StageOneForeignKey]
    /// The evaluated expressions the row path composes from the source row's bytes where it can (text
    /// expressions with an SQL form).
    let texts: SourceTexts
    /// The row with every ``SlotFill/value(_:)`` slot filled: what ``values(from:results:stageOneKey:)`` starts
    /// from.
    private let values: [SQLiteValue]
    /// The slots filled per object, with what fills them.
    private let perObject: [(slot: Int, fill: SlotFill)]

    /// The plan of a row with defaults `template`, attributes `attributes` filled from the source entity's
    /// stored attributes (`sourceSlots`, `sourceTypes`) where a mapping only copies one of the same type, from
    /// `constant` where an expression is one, and by evaluation otherwise; then `foreignKeys`.
    init(
        template: [SQLiteValue], attributes: [AttributeTarget], copies: [(sourceSlot: Int, slot: Int)],
        foreignKeys: [StageOneForeignKey]
    ) {
        var slots = template.map { SlotFill.value($0) }
        for copy in copies { slots[copy.slot] = .copy(sourceSlot: copy.sourceSlot) }
        for (index, foreignKey) in foreignKeys.enumerated() { slots[foreignKey.slot] = .foreignKey(index) }
        var evaluated: [AttributeTarget] = []
        for target in attributes {
            // A constant that converts is a value like a default; one that does not fails per object, as before.
            if let constant = target.expression.constantValue,
                let value = try? MigrationSession.sqliteValue(constant, as: target.type, property: target.property)
            {
                slots[target.slot] = .value(value)
                continue
            }
            slots[target.slot] = .evaluated(evaluated.count)
            evaluated.append(target)
        }
        self.slots = slots
        self.values = slots.enumerated().map { slot, fill in
            if case .value(let value) = fill { value } else { template[slot] }
        }
        self.perObject = slots.enumerated().compactMap { slot, fill in
            if case .value = fill { nil } else { (slot, fill) }
        }
        self.evaluated = evaluated
        self.foreignKeys = foreignKeys
        self.texts = SourceTexts(evaluated)
    }

    // MARK: - Rows

    /// Streams the row into `sink` slot by slot: source columns copied from `reader` as they are stored,
    /// foreign keys through `stageOneKey`, text expressions composed from the source row where ``texts`` holds
    /// for it, the other expressions from `results` (evaluated already, in `evaluated` order).
    /// Generic over the sink, so that each row buffer's fill calls its own sink directly.
    @inline(__always)
    func fill<Sink: RowSink>(
        _ sink: Sink, from reader: RowReader, results: UnsafeBufferPointer<SQLiteValue>,
        stageOneKey: (StageOneForeignKey, RowReader) -> SQLiteValue
    ) throws {
        // The reader's column of its slot 0, read once: the shape is a struct of arrays.
        let firstColumn = reader.shape.column(ofSlot: 0)
        for fill in slots {
            switch fill {
            case .value(let value): try sink.put(value)
            case .copy(let slot): try sink.copy(column: firstColumn + Int32(slot), of: reader.statement)
            case .foreignKey(let index): try sink.put(stageOneKey(foreignKeys[index], reader))
            case .evaluated(let index):
                switch texts.composition(index, in: reader.statement, firstColumn: firstColumn) {
                case .evaluated: try sink.put(results[index])
                case .null: try sink.put(.null)
                case .text(let maximumLength):
                    try sink.put(
                        texts, index, maximumLength: maximumLength, from: reader.statement, firstColumn: firstColumn)
                }
            }
        }
    }

    /// The row as values: what ``fill(_:from:results:stageOneKey:)`` streams, or, without a source row, the
    /// defaults where it would read one. Only the slots filled per object are touched.
    func values(
        from reader: RowReader?, results: UnsafeBufferPointer<SQLiteValue>,
        stageOneKey: (StageOneForeignKey, RowReader) -> SQLiteValue
    ) -> [SQLiteValue] {
        var values = self.values
        for (slot, fill) in perObject {
            switch fill {
            case .value: break
            case .copy(let sourceSlot): if let reader { values[slot] = reader.value(at: sourceSlot) }
            case .foreignKey(let index): if let reader { values[slot] = stageOneKey(foreignKeys[index], reader) }
            case .evaluated(let index): values[slot] = results[index]
            }
        }
        return values
    }

    // MARK: - SQL

    /// The SQL of each slot, for an `INSERT … SELECT` from the source table: source columns by
    /// `sourceColumn(sourceSlot)`, values as the parameters `constant(value)` names, simple text expressions
    /// in SQL (``MappingModel/SQLForm``) guarded per row with the fallback `evaluated(index)`, and the rest as
    /// `foreignKey(index, sourceColumn)` and `evaluated(index)` calls.
    func selectList(
        sourceColumn: (Int) -> String, foreignKey: (Int, String) -> String, evaluated call: (Int) -> String,
        constant: (SQLiteValue) -> String
    ) -> [String] {
        slots.map { fill in
            switch fill {
            case .value(let value): return constant(value)
            case .copy(let slot): return sourceColumn(slot)
            case .foreignKey(let index): return foreignKey(index, sourceColumn(foreignKeys[index].sourceSlot))
            case .evaluated(let index):
                let target = evaluated[index]
                guard let form = target.expression.sqlForm, target.type == .string else { return call(index) }
                // SQLite computes it; a row whose columns hold something unexpected goes to Swift.
                let inSQL = form.sql(column: sourceColumn)
                return form.guardSQL(column: sourceColumn).map {
                    "CASE WHEN \($0) THEN \(inSQL) ELSE \(call(index)) END"
                }
                    ?? inSQL
            }
        }
    }

    /// Whether the SQL path can make this row: every expression reads nothing but the source row's attributes
    /// (``MappingModel/CompiledExpression/readsOnlySourceAttributes``), so that nothing can observe the order
    /// in which SQLite computes a row's columns.
    var rendersAsSQL: Bool {
        evaluated.allSatisfy { $0.expression.constantValue != nil || $0.expression.readsOnlySourceAttributes }
    }
}
