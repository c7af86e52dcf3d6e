import Foundation
import IntegrityVerification
import MigrationEngine
import ObjectModel
import PersistentStore
import SQLiteDatabase
import ScenarioRunner

/// A store in Core Data's layout for a migration test: insert objects into it, migrate it, read it back.
///
/// Objects are inserted while the store is new; the first migration or read finishes it as Core Data leaves a
/// store (indexes, primary-key maxima, write-ahead log mode), after which it takes no more inserts.
public final class TestStore {
    /// The store file.
    public let path: String
    /// The version the store is at.
    public private(set) var version: ModelVersion
    let model: MigrationTestModel
    private var loading: Store?
    private var inserters: [String: RowInserter] = [:]
    private var nextKeys: [String: Int64] = [:]
    private var orderKeys: [String: Int64] = [:]

    init(creatingAt path: String, version: ModelVersion, model: MigrationTestModel) throws {
        self.path = path
        self.version = version
        self.model = model
        loading = try Store.create(at: path, version: version)
    }

    init(existingAt path: String, version: ModelVersion, model: MigrationTestModel) throws {
        self.path = path
        self.version = version
        self.model = model
    }

    /// Inserts an object of `entity` with attribute `values` (an attribute left out gets its default value, or
    /// none) and `relationships` to objects inserted before, and returns it.
    ///
    /// A to-one relationship takes one object; a to-many one any number, also when the store keeps it on the
    /// other side (the inverse to-one of each object is set).
    ///
    /// - Throws: ``MigrationTestError`` for an unknown entity, attribute or relationship, an object of the
    ///   wrong entity, or a store already migrated or read.
    @discardableResult
    public func insert(
        _ entity: String, _ values: [String: AttributeValue] = [:], relationships: [String: [TestObject]] = [:]
    ) throws -> TestObject {
        guard let store = loading else {
            throw MigrationTestError("\(path): objects are inserted before the store is first migrated or read")
        }
        guard let description = version.entity(named: entity), !description.isAbstract else {
            throw MigrationTestError("version '\(version.name)' has no concrete entity '\(entity)'")
        }
        let attributes = version.storedAttributes(of: entity)
        let links = version.relationships(of: entity).filter { !$0.isTransient }
        for name in values.keys where !attributes.contains(where: { $0.name == name }) {
            throw MigrationTestError("entity '\(entity)' of version '\(version.name)' has no attribute '\(name)'")
        }
        for name in relationships.keys where !links.contains(where: { $0.name == name }) {
            throw MigrationTestError("entity '\(entity)' of version '\(version.name)' has no relationship '\(name)'")
        }
        let inserter = try inserters[entity] ?? RowInserter(store: store, entity: entity)
        inserters[entity] = inserter
        let root = store.layout.table(for: entity).name
        let key = (nextKeys[root] ?? 0) + 1
        nextKeys[root] = key
        try inserter.begin(primaryKey: key)
        for attribute in attributes {
            guard let index = inserter.parameter(for: attribute.name) else { continue }
            try inserter.statement.bind(
                (values[attribute.name] ?? attribute.defaultValue)?.sqliteValue ?? .null, at: index)
        }
        let object = TestObject(entity: entity, primaryKey: key)
        var later: [(Relationship, [TestObject])] = []
        for relationship in links {
            let targets = relationships[relationship.name] ?? []
            try check(targets, of: relationship, in: entity)
            if let index = inserter.parameter(for: relationship.name) {
                try inserter.statement.bind(targets.first.map { .integer($0.primaryKey) } ?? .null, at: index)
                if let order = inserter.orderKeyParameter(for: relationship.name) {
                    try inserter.statement.bind(nextOrderKey(relationship.name), at: order)
                }
            } else if !targets.isEmpty {
                later.append((relationship, targets))
            }
        }
        try inserter.insert()
        for (relationship, targets) in later {
            try relate(object, through: relationship, to: targets, in: store)
        }
        return object
    }

    /// Migrates the store to `target` (the current version by default) step by step, as the app would, each
    /// step checked by the independent verifier against the store before it.
    ///
    /// - Returns: every step with its verification; ``MigrationTestResult/passed`` when all are clean.
    /// - Throws: a `MigrationError` when a step cannot run or fails, as Core Data's would (134110 for a required
    ///   value no object has, a mapping model that does not compile, …).
    @discardableResult
    public func migrate(to target: String? = nil) throws -> MigrationTestResult {
        try finishLoading()
        let migrator = try model.migrator()
        let plan = try migrator.plan(from: version.name, to: target ?? model.history.currentVersionName)
        var steps: [MigrationTestResult.Step] = []
        for (index, step) in plan.steps.enumerated() {
            try requireRegisteredPolicies(step.mappingModels)
            let before = "\(path).before-\(index + 1)"
            try FileManager.default.copyItem(atPath: path, toPath: before)
            defer { Store.remove(at: before) }
            try migrator.migrateStore(at: path, to: step.to)
            let verification = try ScenarioSetup.verify(
                step, history: model.history, mappingModels: model.mappingModels, source: before, destination: path)
            steps.append(MigrationTestResult.Step(step: step.summary, verification: verification))
            version = try model.requireVersion(step.to)
        }
        return MigrationTestResult(steps: steps)
    }

    /// Refuses, before the step runs, a policy that the mapping models name and no registered policy answers,
    /// with what to pass to ``MigrationTestModel`` (the engine's own message speaks of the command line's
    /// binding files).
    private func requireRegisteredPolicies(_ mappingModels: [MappingModel]) throws {
        let registered = model.policies.names
        for mappingModel in mappingModels {
            for mapping in mappingModel.entityMappings {
                guard let policy = mapping.policy, !registered.contains(policy) else { continue }
                throw MigrationTestError(
                    (mappingModel.file.map { "\($0): " } ?? "") + "mapping '\(mapping.name)': the policy '\(policy)' "
                        + "is bound to no registered policy: bind it to one with MigrationTestModel's bindings: "
                        + "(PolicyBindings([\"\(policy)\": .init(policy: \"SplitAttributeIntoEntity\", userInfo: …)])) "
                        + "or register a Swift policy of that name in its policies: "
                        + "(PolicyRegistry.register(\"\(policy)\", declaring:factory:))")
            }
        }
    }

    /// The value at `keyPath` (`title`, or through to-one relationships: `author.name`) of every object of
    /// `entity` (its own objects, not its subentities'), in the order they were inserted; nil where a value or
    /// a related object is missing.
    ///
    /// - Throws: ``MigrationTestError`` for an unknown entity, a key that is not an attribute or a to-one
    ///   relationship, or a key path that ends at a relationship.
    public func values(_ entity: String, keyPath: String) throws -> [AttributeValue?] {
        try finishLoading()
        let store = try Store.open(at: path, version: version, readOnly: true)
        return try TestStoreReading(store: store).values(
            entity, keyPath: keyPath.split(separator: ".").map(String.init))
    }

    /// Reads `keyPath` of every object of `entity`, as ``values(_:keyPath:)`` does, and throws unless they are
    /// `expected`, with both sides in the message: `#expect(try store.values(…) == […])` prints neither, as Swift
    /// Testing does not expand an expression that contains `try` (`let values = try store.values(…)` first, then
    /// `#expect(values == […])`, prints both too).
    ///
    /// - Throws: ``MigrationTestError`` `Post.color.hex: expected ["#ff0000"], found [nil]`, or what
    ///   ``values(_:keyPath:)`` throws.
    public func expectValues(_ entity: String, keyPath: String, _ expected: [AttributeValue?]) throws {
        let found = try values(entity, keyPath: keyPath)
        guard found != expected else { return }
        func list(_ values: [AttributeValue?]) -> String {
            "[" + values.map(MigrationTestError.describe).joined(separator: ", ") + "]"
        }
        throw MigrationTestError("\(entity).\(keyPath): expected \(list(expected)), found \(list(found))")
    }

    /// The number of objects of `entity` (its own, not its subentities').
    public func count(_ entity: String) throws -> Int {
        try finishLoading()
        return try Store.open(at: path, version: version, readOnly: true).objectCounts()[entity] ?? 0
    }

    private func finishLoading() throws {
        guard let store = loading else { return }
        inserters = [:]
        try store.finishBulkLoad()
        loading = nil
    }

    private func nextOrderKey(_ relationship: String) -> Int64 {
        let key = (orderKeys[relationship] ?? 0) + 1
        orderKeys[relationship] = key
        return key
    }

    private func check(_ targets: [TestObject], of relationship: Relationship, in entity: String) throws {
        for target in targets where !version.entity(target.entity, isKindOf: relationship.destination) {
            throw MigrationTestError(
                "relationship '\(entity).\(relationship.name)' leads to '\(relationship.destination)', not to '\(target.entity)'"
            )
        }
        if !relationship.isToMany && targets.count > 1 {
            throw MigrationTestError("relationship '\(entity).\(relationship.name)' is to-one: give it one object")
        }
    }

    /// Sets a relationship the store keeps elsewhere: in a join table, or in each target's inverse to-one.
    private func relate(
        _ object: TestObject, through relationship: Relationship, to targets: [TestObject], in store: Store
    )
        throws
    {
        let layout = store.layout
        if let join = layout.joinTable(for: relationship.name, of: object.entity) {
            let inserter = try JoinRowInserter(store: store, table: join)
            let owner = join.isOwner(relationship.name, of: object.entity)
            for (position, target) in targets.enumerated() {
                let order = Int64(position + 1)
                try inserter.insert(
                    owner: owner ? object.primaryKey : target.primaryKey,
                    destination: owner ? target.primaryKey : object.primaryKey,
                    orderKeys: owner ? (order, nil) : (nil, order))
            }
            return
        }
        guard let inverse = relationship.inverse else {
            throw MigrationTestError(
                "relationship '\(object.entity).\(relationship.name)' has no inverse to store it in")
        }
        for (position, target) in targets.enumerated() {
            let table = layout.table(for: target.entity)
            guard let column = table.column(for: inverse, of: target.entity, version: version) else { continue }
            var assignments = ["\(quoted(column.name)) = \(object.primaryKey)"]
            if let order = table.orderKeyColumn(for: inverse, of: target.entity, version: version) {
                assignments.append("\(quoted(order.name)) = \(position + 1)")
            }
            try store.connection.execute(
                "UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = \(target.primaryKey)"
            )
        }
    }
}

/// An object inserted into a ``TestStore``: its entity and primary key.
public struct TestObject: Sendable, Hashable {
    /// The entity.
    public let entity: String
    /// The primary key (`Z_PK`).
    public let primaryKey: Int64
}

/// What a ``TestStore/migrate(to:)`` did: every step, with what the verifier found.
public struct MigrationTestResult: Sendable {
    /// One step and its verification.
    public struct Step: Sendable {
        /// The step.
        public let step: MigrationStepPlan.Summary
        /// What the verifier found in the store after the step.
        public let verification: VerificationResult
    }

    /// Every step, in order; none when the store was at the target already.
    public let steps: [Step]

    /// Whether every step's store verified clean.
    public var passed: Bool { steps.allSatisfy { $0.verification.passed } }
}

/// Short descriptions that a failed `#expect(migration.passed)` or `XCTAssert` prints: every step with its
/// verdict, and the first violations of a step that failed.
extension MigrationTestResult: CustomStringConvertible {
    /// `passed: 3 steps` or `failed at 1 of 3 steps`, then one line per step, its violations below it.
    public var description: String {
        let failed = steps.filter { !$0.verification.passed }.count
        let plural = steps.count == 1 ? "" : "s"
        let head =
            failed == 0 ? "passed: \(steps.count) step\(plural)" : "failed at \(failed) of \(steps.count) step\(plural)"
        return ([head] + steps.map { "\($0)" }).joined(separator: "\n")
    }
}

extension MigrationTestResult.Step: CustomStringConvertible {
    /// `V2 → V3 (heavyweight): failed: …`, the violations indented below.
    public var description: String {
        "\(step.from) → \(step.to) (\(step.kind.rawValue)): "
            + verification.description.split(separator: "\n", omittingEmptySubsequences: false).joined(
                separator: "\n  ")
    }
}
