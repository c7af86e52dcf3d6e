public import MappingModel
import Synchronization

/// Policies by the name that mapping models give them, like Core Data's `entityMigrationPolicyClassName`.
///
/// A fresh policy object is made for every migration from its factory, so policies may keep state.
/// ``builtIn()`` holds the policies this package ships; register your own with ``register(_:factory:)``, and the
/// functions that `FUNCTION($entityPolicy, "selector:", …)` calls with ``register(_:for:function:)``.
public final class PolicyRegistry: Sendable {
    /// Makes one policy object.
    public typealias Factory = @Sendable () -> any EntityMigrationPolicy
    /// Answers `FUNCTION($entityPolicy, "selector:", arguments…)` for one policy.
    public typealias Function =
        @Sendable (_ arguments: [ExpressionValue], _ session: MigrationSession) throws ->
        ExpressionValue

    private let factories: Mutex<[String: Factory]>
    private let functions = Mutex<[String: [String: Function]]>([:])
    private let declared = Mutex<[String: PolicyDeclaration]>([:])

    /// A registry holding `factories`.
    public init(_ factories: [String: Factory] = [:]) {
        self.factories = Mutex(factories)
    }

    /// A registry holding the built-in policies (see ``BuiltInPolicies``).
    public static func builtIn() -> PolicyRegistry {
        PolicyRegistry(BuiltInPolicies.all)
    }

    /// Registers `factory` under `name`, replacing any policy of that name (and its declaration).
    public func register(_ name: String, factory: @escaping Factory) {
        factories.withLock { $0[name] = factory }
        declared.withLock { $0[name] = nil }
    }

    /// Registers `factory` under `name` with what the policy makes, so that the verifier, which never runs it,
    /// checks its objects against `declaration` instead of listing them as not checked or unexpected.
    ///
    /// ```swift
    /// registry.register(
    ///     "Post2ToPost3MigrationPolicy",
    ///     declaring: PolicyDeclaration(makes: [.onePerObject("Color", through: "color", from: "hexColor", into: "hex")])
    /// ) { Post2ToPost3MigrationPolicy() }
    /// ```
    public func register(_ name: String, declaring declaration: PolicyDeclaration, factory: @escaping Factory) {
        factories.withLock { $0[name] = factory }
        declared.withLock { $0[name] = declaration }
    }

    /// The declarations of the policies registered with one, by name.
    public var declarations: [String: PolicyDeclaration] {
        declared.withLock { $0 }
    }

    /// Registers `function` as the answer of the policy `policy` to `selector` (`"toInt16WithValue:"`), as an
    /// app's `@objc` method of its NSEntityMigrationPolicy subclass; registers the default policy under
    /// `policy` when no policy has that name yet.
    ///
    /// ```swift
    /// registry.register("toInt16WithValue:", for: "CustomMigration") { arguments, _ in
    ///     if case .string(let text) = arguments[0], let number = Int64(text) { return .integer(number) }
    ///     return .integer(0)
    /// }
    /// ```
    public func register(_ selector: String, for policy: String, function: @escaping Function) {
        functions.withLock { $0[policy, default: [:]][selector] = function }
        factories.withLock { factories in
            if factories[policy] == nil { factories[policy] = { DefaultMigrationPolicy() } }
        }
    }

    /// The names registered.
    public var names: Set<String> {
        factories.withLock { Set($0.keys) }
    }

    /// The selectors each policy answers, for the policies that say: registered functions plus the policy's
    /// own ``EntityMigrationPolicy/answeredSelectors``. A policy whose own answers are unknown is left out.
    var selectors: [String: Set<String>] {
        let registered = functions.withLock { $0.mapValues { Set($0.keys) } }
        var result: [String: Set<String>] = [:]
        for name in names {
            guard let own = makePolicy(name)?.answeredSelectors else { continue }
            result[name] = own.union(registered[name] ?? [])
        }
        return result
    }

    /// A new policy object for `name`, answering the functions registered for it.
    func makePolicy(_ name: String) -> (any EntityMigrationPolicy)? {
        guard let policy = factories.withLock({ $0[name] })?() else { return nil }
        let registered = functions.withLock { $0[name] } ?? [:]
        return registered.isEmpty ? policy : FunctionAnsweringPolicy(policy, functions: registered)
    }
}

/// A policy and the functions registered for it: selectors go to the functions first, then to the policy.
final class FunctionAnsweringPolicy: EntityMigrationPolicy {
    private let policy: any EntityMigrationPolicy
    private let functions: [String: PolicyRegistry.Function]

    init(_ policy: any EntityMigrationPolicy, functions: [String: PolicyRegistry.Function]) {
        self.policy = policy
        self.functions = functions
    }

    var answeredSelectors: Set<String>? { policy.answeredSelectors.map { $0.union(functions.keys) } }

    func begin(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try policy.begin(mapping, in: session)
    }

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        try policy.createDestinationInstances(for: source, mapping: mapping, in: session)
    }

    func endInstanceCreation(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try policy.endInstanceCreation(mapping, in: session)
    }

    func createRelationships(for destination: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        try policy.createRelationships(for: destination, mapping: mapping, in: session)
    }

    func endRelationshipCreation(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try policy.endRelationshipCreation(mapping, in: session)
    }

    func performCustomValidation(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try policy.performCustomValidation(mapping, in: session)
    }

    func end(_ mapping: EntityMapping, in session: MigrationSession) throws {
        try policy.end(mapping, in: session)
    }

    func perform(selector: String, arguments: [ExpressionValue], in session: MigrationSession) throws -> ExpressionValue
    {
        if let function = functions[selector] { return try function(arguments, session) }
        return try policy.perform(selector: selector, arguments: arguments, in: session)
    }
}
