public import Foundation

/// What the engine gives the compiler: where source values live, so that `$source.x` compiles to a slot read.
public protocol ExpressionEnvironment {
    /// The slot of `attribute` of the source entity `entity`, read at run time with
    /// ``EvaluationContext/sourceValue(slot:)``; nil when the attribute has no stored value.
    func attributeSlot(entity: String, attribute: String) -> Int?
}

/// What the engine gives an evaluation: the current source and destination objects, and the migration's services.
///
/// One context serves millions of evaluations; the engine moves it from object to object.
public protocol EvaluationContext: AnyObject {
    /// The attribute in `slot` (as the ``ExpressionEnvironment`` assigned it) of the current `$source`.
    func sourceValue(slot: Int) -> ExpressionValue
    /// The current `$source`, or nil when there is none (an add mapping).
    func sourceObject() -> ObjectID?
    /// The current `$destination`, or nil when it does not exist yet.
    func destinationObject() -> ObjectID?
    /// The value at `keyPath` from `object`: an attribute value, `.object` for a to-one relationship,
    /// `.objects` for a to-many one; `.null` when a to-one on the way is empty.
    func value(of object: ObjectID, keyPath: [String]) throws -> ExpressionValue
    /// The destination instances the entity mapping named `entityMapping` made from `sources`
    /// (`.object` or `.objects`), as Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:`.
    func destinationInstances(entityMapping: String, sources: ExpressionValue) throws -> ExpressionValue
    /// The destination instances made from `sources`, reached through the source relationship
    /// `sourceRelationship` of the current `$source`, whatever entity mapping made them.
    func destinationInstances(sourceRelationship: String, sources: ExpressionValue) throws -> ExpressionValue
    /// Calls the current entity mapping's policy with an Objective-C style selector (`"colorFor:with:"`).
    func callPolicy(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue
    /// `now()`: seconds since 2001, fixed for the whole migration so that results are reproducible.
    var now: Double { get }
    /// `uuid()`: a new UUID; an engine may hand out seeded ones so that runs are reproducible.
    func makeUUID() -> UUID
}

extension EvaluationContext {
    /// A random UUID.
    public func makeUUID() -> UUID { UUID() }
}
