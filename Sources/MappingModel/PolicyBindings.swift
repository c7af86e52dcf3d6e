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
///   TagMigrationPolicy:                     # a Swift policy, with what it makes for the verifier
///     makes:
///       - { entity: Tag, relationship: tags, from: tagName, attribute: name, rule: onePerValue }
/// ```
public struct PolicyBindings: Sendable, Hashable {
    /// One class's registered policy and the user info it adds to the entity mappings that name the class.
    public struct Binding: Sendable, Hashable {
        /// The registered policy's name.
        public var policy: String
        /// Settings added to the entity mapping's user info (the mapping's own keys win).
        public var userInfo: [String: String]
        /// What the policy makes, for the verifier (a Swift policy's declaration), or nil.
        public var declaration: PolicyDeclaration?

        /// A binding to `policy` with `userInfo` and, for a Swift policy, its `declaration`.
        public init(policy: String, userInfo: [String: String] = [:], declaration: PolicyDeclaration? = nil) {
            self.policy = policy
            self.userInfo = userInfo
            self.declaration = declaration
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
            let what = "the binding of '\(entry.key)'"
            let fields = try MappingFileFields(
                entry.value, what: "\(what) (a policy name or { policy, userInfo, makes })", context: context)
            try fields.allow(["policy", "userInfo", "makes", "makesMappedObjects"])
            let declared = fields.has("makes") || fields.has("makesMappedObjects")
            bindings[entry.key] = Binding(
                policy: declared
                    ? try fields.string("policy") ?? entry.key : try fields.requiredString("policy", of: what),
                userInfo: try fields.stringMap("userInfo"),
                declaration: declared ? try Self.declaration(fields, of: entry.key, context: context) : nil)
        }
        self.bindings = bindings
    }

    /// The `makes` and `makesMappedObjects` of the binding of `name`.
    private static func declaration(
        _ fields: MappingFileFields, of name: String, context: MappingFileContext
    ) throws(MappingError) -> PolicyDeclaration {
        var made: [MadeObjects] = []
        for node in try fields.list("makes") {
            let what = "an object that '\(name)' makes"
            let object = try MappingFileFields(
                node, what: "\(what) ({ entity, relationship, from, attribute, identifier, rule })", context: context)
            try object.allow(["entity", "relationship", "from", "attribute", "identifier", "rule"])
            let ruleName = try object.string("rule") ?? MadeObjects.Rule.onePerObject.rawValue
            guard let rule = MadeObjects.Rule(rawValue: ruleName) else {
                throw context.error(
                    .malformedFile,
                    "\(what): rule '\(ruleName)' is not one of "
                        + MadeObjects.Rule.allCases.map(\.rawValue).joined(separator: ", "),
                    at: object.value("rule"))
            }
            made.append(
                MadeObjects(
                    rule: rule, entity: try object.requiredString("entity", of: what),
                    relationship: try object.requiredString("relationship", of: what),
                    sourceAttribute: try object.requiredString("from", of: what),
                    attribute: try object.requiredString("attribute", of: what),
                    identifierAttribute: try object.string("identifier")))
        }
        return PolicyDeclaration(makesMappedObjects: try fields.bool("makesMappedObjects") ?? true, makes: made)
    }

    /// These bindings with `declarations` (by registered policy name) added: to every binding to a declared
    /// policy that has no declaration of its own, and as a binding of the policy's own name as a class, unless
    /// one binds that class already.
    public func declaring(_ declarations: [String: PolicyDeclaration]) -> PolicyBindings {
        var result = bindings
        for (name, binding) in result where binding.declaration == nil {
            result[name]?.declaration = declarations[binding.policy]
        }
        for (policy, declaration) in declarations where result[policy] == nil {
            result[policy] = Binding(policy: policy, declaration: declaration)
        }
        return PolicyBindings(result)
    }

    /// These bindings with `other`'s added (`other` wins for a class both bind).
    public func merging(_ other: PolicyBindings) -> PolicyBindings {
        PolicyBindings(bindings.merging(other.bindings) { $1 })
    }
}

extension MappingModel {
    /// The mapping with every entity mapping whose policy class `bindings` binds renamed to its registered
    /// policy (the class kept as ``EntityMapping/policyClass``, for messages), the binding's settings added to its user info and its declaration set.
    public func binding(_ bindings: PolicyBindings) -> MappingModel {
        var bound = self
        for index in bound.entityMappings.indices {
            guard let name = bound.entityMappings[index].policy, let binding = bindings.bindings[name] else { continue }
            if binding.policy != name { bound.entityMappings[index].policyClass = name }
            bound.entityMappings[index].policy = binding.policy
            bound.entityMappings[index].userInfo.merge(binding.userInfo) { own, _ in own }
            if let declaration = binding.declaration { bound.entityMappings[index].declaration = declaration }
        }
        return bound
    }
}

/// An entity mapping whose policy class is bound to no registered policy, run with the base
/// `NSEntityMigrationPolicy` behaviour instead (`--unbound-policies base`): what was not simulated.
public struct UnboundPolicy: Sendable, Hashable {
    /// The mapping model's file, or its name.
    public var mappingModel: String
    /// The entity mapping.
    public var mapping: String
    /// The policy class.
    public var policyClass: String
    /// The property mappings left without a value because their expressions call the policy
    /// (`FUNCTION($entityPolicy, …)`).
    public var properties: [String]

    /// `mapping 'PostToPost' of Migration2to3.xcmappingmodel: policy class 'P' not simulated (…)`.
    public var message: String {
        let left =
            properties.isEmpty
            ? "" : "; \(properties.joined(separator: ", ")) call the policy and are left without a value"
        return "entity mapping '\(mapping)' of \(mappingModel): the policy class '\(policyClass)' is bound to no "
            + "registered policy, so it runs as the base NSEntityMigrationPolicy (its own code is not simulated"
            + "\(left))"
    }
}

extension MappingModel {
    /// The mapping with every entity mapping whose policy is not in `registered` run as the base
    /// `NSEntityMigrationPolicy` would run it: no policy, a custom mapping made the transform (or add, or
    /// remove) its entities make it, and property expressions that call the policy removed; with what was
    /// changed. Core Data's base policy creates the destination objects and applies the property mappings.
    public func runningUnboundPoliciesAsBase(registered: Set<String>) -> (MappingModel, [UnboundPolicy]) {
        var model = self
        var unbound: [UnboundPolicy] = []
        for index in model.entityMappings.indices {
            var mapping = model.entityMappings[index]
            guard let policy = mapping.policy, !registered.contains(policy) else { continue }
            var left: [String] = []
            func strip(_ properties: inout [PropertyMapping]) {
                for property in properties.indices
                where properties[property].valueExpression?.contains("$entityPolicy") == true {
                    properties[property].valueExpression = nil
                    left.append(properties[property].name)
                }
            }
            strip(&mapping.attributeMappings)
            strip(&mapping.relationshipMappings)
            mapping.policy = nil
            if mapping.destinationEntity == nil {
                mapping.attributeMappings = []
                mapping.relationshipMappings = []
            }
            if mapping.kind == .custom {
                mapping.kind =
                    switch (mapping.sourceEntity, mapping.destinationEntity) {
                    case (nil, _): .add
                    case (_, nil): .remove
                    default: .transform
                    }
            }
            model.entityMappings[index] = mapping
            unbound.append(
                UnboundPolicy(
                    mappingModel: file ?? name, mapping: mapping.name, policyClass: policy, properties: left))
        }
        return (model, unbound)
    }
}

/// What runs an entity mapping whose policy class is bound to no registered policy.
public enum UnboundPolicies: String, Sendable, Hashable, CaseIterable, Codable {
    /// An error before anything runs (the default).
    case error
    /// The base `NSEntityMigrationPolicy` behaviour, with a `policyNotSimulated` warning.
    case base

    /// `models` as this choice runs them, with what was not simulated (nothing for ``error``, which leaves the
    /// unbound classes for validation to refuse).
    public func apply(
        to models: [MappingModel], registered: Set<String>
    ) -> (models: [MappingModel], unbound: [UnboundPolicy]) {
        guard self == .base else { return (models, []) }
        var result: [MappingModel] = []
        var unbound: [UnboundPolicy] = []
        for model in models {
            let (run, left) = model.runningUnboundPoliciesAsBase(registered: registered)
            result.append(run)
            unbound += left
        }
        return (result, unbound)
    }
}
