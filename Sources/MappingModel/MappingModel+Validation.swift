public import ObjectModel

extension MappingModel {
    /// Checks the mapping against the two versions before anything runs, and compiles every expression.
    ///
    /// Checks that the version names (when given) are the versions', that every entity exists and its version
    /// hash (when given) equals the model's, that the kinds' rules hold, that every destination property exists,
    /// that every policy is registered (when `policies` is given), and that every expression parses and
    /// type-checks.
    ///
    /// - Parameters:
    ///   - policies: the names of the registered policies; nil accepts any name.
    ///   - policySelectors: the selectors that `FUNCTION($entityPolicy, …)` may call, for each policy that says;
    ///     calls to a policy not listed are checked when they run.
    ///   - environment: where source attributes live; by default ``StoredAttributeSlots`` of `source`.
    /// - Throws: ``MappingError`` naming the file and line (for a mapping read from a file), the entity
    ///   mapping, the property and the column in the expression.
    public func validated(
        source: ModelVersion,
        destination: ModelVersion,
        policies: Set<String>? = nil,
        policySelectors: [String: Set<String>] = [:],
        environment: (any ExpressionEnvironment)? = nil
    ) throws(MappingError) -> CompiledMappingModel {
        let environment = environment ?? StoredAttributeSlots(model: source)
        for (side, expected, version) in [
            ("sourceVersion", sourceVersion, source), ("destinationVersion", destinationVersion, destination),
        ] {
            if let expected, expected != version.name {
                throw lines.locate(
                    MappingError(
                        .versionMismatch, "the mapping is for version '\(expected)', not '\(version.name)'"),
                    key: side)
            }
        }
        var seen: Set<String> = []
        var compiled: [CompiledEntityMapping] = []
        for mapping in entityMappings {
            guard seen.insert(mapping.name).inserted else {
                throw lines.locate(
                    MappingError(
                        .duplicateName, "two entity mappings are named '\(mapping.name)'", mapping: mapping.name))
            }
            var validator = EntityMappingValidator(
                mapping: mapping, source: source, destination: destination, entityMappings: entityMappings,
                environment: environment)
            validator.selectors = mapping.policy.flatMap { policySelectors[$0] }
            validator.isXcode = embedded != nil || file?.hasSuffix(".cdm") == true
            do {
                compiled.append(try validator.validate(policies: policies))
            } catch {
                throw lines.locate(error, key: validator.key)
            }
        }
        return CompiledMappingModel(model: self, source: source, destination: destination, entityMappings: compiled)
    }
}

/// Checks and compiles one entity mapping; `key` names the part of the file being checked, for errors.
private struct EntityMappingValidator {
    let mapping: EntityMapping
    let source: ModelVersion
    let destination: ModelVersion
    let entityMappings: [EntityMapping]
    let environment: any ExpressionEnvironment
    var key: String?
    /// The selectors the mapping's policy answers, when it says.
    var selectors: Set<String>?
    /// Whether the mapping comes from an Xcode file, whose policies are class names to bind.
    var isXcode = false

    init(
        mapping: EntityMapping,
        source: ModelVersion,
        destination: ModelVersion,
        entityMappings: [EntityMapping],
        environment: any ExpressionEnvironment
    ) {
        self.mapping = mapping
        self.source = source
        self.destination = destination
        self.entityMappings = entityMappings
        self.environment = environment
    }

    private func fail(_ code: MappingError.Code, _ message: String, property: String? = nil) -> MappingError {
        MappingError(code, message, mapping: mapping.name, property: property)
    }

    mutating func validate(policies: Set<String>?) throws(MappingError) -> CompiledEntityMapping {
        key = "kind"
        if let problem = mapping.kindProblem { throw fail(.invalidKind, problem) }
        key = "policy"
        if let policy = mapping.policy, let policies, !policies.contains(policy) {
            let known =
                policies.isEmpty ? "none is registered" : "registered: " + policies.sorted().joined(separator: ", ")
            if isXcode {
                throw fail(
                    .unknownPolicy,
                    "the policy class '\(policy)' is bound to no registered policy: bind it in a binding file "
                        + "(--policies), a scenario's policies: key or MigrationTestModel's bindings:, or register a "
                        + "Swift policy of that name (\(known))")
            }
            throw fail(.unknownPolicy, "unknown policy '\(policy)' (\(known))")
        }
        try checkEntity(mapping.sourceEntity, in: source, hash: mapping.sourceEntityVersionHash, side: "source")
        try checkEntity(
            mapping.destinationEntity, in: destination, hash: mapping.destinationEntityVersionHash, side: "destination")
        key = "filter"
        let filter = try mapping.sourceFilter.map { text throws(MappingError) in
            try compiler(property: "filter", purpose: .filter).compile(text)
        }
        key = "attributes"
        let attributes = try attributeMappings()
        key = "relationships"
        let relationships = try relationshipMappings()
        key = nil
        return CompiledEntityMapping(
            mapping: mapping, sourceFilter: filter, attributes: attributes, relationships: relationships)
    }

    private mutating func checkEntity(
        _ name: String?,
        in version: ModelVersion,
        hash: VersionHash?,
        side: String
    ) throws(MappingError) {
        key = side
        guard let name else { return }
        guard let actual = version.versionHashes[name] else {
            throw fail(.unknownEntity, "unknown \(side) entity '\(name)' in version '\(version.name)'")
        }
        key = side + "Hash"
        if let hash, hash != actual {
            throw fail(
                .versionHashMismatch,
                "the \(side) entity '\(name)' has version hash \(actual.hex) in version '\(version.name)', "
                    + "not \(hash.hex)")
        }
    }

    private func compiler(property: String, purpose: ExpressionScope.Purpose) -> ExpressionCompiler {
        ExpressionCompiler(
            scope: ExpressionScope(
                source: source, destination: destination, entityMapping: mapping, entityMappings: entityMappings,
                property: property, purpose: purpose, environment: environment, policySelectors: selectors))
    }

    private func attributeMappings() throws(MappingError) -> [CompiledPropertyMapping] {
        let entity = mapping.destinationEntity ?? ""
        var result: [CompiledPropertyMapping] = []
        var named: Set<String> = []
        var written = mapping.attributeMappings
        if mapping.kind == .copy {
            let listed = Set(written.map(\.name))
            for attribute in destination.attributes(of: entity)
            where !attribute.isTransient
                && !listed.contains(attribute.name)
            {
                written.append(PropertyMapping(name: attribute.name))
            }
        }
        for var property in written {
            guard named.insert(property.name).inserted else {
                throw fail(.duplicateName, "the attribute is mapped twice", property: property.name)
            }
            guard let attribute = destination.attribute(property.name, of: entity) else {
                let hint = destination.relationship(property.name, of: entity) != nil ? " (it is a relationship)" : ""
                throw fail(
                    .unknownProperty, "unknown attribute '\(property.name)' of destination entity '\(entity)'\(hint)",
                    property: property.name)
            }
            // A copy mapping takes the source attribute of the same name; a destination attribute the source
            // lacks keeps no expression, as Xcode compiles it, and is left nil or its default
            // (xcmappingmodel.md §6). Only the destination's validation can refuse it, at migration time.
            if mapping.kind == .copy && property.valueExpression == nil, let sourceEntity = mapping.sourceEntity,
                let sourceAttribute = source.attribute(property.name, of: sourceEntity), !sourceAttribute.isTransient
            {
                property.valueExpression = "$source.\(property.name)"
            }
            let expression = try property.valueExpression.map { text throws(MappingError) in
                try compiler(property: property.name, purpose: .attribute(attribute.type)).compile(text)
            }
            result.append(CompiledPropertyMapping(mapping: property, expression: expression))
        }
        return result
    }

    private func relationshipMappings() throws(MappingError) -> [CompiledPropertyMapping] {
        let entity = mapping.destinationEntity ?? ""
        var result: [CompiledPropertyMapping] = []
        var named: Set<String> = []
        var written = mapping.relationshipMappings
        if mapping.kind == .copy {
            let listed = Set(written.map(\.name))
            for relationship in destination.relationships(of: entity)
            where !relationship.isTransient
                && !listed.contains(relationship.name)
            {
                written.append(PropertyMapping(name: relationship.name))
            }
        }
        for var property in written {
            guard named.insert(property.name).inserted else {
                throw fail(.duplicateName, "the relationship is mapped twice", property: property.name)
            }
            guard let relationship = destination.relationship(property.name, of: entity) else {
                let hint = destination.attribute(property.name, of: entity) != nil ? " (it is an attribute)" : ""
                throw fail(
                    .unknownProperty,
                    "unknown relationship '\(property.name)' of destination entity '\(entity)'\(hint)",
                    property: property.name)
            }
            // As for attributes: a relationship the source lacks is left empty (nil, or an empty set).
            if mapping.kind == .copy && property.valueExpression == nil, let sourceEntity = mapping.sourceEntity,
                source.relationship(property.name, of: sourceEntity) != nil
            {
                property.valueExpression = ExpressionText.relationshipCopy(property.name)
            }
            let expression = try property.valueExpression.map { text throws(MappingError) in
                try compiler(property: property.name, purpose: .relationship(relationship)).compile(text)
            }
            result.append(CompiledPropertyMapping(mapping: property, expression: expression))
        }
        return result
    }
}
