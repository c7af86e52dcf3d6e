/// One step of a compiled expression: computes a value for the current object.
typealias Evaluator = @Sendable (any EvaluationContext) throws -> ExpressionValue

/// A value expression parsed, type-checked and compiled once into a tree of closures, ready to be evaluated
/// for millions of objects without parsing or name look-ups: `$source.attribute` reads a slot.
///
/// ```swift
/// let compiled = try mapping.validated(source: v1, destination: v2)
/// let hexColor = compiled.entityMapping(named: "PostToPost")!.attribute(named: "hexColor")!.expression!
/// let value = try hexColor.evaluate(in: context)   // context: the engine's EvaluationContext
/// ```
public struct CompiledExpression: Sendable {
    /// The expression text, as written.
    public let text: String
    /// The type of the values it yields (for property mappings, the destination property's type).
    public let type: ExpressionType
    /// The entity mapping the expression belongs to, for errors.
    public let mapping: String?
    /// The destination property (or `filter`) the expression belongs to, for errors.
    public let property: String?
    /// The value, when it is the same for every object (a constant, or made only of constants).
    public let constantValue: ExpressionValue?
    /// What the expression is — a source key path, a constant, a relationship carried across, or anything else.
    package let shape: ExpressionShape
    /// Whether the value depends only on the current source object's stored attributes and constants — no
    /// `$destination`, relationship, `FUNCTION` or `uuid()` — so that it can be computed from the source row
    /// alone, in any order, with a context that offers nothing else.
    package let readsOnlySourceAttributes: Bool
    /// The same text value as SQL over the source row, when SQLite can compute it exactly (see ``SQLForm``).
    package let sqlForm: SQLForm?
    private let run: Evaluator

    init(
        text: String,
        type: ExpressionType,
        mapping: String?,
        property: String?,
        constantValue: ExpressionValue?,
        shape: ExpressionShape,
        readsOnlySourceAttributes: Bool,
        sqlForm: SQLForm?,
        run: @escaping Evaluator
    ) {
        self.text = text
        self.type = type
        self.mapping = mapping
        self.property = property
        self.constantValue = constantValue
        self.shape = shape
        self.readsOnlySourceAttributes = readsOnlySourceAttributes
        self.sqlForm = sqlForm
        self.run = run
    }

    /// The value for the current object of `context`.
    ///
    /// - Throws: ``EvaluationError`` naming the expression and column when a value cannot be computed
    ///   (division by zero, a text that is not a date, …); errors thrown by `context` pass through unchanged.
    public func evaluate(in context: any EvaluationContext) throws -> ExpressionValue {
        try Self.evaluate(run, in: context, text: text, mapping: mapping, property: property)
    }

    /// ``evaluate(in:)`` as a closure, for a caller that evaluates the expression object after object: calling
    /// it copies nothing, where calling ``evaluate(in:)`` on an expression held in an array or a class copies
    /// the whole expression first (every field retained and released).
    public var evaluator: @Sendable (any EvaluationContext) throws -> ExpressionValue {
        let (run, text, mapping, property) = (run, text, mapping, property)
        return { context in try Self.evaluate(run, in: context, text: text, mapping: mapping, property: property) }
    }

    private static func evaluate(
        _ run: Evaluator, in context: any EvaluationContext, text: String, mapping: String?, property: String?
    ) throws -> ExpressionValue {
        do {
            return try run(context)
        } catch var error as EvaluationError {
            error.expression = text
            error.mapping = error.mapping ?? mapping
            error.property = error.property ?? property
            throw error
        }
    }

    /// Whether the condition holds for the current object of `context` (a source filter): `nil` is false.
    public func isSatisfied(in context: any EvaluationContext) throws -> Bool {
        ValueOperations.truth(try evaluate(in: context))
    }
}
