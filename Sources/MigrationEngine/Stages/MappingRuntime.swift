import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Where one attribute mapping's value goes in the destination row, resolved once per entity mapping.
final class AttributeTarget {
    let name: String
    let property: String
    let expression: CompiledExpression
    let slot: Int
    let type: AttributeType

    init(name: String, property: String, expression: CompiledExpression, slot: Int, type: AttributeType) {
        self.name = name
        self.property = property
        self.expression = expression
        self.slot = slot
        self.type = type
    }
}

/// What fills one slot of a default-path row.
enum SlotFill {
    /// A value known before the first object: a default, or a constant expression.
    case value(SQLiteValue)
    /// The source reader's column, copied as it is stored.
    case copy(column: Int32)
    /// A stage-one foreign key, by its index in ``MappingRuntime/foreignKeys``.
    case foreignKey(Int)
    /// An evaluated expression, by its index in ``MappingRuntime/evaluated``.
    case evaluated(Int)
}

/// Everything the default path of one entity mapping needs per object, resolved when its first object is
/// made: the writer, what fills each slot of the row in slot order, the expressions to evaluate, the foreign
/// keys known in stage 1, and the association table — so that making an object looks nothing up by name.
final class MappingRuntime {
    let name: String
    /// The mapping this runtime runs (unowned: the session's passes hold every plan for its whole life).
    unowned let plan: CompiledEntityMappingPlan
    let writer: DestinationWriter
    /// `$source.x` into an attribute of the same type: the stored value is copied as it is.
    let copies: [(column: Int, slot: Int)]
    let evaluated: [AttributeTarget]
    /// Foreign keys set in stage 1: the source column, the destination slot, the target's associations.
    let foreignKeys: [(column: Int, slot: Int, table: AssociationTable)]
    /// Every slot of the row, in order.
    let fills: [SlotFill]
    let association: AssociationTable
    /// The values of `evaluated` for the current object, reused from object to object.
    var results: [SQLiteValue]

    init(
        plan: CompiledEntityMappingPlan,
        writer: DestinationWriter,
        copies: [(column: Int, slot: Int)],
        evaluated: [AttributeTarget],
        foreignKeys: [(column: Int, slot: Int, table: AssociationTable)],
        association: AssociationTable
    ) {
        self.name = plan.mapping.name
        self.plan = plan
        self.writer = writer
        self.copies = copies
        self.evaluated = evaluated
        self.foreignKeys = foreignKeys
        var fills = writer.template.map { SlotFill.value($0) }
        for copy in copies { fills[copy.slot] = .copy(column: Int32(copy.column + 1)) }
        for (index, foreignKey) in foreignKeys.enumerated() { fills[foreignKey.slot] = .foreignKey(index) }
        for (index, target) in evaluated.enumerated() { fills[target.slot] = .evaluated(index) }
        self.fills = fills
        self.association = association
        self.results = Array(repeating: .null, count: evaluated.count)
    }
}

extension MigrationSession {
    /// The runtime of `plan`'s default path, made when its first object is.
    func runtime(for plan: CompiledEntityMappingPlan, entity: String) throws -> MappingRuntime {
        if let runtime = currentRuntime, runtime.plan === plan { return runtime }
        if let runtime = runtimes[plan.mapping.name] {
            currentRuntime = runtime
            return runtime
        }
        let writer = try writer(for: entity)
        let columns = plan.mapping.sourceEntity.map { ReaderColumns(entity: $0, version: sourceVersion) }
        var copies: [(column: Int, slot: Int)] = []
        var evaluated: [AttributeTarget] = []
        for attribute in plan.attributes {
            guard let slot = writer.slot(for: attribute.name), let type = writer.type(of: attribute.name) else {
                throw MigrationError(.evaluation, "attribute '\(writer.entity).\(attribute.name)' is not stored")
            }
            if let name = attribute.expression.shape.sourceProperty, let sourceEntity = plan.mapping.sourceEntity,
                sourceVersion.attribute(name, of: sourceEntity)?.type == type, let column = columns?.indexes[name]
            {
                copies.append((column, slot))
                continue
            }
            evaluated.append(
                AttributeTarget(
                    name: attribute.name, property: "\(writer.entity).\(attribute.name)",
                    expression: attribute.expression, slot: slot, type: type))
        }
        var foreignKeys: [(column: Int, slot: Int, table: AssociationTable)] = []
        for target in try stageOneForeignKeys(for: plan) {
            guard let lookup = target.lookup, let tables = associationsBySourceEntity[lookup.sourceEntity],
                tables.count == 1
            else { continue }
            foreignKeys.append((lookup.readerIndex, target.slot, tables[0]))
        }
        let association = associationTable(for: plan.mapping)
        association.reserve(sourceKeys: plan.mapping.sourceEntity.flatMap { sourceCounts[$0] } ?? 0)
        let runtime = MappingRuntime(
            plan: plan, writer: writer, copies: copies, evaluated: evaluated, foreignKeys: foreignKeys,
            association: association)
        runtimes[plan.mapping.name] = runtime
        currentRuntime = runtime
        return runtime
    }

    /// A foreign key written in stage 1: the current source row's key mapped through the target's
    /// associations, or NULL; counts the edge.
    func stageOneKey(
        _ foreignKey: (column: Int, slot: Int, table: AssociationTable), from reader: RowReader
    )
        -> SQLiteValue
    {
        guard let key = reader.value(at: foreignKey.column).int64,
            let target = foreignKey.table.firstDestination(ofSource: key)
        else { return .null }
        edgesWritten += 1
        return .integer(target.primaryKey)
    }

    /// Writes the row of `destination` through the row buffer, slot by slot: source columns copied as they
    /// are stored, foreign keys looked up, expressions evaluated (all before the row starts, since evaluating
    /// may read the destination), the rest from the template. For the default policy only.
    func writeRow(
        _ destination: ObjectID, from reader: RowReader, runtime: MappingRuntime, mapping: String
    ) throws {
        for (index, target) in runtime.evaluated.enumerated() {
            let value = try evaluate(target.expression, mapping: mapping, property: target.name)
            runtime.results[index] = try Self.sqliteValue(value, as: target.type, property: target.property)
        }
        let sink = try rows.startRow(destination, writer: runtime.writer)
        for fill in runtime.fills {
            switch fill {
            case .value(let value): try sink.put(value)
            case .copy(let column): try sink.copy(column: column, of: reader.statement)
            case .foreignKey(let index): try sink.put(stageOneKey(runtime.foreignKeys[index], from: reader))
            case .evaluated(let index): try sink.put(runtime.results[index])
            }
        }
        try rows.finishRow()
        objectsCreated += 1
    }
}
