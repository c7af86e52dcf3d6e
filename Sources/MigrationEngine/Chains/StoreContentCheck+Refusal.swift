import ObjectModel
import PersistentStore
import SQLiteDatabase

/// The check a store passes before it is migrated: its `-wal` is its own, and its content fits its own model
/// (``StoreContentCheck``, stopped at the first problem), with no key above the largest a migration takes. A store
/// that breaks its model would otherwise be migrated into a store that silently lacks the rows nothing maps, or
/// worse. The store is opened read-only, so nothing of it changes, and its log is not folded in.
extension StoreContentCheck {
    /// Checks that the store's `-wal`, if it has one, is its own and leaves it whole: run before anything opens
    /// the store for writing, which would fold the log in.
    ///
    /// - Throws: ``MigrationError/Code/damagedStore`` naming the file and what is wrong.
    static func checkLog(storeAt path: String) throws(MigrationError) {
        if let problem = WriteAheadLog.foreignLogProblem(storeAt: path) {
            throw MigrationError(.damagedStore, "\(problem); the store was not migrated", path: path, underlying: nil)
        }
        guard WriteAheadLog.holdsFrames(storeAt: path) else { return }
        var result: String
        do {
            result = try Connection(path: path, mode: .readOnly).scalar("PRAGMA quick_check(1)")?.string ?? ""
        } catch  where StoreFiles.isBusy(error) {
            throw StoreFiles.busy(path, "check it")
        } catch {
            result = error.code.name
        }
        guard result == "ok" else {
            throw refusal(
                path, "is damaged once its -wal is applied (\(result)); the -wal may come from another database")
        }
    }

    /// Checks that the store's tables, columns, entity numbers and keys fit `version`, its own version.
    ///
    /// The layout is the one the store has (its entity numbers, a reflexive join table named from either
    /// side), as Core Data may have written it, not the one a new store would get.
    ///
    /// - Throws: ``MigrationError/Code/damagedStore`` naming the file, the table and what is wrong.
    static func check(storeAt path: String, version: ModelVersion) throws(MigrationError) {
        try reading(path) {
            let connection = try Connection(path: path, mode: .readOnly)
            let layout = try StoreLayout(version: version, readingFrom: connection)
            try checkContent(connection, path: path, layout: layout)
        }
    }

    private static func reading(_ path: String, _ body: () throws -> Void) throws(MigrationError) {
        do {
            try body()
        } catch let error as MigrationError {
            throw error
        } catch  where StoreFiles.isBusy(error) {
            throw StoreFiles.busy(path, "read it")
        } catch {
            throw refusal(path, "cannot be read: \(error)", underlying: error)
        }
    }

    private static func checkContent(_ connection: Connection, path: String, layout: StoreLayout) throws {
        try StoreContentCheck(layout: layout, connection: connection).run(.summary) { problem in
            throw refusal(path, problem.refusal, entity: problem.entity)
        }
        for table in layout.entityTables {
            if let highest = try EntityTable.keyRange(ofTable: table.name, in: connection)?.upperBound,
                highest > InputLimits.primaryKey
            {
                throw refusal(
                    path,
                    "has a row in \(table.name) whose Z_PK \(highest) is above \(InputLimits.primaryKey), the largest "
                        + "key a migration takes", entity: table.root)
            }
        }
    }

    private static func refusal(
        _ path: String, _ problem: String, entity: String? = nil, underlying: (any Error)? = nil
    ) -> MigrationError {
        MigrationError(
            .damagedStore, "\(path): the store \(problem); it was not migrated", entity: entity, path: path,
            underlying: underlying)
    }
}

extension StoreContentCheck.Problem {
    /// The entity the problem is in: a table's root entity, or a join table's owner.
    fileprivate var entity: String {
        switch self {
        case .missingTable(_, let owner, _), .missingColumn(_, _, let owner, _): owner
        case .keyIsNotRowid(_, let root), .noPrimaryKeyRow(let root), .rowsOfNoEntity(_, let root, _, _),
            .keyBelowOne(_, let root, _), .keyAboveMaximum(_, let root, _, _),
            .rowOutsideModel(_, let root, _, _, _, _):
            root
        }
    }

    /// What the store has that its model does not allow, after "the store".
    fileprivate var refusal: String {
        switch self {
        case .missingTable(let table, let owner, let isJoinTable):
            "has no table \(table) (\(isJoinTable ? "" : "entity ")\(owner))"
        case .missingColumn(let table, let column, let owner, let isJoinTable):
            "has no such column \(table).\(column) (\(isJoinTable ? "" : "entity ")\(owner))"
        case .keyIsNotRowid(let table, _):
            "has a table \(table) whose Z_PK is not its INTEGER PRIMARY KEY, so keys may repeat"
        case .noPrimaryKeyRow(let root):
            "has no Z_PRIMARYKEY row for entity \(root)"
        case .rowsOfNoEntity(let table, _, let count, let firstKey):
            "has \(count) row(s) in \(table) whose Z_ENT is no entity of it (the first is Z_PK \(firstKey)); they "
                + "would be lost"
        case .keyBelowOne(let table, _, let key):
            "has a row in \(table) whose Z_PK \(key) is below 1"
        case .keyAboveMaximum(let table, let root, let key, let maximum):
            "has a row in \(table) whose Z_PK \(key) is above Z_PRIMARYKEY's Z_MAX \(maximum) for \(root)"
        case .rowOutsideModel(let table, _, let key, let storedEntity, _, _):
            "has a row in \(table) (Z_PK \(key), Z_ENT \(storedEntity)) outside its model"
        }
    }
}
