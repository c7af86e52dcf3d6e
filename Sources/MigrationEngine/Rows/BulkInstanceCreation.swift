import Foundation
import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

/// Stage 1 of a default-policy entity mapping run inside SQLite: one `INSERT … SELECT` from the attached
/// source table per range of source keys, instead of reading each source row into Swift and binding it back.
///
/// It makes exactly the rows the row-by-row path would (``DestinationObjects/writeRow(_:from:runtime:)``):
/// source columns are copied by SQLite as they are stored, constants bound once, simple text expressions computed
/// in SQL (``MappingModel/SQLForm``, guarded per row), and the rest through SQL functions the statement calls per
/// row — the destination key and the association, and each stage-1 foreign key through the target's
/// associations (straight in their ``SQLiteDatabase/KeyBitmap`` while they are identity bits), each other
/// expression evaluated with the same compiled code. Only mappings whose every expression reads nothing but the source row's attributes
/// (``CompiledExpression/readsOnlySourceAttributes``) run here: nothing else can observe the order in which
/// SQLite computes a row's columns.
///
/// Streaming storage only: in memory, rows wait for the save by definition.
final class BulkInstanceCreation {
    /// The schema name the source store is attached under on the destination connection.
    static let sourceSchema = "migration_source"
    /// The most of the source file read through memory-mapped I/O: SQLite's own ceiling (`SQLITE_MAX_MMAP_SIZE`).
    static let sourceMapBytes = 0x7fff_0000
    private static let insertKeyFunction = "migrationbench_insert_key"
    private static let memberFunction = "migrationbench_member"
    /// Source keys per statement: the progress and cancellation grain.
    static let keysPerStatement: Int64 = 4_096
    /// The statement's parameters are the range of source keys (1 and 2), then the row's constants.
    private static let firstConstantParameter: Int32 = 3

    private let tally: MigrationTally
    private let witness: RequiredValueWitness
    /// Whether the statement tests every required column of its rows (``RequiredValueWitness``).
    private let testsRequiredColumns: Bool
    private let connection: Connection
    private let functions: RowFunctions
    private let hasFilter: Bool
    private let sourceTable: String
    private let statement: Statement
    private let runtime: MappingRuntime
    /// The names of the bitmap functions registered.
    private let bitmapFunctions: [String]
    /// The bitmaps of the membership functions: their hits are the foreign keys written.
    private let foreignKeyBitmaps: [KeyBitmap]

    /// A built-in policy's columns, where it runs as this set operation (``SetOperationPolicy``).
    private let policyColumns: PolicySetOperation?

    /// The bulk form of `plan`'s stage 1, or nil when some part of the mapping needs the row-by-row path.
    static func make(
        plan: CompiledEntityMappingPlan, runtime: MappingRuntime, session: MigrationSession
    ) throws -> BulkInstanceCreation? {
        guard let sourceEntity = plan.mapping.sourceEntity, plan.filter?.readsOnlySourceAttributes ?? true,
            runtime.row.rendersAsSQL
        else { return nil }
        var policyColumns: PolicySetOperation?
        if !plan.hasDefaultPolicy {
            guard let policy = plan.policy as? any SetOperationPolicy,
                let columns = try policy.setOperation(for: plan.mapping, writer: runtime.writer, session: session)
            else { return nil }
            policyColumns = columns
        }
        return try BulkInstanceCreation(
            plan: plan, runtime: runtime, session: session, sourceEntity: sourceEntity, policyColumns: policyColumns)
    }

    private init(
        plan: CompiledEntityMappingPlan, runtime: MappingRuntime, session: MigrationSession, sourceEntity: String,
        policyColumns: PolicySetOperation?
    ) throws {
        let source = session.source.layout
        let columns = ReaderColumns(entity: sourceEntity, version: session.sourceVersion)
        let table = source.table(for: sourceEntity)
        func sourceColumn(_ property: String) -> String {
            "s." + quoted(table.column(for: property, of: sourceEntity, version: session.sourceVersion)!.name)
        }
        // Per row: the source key, then every stored attribute in slot order (what `$source.x` reads).
        let rowArguments = (["s.Z_PK"] + columns.properties.prefix(columns.attributeTypes.count).map(sourceColumn))
            .joined(separator: ", ")
        var constants: [SQLiteValue] = []
        // While the associations are identity bits, the keys go straight into them, by functions that touch
        // nothing else (``KeyBitmap``); otherwise through the session's own code.
        var bitmaps: [(name: String, bitmap: KeyBitmap, inserts: Bool)] = []
        var objectKey = "\(RowFunctions.object)(s.Z_PK)"
        if runtime.writer.keys.preserving, let keys = runtime.association.identityKeys, keys.count == 0 {
            bitmaps.append((Self.insertKeyFunction, keys, true))
            objectKey = "\(Self.insertKeyFunction)(s.Z_PK)"
        }
        // The bookkeeping columns, then the row plan's slots; the range bounds are parameters 1 and 2.
        var values =
            [objectKey, String(runtime.writer.entityNumber), "1"]
            + runtime.row.selectList(
                sourceColumn: { sourceColumn(columns.properties[$0]) },
                foreignKey: { index, column in
                    if let keys = runtime.row.foreignKeys[index].table.identityKeys {
                        let name = "\(Self.memberFunction)_\(index)"
                        bitmaps.append((name, keys, false))
                        return "\(name)(\(column))"
                    }
                    return "\(RowFunctions.foreignKey)(\(index), \(column))"
                },
                evaluated: { "\(RowFunctions.value)(\($0), \(rowArguments))" },
                constant: { value in
                    constants.append(value)
                    return "?\(Int(Self.firstConstantParameter) + constants.count - 1)"
                })
        let writer = runtime.writer
        // A policy's column replaces the row plan's value; a constant it replaces is bound no more (a parameter
        // the statement no longer names, if the last, cannot be bound).
        var unboundConstants: Set<String> = []
        if let replaced = policyColumns?.sql {
            for (index, column) in writer.inserter.shape.columnNames.enumerated() where replaced[column] != nil {
                unboundConstants.insert(values[index])
                values[index] = replaced[column]!
            }
        }
        // Each required column's value tested for NULL (``RequiredValueWitness``), unless it is a constant
        // SQLite does not hold as NULL (a real NaN it does).
        let (required, allWritten) = RequiredValueWitness.requiredColumns(of: writer, in: session.destination)
        let shape = writer.inserter.shape
        for (slot, column) in shape.slots.enumerated() where required.contains(column) {
            if policyColumns?.sql[column] == nil, case .value(let value) = runtime.row.slots[slot],
                !value.isHeldAsNull
            {
                continue
            }
            values[shape.prefix.count + slot] = RequiredValueWitness.tested(values[shape.prefix.count + slot])
        }
        self.testsRequiredColumns = allWritten
        // In a CASE, so that the filter sees only rows of its own entity, whatever order SQLite tests terms in.
        let entityNumber = source.entityNumbers[sourceEntity]!
        let filterClause =
            plan.filter == nil
            ? "" : " AND CASE WHEN s.Z_ENT = \(entityNumber) THEN \(RowFunctions.value)(-1, \(rowArguments)) END"
        let sql =
            "INSERT INTO main.\(quoted(writer.table.name)) (\(writer.inserter.shape.columnNames.map(quoted).joined(separator: ", "))) "
            + "SELECT \(values.joined(separator: ", ")) FROM \(Self.sourceSchema).\(quoted(table.name)) AS s "
            + "WHERE s.Z_ENT = \(entityNumber) AND s.Z_PK BETWEEN ?1 AND ?2\(filterClause) "
            + "ORDER BY s.Z_PK"
        self.sourceTable = table.name
        self.hasFilter = plan.filter != nil
        self.connection = session.destination.connection
        let context = SourceRowArguments(
            entity: Int32(entityNumber), attributeTypes: columns.attributeTypes, now: session.options.now)
        self.tally = session.tally
        self.witness = session.requiredValues
        self.functions = RowFunctions(runtime: runtime, filter: plan.filter, context: context)
        try functions.register(on: connection)
        self.policyColumns = policyColumns
        try policyColumns?.register(on: connection)
        try witness.registerFunction()
        for (name, bitmap, inserts) in bitmaps {
            if inserts {
                try connection.registerInsertion(name, into: bitmap)
            } else {
                try connection.registerMembership(name, of: bitmap)
            }
        }
        self.bitmapFunctions = bitmaps.map(\.name)
        self.foreignKeyBitmaps = bitmaps.filter { !$0.inserts }.map(\.bitmap)
        self.statement = try connection.prepare(sql)
        self.runtime = runtime
        for (offset, value) in constants.enumerated() {
            let parameter = Self.firstConstantParameter + Int32(offset)
            guard !unboundConstants.contains("?\(parameter)") else { continue }
            try statement.bind(value, at: parameter)
        }
    }

    /// Makes every destination instance of the mapping, range by range, advancing `progress` by the source
    /// objects done.
    func run(progress: ProgressCounter) throws {
        // Each end read alone: SQLite scans the whole table for `MIN(Z_PK), MAX(Z_PK)` in one select.
        guard let keys = try EntityTable.keyRange(ofTable: sourceTable, schema: Self.sourceSchema, in: connection)
        else { return }
        let highest = keys.upperBound
        var start = keys.lowerBound
        while start <= highest {
            let (last, overflow) = start.addingReportingOverflow(Self.keysPerStatement - 1)
            let end = overflow ? highest : min(last, highest)
            try statement.bind(start, at: 1)
            try statement.bind(end, at: 2)
            let outcome = functions.outcome
            (outcome.edgesWritten, outcome.filtered) = (0, 0)
            for bitmap in foreignKeyBitmaps { bitmap.resetHits() }
            do {
                try statement.run()
            } catch {
                if let key = runtime.association.identityKeys?.rejectedKey {
                    // What the association would have said of that key on the row-by-row path.
                    throw runtime.association.outOfBounds("source", key)
                }
                throw outcome.failure ?? error
            }
            tally.objectsCreated += connection.changes
            if testsRequiredColumns { witness.rowsTested += Int64(connection.changes) }
            tally.edgesWritten += outcome.edgesWritten
            for bitmap in foreignKeyBitmaps { tally.edgesWritten += bitmap.hits }
            try progress.advance(by: hasFilter ? outcome.filtered : connection.changes)
            if end == highest { break }
            // The next range starts at the next key, so that keys far apart (1 and 2⁶²) take two statements,
            // not 10¹⁵.
            let next = try connection.withStatement(
                "SELECT MIN(Z_PK) FROM \(Self.sourceSchema).\(quoted(sourceTable)) WHERE Z_PK > ?1"
            ) { statement in
                try statement.bind(end, at: 1)
                return try statement.step() ? statement.value(0).int64 : nil
            }
            guard let next else { break }
            start = next
        }
    }

    deinit {
        // The functions call back into objects of this migration: they must not outlive this statement.
        functions.remove(from: connection)
        policyColumns?.remove(from: connection)
        witness.removeFunction()
        for name in bitmapFunctions { try? connection.removeFunction(name, argumentCount: 1) }
    }
}

/// The SQL functions a ``BulkInstanceCreation`` statement calls per row, each doing what the row-by-row path
/// does for that part of the row. Each closure holds just the objects it uses: they run once per row.
private final class RowFunctions {
    static let object = "migrationbench_object"
    static let foreignKey = "migrationbench_foreign_key"
    static let value = "migrationbench_value"

    /// What the calls found, kept apart from the closures so that they can count without holding the session.
    final class Outcome {
        /// The first error a call met; SQLite carries only its text.
        var failure: (any Error)?
        var edgesWritten = 0
        /// Source rows the filter looked at.
        var filtered = 0

        /// Runs `body`; a thrown error is kept for the statement's caller and fails the statement.
        func guarded(_ call: FunctionCall, _ body: () throws -> Void) {
            do {
                try body()
            } catch {
                if failure == nil { failure = error }
                call.fail(String(describing: error))
            }
        }
    }

    let outcome = Outcome()
    private let runtime: MappingRuntime
    private let filter: CompiledExpression?
    private let context: SourceRowArguments

    init(runtime: MappingRuntime, filter: CompiledExpression?, context: SourceRowArguments) {
        self.runtime = runtime
        self.filter = filter
        self.context = context
    }

    func register(on connection: Connection) throws {
        let outcome = outcome
        // `object(sourceKey)`: allocates the destination key and associates it with the source object.
        let keys = runtime.writer.keys
        let entity = runtime.writer.entityNumber
        let association = runtime.association
        try connection.registerFunction(Self.object, argumentCount: 1) { call in
            outcome.guarded(call) {
                let source = call.int64(at: 0)
                let destination = ObjectID(
                    side: .destination, entity: entity, primaryKey: keys.allocate(preferred: source))
                try association.associate(source: source, destination: destination)
                call.result(destination.primaryKey)
            }
        }
        // `foreign_key(index, sourceForeignKey)`: the stage-1 foreign key `index`, through the target's associations.
        let targets = runtime.row.foreignKeys.map(\.table)
        try connection.registerFunction(Self.foreignKey, argumentCount: 2) { call in
            guard call.value(at: 1).int64 != nil,
                let target = targets[Int(call.int64(at: 0))].firstDestination(ofSource: call.int64(at: 1))
            else { return call.result(.null) }
            outcome.edgesWritten += 1
            call.result(target.primaryKey)
        }
        // `value(index, sourceKey, attributes…)`: evaluated expression `index`, or the filter for −1.
        let context = context
        let evaluated = runtime.row.evaluated
        let filter = filter
        let mapping = runtime.name
        try connection.registerFunction(Self.value, argumentCount: -1) { call in
            outcome.guarded(call) {
                context.call = call
                defer { context.call = nil }
                let index = Int(call.int64(at: 0))
                guard index >= 0, index < evaluated.count else {
                    outcome.filtered += 1
                    return call.result(try filter?.isSatisfied(in: context) == true ? 1 : 0)
                }
                call.result(
                    try evaluated.withUnsafeBufferPointer { targets in
                        try AttributeTarget.columnValue(
                            of: targets.baseAddress! + index, in: context, mapping: mapping, source: call.int64(at: 1))
                    })
            }
        }
    }

    func remove(from connection: Connection) {
        try? connection.removeFunction(Self.object, argumentCount: 1)
        try? connection.removeFunction(Self.foreignKey, argumentCount: 2)
        try? connection.removeFunction(Self.value, argumentCount: -1)
    }
}

/// `$source` as the bulk statement's functions see it: the current call's arguments are the source row
/// (key first, then the stored attributes in slot order). Offers nothing but what
/// ``CompiledExpression/readsOnlySourceAttributes`` expressions read.
private final class SourceRowArguments: EvaluationContext {
    let entity: Int32
    let attributeTypes: [AttributeType]
    let now: Double
    var call: FunctionCall?

    init(entity: Int32, attributeTypes: [AttributeType], now: Double) {
        self.entity = entity
        self.attributeTypes = attributeTypes
        self.now = now
    }

    func sourceValue(slot: Int) -> ExpressionValue {
        guard let call, slot < attributeTypes.count else { return .null }
        // Argument 0 says what to compute, 1 is the key, the attributes follow.
        return MigrationSession.expressionValue(call.value(at: Int32(slot + 2)), as: attributeTypes[slot])
    }

    func sourceObject() -> ObjectID? {
        call.map { ObjectID(side: .source, entity: entity, primaryKey: $0.int64(at: 1)) }
    }

    func destinationObject() -> ObjectID? { nil }

    func value(of object: ObjectID, keyPath: [String]) throws -> ExpressionValue {
        throw Self.outsideTheRow("the key path \(keyPath.joined(separator: "."))")
    }

    func destinationInstances(entityMapping: String, sources: ExpressionValue) throws -> ExpressionValue {
        throw Self.outsideTheRow("destinationInstancesForEntityMappingNamed:")
    }

    func destinationInstances(sourceRelationship: String, sources: ExpressionValue) throws -> ExpressionValue {
        throw Self.outsideTheRow("destinationInstancesForSourceRelationshipNamed:")
    }

    func callPolicy(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        throw Self.outsideTheRow("the policy's \(selector)")
    }

    func makeUUID() -> UUID {
        preconditionFailure("uuid() does not read only the source row")
    }

    /// What ``CompiledExpression/readsOnlySourceAttributes`` rules out: reaching it is a bug in that rule.
    private static func outsideTheRow(_ what: String) -> MigrationError {
        MigrationError(.evaluation, "internal error: \(what) was reached from an expression said to read only its row")
    }
}
