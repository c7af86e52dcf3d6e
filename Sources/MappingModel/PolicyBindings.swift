import Foundation
import ObjectModel
package import Yams

/// Binds the policy classes that Xcode mapping models name (`Post2ToPost3MigrationPolicy`) to registered policies
/// (`SplitAttributeIntoEntity`), with the settings a built-in policy reads from its entity mapping's user info.
///
/// Written in a binding file or under a scenario's `policies` key, each class as a name or with settings:
///
/// ```yaml
/// policies:
///   Post2ToPost3MigrationPolicy:
///     policy: SplitAttributeIntoEntity
///     userInfo: { attribute: hexColor, entity: Color, targetAttribute: hex, relationship: color }
///   CustomMigration: CustomMigration        # a Swift policy registered under the class name
/// ```
public struct PolicyBindings: Sendable, Hashable {
    /// One class's registered policy and the user info it adds to the entity mappings that name the class.
    public struct Binding: Sendable, Hashable {
        /// The registered policy's name.
        public var policy: String
        /// Settings added to the entity mapping's user info (the mapping's own keys win).
        public var userInfo: [String: String]

        /// A binding to `policy` with `userInfo`.
        public init(policy: String, userInfo: [String: String] = [:]) {
            self.policy = policy
            self.userInfo = userInfo
        }
    }

    /// The bindings by class name (without module prefix).
    public var bindings: [String: Binding]

    /// Bindings by class name.
    public init(_ bindings: [String: Binding] = [:]) {
        self.bindings = bindings
    }

    /// Reads a binding file: a YAML mapping with one key, `policies`.
    public static func load(path: String) throws(MappingError) -> PolicyBindings {
        let root = try MappingModelLoader.composeDocument(MappingModelLoader.readText(path: path), file: path)
        let context = MappingFileContext(file: path)
        let top = try MappingFileFields(root, what: "the binding file", context: context)
        try top.allow(["policies"])
        guard let node = top.value("policies") else {
            throw context.error(.malformedFile, "the binding file has no 'policies'", at: root)
        }
        return try PolicyBindings(node: node, file: path)
    }

    /// Reads the `policies` mapping `node` of `file` (a binding file or a scenario).
    package init(node: Node, file: String) throws(MappingError) {
        let context = MappingFileContext(file: file)
        var bindings: [String: Binding] = [:]
        for entry in try MappingFileFields(node, what: "'policies'", context: context).entries {
            if let name = entry.value.scalar?.string, !MappingFileFields.isNull(entry.value) {
                bindings[entry.key] = Binding(policy: name)
                continue
            }
            let fields = try MappingFileFields(
                entry.value, what: "the binding of '\(entry.key)' (a policy name or { policy, userInfo })",
                context: context)
            try fields.allow(["policy", "userInfo"])
            bindings[entry.key] = Binding(
                policy: try fields.requiredString("policy", of: "the binding of '\(entry.key)'"),
                userInfo: try fields.stringMap("userInfo"))
        }
        self.bindings = bindings
    }

    /// These bindings with `other`'s added (`other` wins for a class both bind).
    public func merging(_ other: PolicyBindings) -> PolicyBindings {
        PolicyBindings(bindings.merging(other.bindings) { $1 })
    }
}

extension MappingModel {
    /// The mapping with every entity mapping whose policy class `bindings` binds renamed to its registered
    /// policy, and the binding's settings added to its user info.
    public func binding(_ bindings: PolicyBindings) -> MappingModel {
        var bound = self
        for index in bound.entityMappings.indices {
            guard let name = bound.entityMappings[index].policy, let binding = bindings.bindings[name] else { continue }
            bound.entityMappings[index].policy = binding.policy
            bound.entityMappings[index].userInfo.merge(binding.userInfo) { own, _ in own }
        }
        return bound
    }
}
