import Synchronization

/// Policies by the name that mapping models give them, like Core Data's `entityMigrationPolicyClassName`.
///
/// A fresh policy object is made for every migration from its factory, so policies may keep state.
/// ``builtIn()`` holds the policies this package ships; register your own with ``register(_:factory:)``.
public final class PolicyRegistry: Sendable {
    /// Makes one policy object.
    public typealias Factory = @Sendable () -> any EntityMigrationPolicy

    private let factories: Mutex<[String: Factory]>

    /// A registry holding `factories`.
    public init(_ factories: [String: Factory] = [:]) {
        self.factories = Mutex(factories)
    }

    /// A registry holding the built-in policies (see ``BuiltInPolicies``).
    public static func builtIn() -> PolicyRegistry {
        PolicyRegistry(BuiltInPolicies.all)
    }

    /// Registers `factory` under `name`, replacing any policy of that name.
    public func register(_ name: String, factory: @escaping Factory) {
        factories.withLock { $0[name] = factory }
    }

    /// The names registered.
    public var names: Set<String> {
        factories.withLock { Set($0.keys) }
    }

    /// A new policy object for `name`.
    func makePolicy(_ name: String) -> (any EntityMigrationPolicy)? {
        factories.withLock { $0[name] }?()
    }
}
