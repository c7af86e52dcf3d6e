public import MappingModel

/// Customises how one entity mapping migrates, like Core Data's `NSEntityMigrationPolicy`.
///
/// The engine calls the seven callbacks in Core Data's order: for every entity mapping of a pass,
/// ``begin(_:in:)``, ``createDestinationInstances(for:mapping:in:)`` once per source object, and
/// ``endInstanceCreation(_:in:)``; then for every entity mapping, ``createRelationships(for:mapping:in:)`` once
/// per destination object and ``endRelationshipCreation(_:in:)``; then for every entity mapping,
/// ``performCustomValidation(_:in:)``; and last, for every entity mapping, ``end(_:in:)``.
/// Each callback has a default that does what Core Data's default does; override the ones you need and
/// call ``MigrationSession`` for the default behaviour.
///
/// ```swift
/// final class UppercaseNames: EntityMigrationPolicy {
///     func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
///         let destination = try session.createDestinationInstance(for: source, mapping: mapping)
///         if case .string(let name) = try session.sourceValue("name") {
///             try session.setValue(.string(name.uppercased()), forKey: "name", of: destination)
///         }
///     }
/// }
/// ```
public protocol EntityMigrationPolicy: AnyObject {
    /// Called before the first source object of `mapping`.
    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws
    /// Creates the destination objects for one source object; the default makes one and fills its attributes.
    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws
    /// Called after the last source object of `mapping`.
    func endInstanceCreation(_ mapping: EntityMapping, in session: MigrationSession) throws
    /// Sets the relationships of one destination object; the default evaluates the relationship mappings.
    func createRelationships(for destination: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws
    /// Called after the last destination object's relationships.
    func endRelationshipCreation(_ mapping: EntityMapping, in session: MigrationSession) throws
    /// Checks the destination objects beyond the model's rules; throw to fail the migration.
    func performCustomValidation(_ mapping: EntityMapping, in session: MigrationSession) throws
    /// Called last, once per entity mapping.
    func end(_ mapping: EntityMapping, in session: MigrationSession) throws
    /// The selectors ``perform(selector:arguments:in:)`` answers, so that a mapping calling any other is refused
    /// before anything runs; nil (the default) when the policy does not say, and calls are checked as they run.
    var answeredSelectors: Set<String>? { get }
    /// Answers `FUNCTION($entityPolicy, "selector:", arguments…)` in a value expression.
    func perform(selector: String, arguments: [ExpressionValue], in session: MigrationSession) throws -> ExpressionValue
}

extension EntityMigrationPolicy {
    /// Does nothing.
    public func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {}

    /// Makes one destination object and fills its attributes from the attribute mappings.
    public func createDestinationInstances(
        for source: ObjectID, mapping: EntityMapping, in session: MigrationSession
    ) throws {
        try session.createDestinationInstance(for: source, mapping: mapping)
    }

    /// Does nothing.
    public func endInstanceCreation(_ mapping: EntityMapping, in session: MigrationSession) throws {}

    /// Sets the relationships from the relationship mappings.
    public func createRelationships(
        for destination: ObjectID, mapping: EntityMapping, in session: MigrationSession
    ) throws {
        try session.createRelationships(for: destination, mapping: mapping)
    }

    /// Does nothing.
    public func endRelationshipCreation(_ mapping: EntityMapping, in session: MigrationSession) throws {}

    /// Does nothing.
    public func performCustomValidation(_ mapping: EntityMapping, in session: MigrationSession) throws {}

    /// Does nothing.
    public func end(_ mapping: EntityMapping, in session: MigrationSession) throws {}

    /// Nil: the policy does not say which selectors it answers.
    public var answeredSelectors: Set<String>? { nil }

    /// Refuses every selector.
    public func perform(
        selector: String, arguments: [ExpressionValue], in session: MigrationSession
    ) throws -> ExpressionValue {
        throw MigrationError(.policy, "the policy \(type(of: self)) does not answer '\(selector)'")
    }
}

/// The policy of entity mappings that name none: every callback does the default.
final class DefaultMigrationPolicy: EntityMigrationPolicy, DefaultRelationshipCreation {
    var answeredSelectors: Set<String>? { [] }
}

/// A policy of ours whose ``EntityMigrationPolicy/createRelationships(for:mapping:in:)`` is the default and whose
/// stage 1 sets no relationship but those it names: a relationship mapping that reads only the current source row
/// and associations already complete gives the same foreign key in stage 1 as in stage 2, so the engine writes it
/// into the row as it is made instead of updating the row afterwards.
protocol DefaultRelationshipCreation {
    /// The relationships the policy itself sets on `mapping`'s destination objects in stage 1: stage 2 would
    /// overwrite them with the relationship mappings' values, so those stay in stage 2.
    func relationshipsSetInStageOne(by mapping: EntityMapping) -> Set<String>
}

extension DefaultRelationshipCreation {
    /// None: most policies set no relationship themselves.
    func relationshipsSetInStageOne(by mapping: EntityMapping) -> Set<String> { [] }
}
