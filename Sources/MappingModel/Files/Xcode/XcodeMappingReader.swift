import Foundation
import ObjectModel

/// Reads Xcode mapping models — `Name.xcmappingmodel/xcmapping.xml` — as `shared/formats/xcmappingmodel.md`
/// specifies: entity mappings in `mappingnumber` order with their inferred kinds, policies without their
/// module prefix, property mappings sorted by name with their archived value expressions decoded, or the
/// defaults Xcode's compiler generates when a mapping has none, and the two embedded model copies whose entity
/// version hashes identify the versions the mapping belongs to.
enum XcodeMappingReader {
    /// Reads the `.xcmappingmodel` folder (or its `xcmapping.xml`) at `path`.
    static func load(path: String) throws(MappingError) -> MappingModel {
        let bundle = path.hasSuffix("xcmapping.xml") ? (path as NSString).deletingLastPathComponent : path
        let file = (bundle as NSString).appendingPathComponent("xcmapping.xml")
        let data: Data
        do {
            data = try InputLimits.read(file)
        } catch {
            throw MappingError(.unreadableFile, error.message, file: file)
        }
        let name = ((bundle as NSString).lastPathComponent as NSString).deletingPathExtension
        let objects = try XcodeStoreDocument.parse(data: data, file: file)
        return try XcodeMappingDocument(file: file, objects: objects).mappingModel(name: name)
    }

    /// The policy name in `className`: without a module prefix (`CoreDataMigration_Example.`) or Xcode's
    /// `REPLACE_AT_RUNTIME.` placeholder; nil for none or an empty one.
    static func policyName(_ className: String?) -> String? {
        guard let className, !className.isEmpty else { return nil }
        guard let dot = className.firstIndex(of: ".") else { return className }
        let name = String(className[className.index(after: dot)...])
        return name.isEmpty ? nil : name
    }
}

/// The objects of one `xcmapping.xml`, read into a ``MappingModel``.
private struct XcodeMappingDocument {
    typealias StoreObject = XcodeStoreDocument.StoreObject

    let file: String
    let objects: [String: StoreObject]

    private func fail(_ object: StoreObject, _ message: String) -> MappingError {
        MappingError(.malformedFile, "object \(object.id) (\(object.type)): \(message)", file: file, line: object.line)
    }

    private func string(_ field: String, of object: StoreObject) throws(MappingError) -> String? {
        guard let (type, text) = object.attributes[field] else { return nil }
        guard type == "string" else { throw fail(object, "field '\(field)' must be a string, not \(type)") }
        return text
    }

    private func archive(_ field: String, of object: StoreObject) throws(MappingError) -> KeyedArchive? {
        guard let (type, text) = object.attributes[field] else { return nil }
        guard type == "binary" else { throw fail(object, "field '\(field)' must be binary, not \(type)") }
        guard let data = Data(base64Encoded: text.filter { !$0.isWhitespace }) else {
            throw fail(object, "field '\(field)' is not base64")
        }
        do {
            return try KeyedArchive(bytes: Array(data))
        } catch {
            throw fail(object, "field '\(field)': \(error.message)")
        }
    }

    /// The objects that `object`'s relationship `field` lists, each of type `type`.
    private func related(_ field: String, of object: StoreObject, type: String) throws(MappingError) -> [StoreObject] {
        var result: [StoreObject] = []
        for id in object.relationships[field] ?? [] {
            guard let target = objects[id] else {
                throw fail(object, "field '\(field)' lists \(id), which does not exist")
            }
            guard target.type == type else {
                throw fail(object, "field '\(field)' lists \(id), a \(target.type), not a \(type)")
            }
            result.append(target)
        }
        return result
    }

    func mappingModel(name: String) throws(MappingError) -> MappingModel {
        let roots = objects.values.filter { $0.type == "XDDEVMAPPINGMODEL" }
        guard roots.count == 1, let root = roots.first else {
            throw MappingError(
                .malformedFile, "the file holds \(roots.count) XDDEVMAPPINGMODEL objects, not exactly one", file: file)
        }
        let sourcePath = try string("sourcemodelpath", of: root)
        let destinationPath = try string("destinationmodelpath", of: root)
        let source = try embeddedModel("sourcemodeldata", path: sourcePath, of: root)
        let destination = try embeddedModel("destinationmodeldata", path: destinationPath, of: root)
        var numbered: [(number: Int, object: StoreObject)] = []
        for object in try related("entitymappings", of: root, type: "XDDEVENTITYMAPPING") {
            guard let (type, text) = object.attributes["mappingnumber"], type == "int16", let number = Int(text) else {
                throw fail(object, "field 'mappingnumber' is missing or not an int16")
            }
            numbered.append((number, object))
        }
        numbered.sort { $0.number < $1.number }
        var mappings: [EntityMapping] = []
        for (_, object) in numbered {
            if let mapping = try entityMapping(object, source: source, destination: destination) {
                mappings.append(mapping)
            }
        }
        let named = mappings.map { mapping in
            (mapping.sourceEntity, mapping.name)
        }
        for index in mappings.indices {
            try fillDefaults(of: &mappings[index], source: source, mappingsBySource: named)
        }
        var model = MappingModel(
            name: name, sourceVersion: source.name, destinationVersion: destination.name, entityMappings: mappings)
        model.lines = MappingFileLines(file: file)
        model.embedded = EmbeddedModels(
            source: source.versionHashes, destination: destination.versionHashes, sourceName: source.name,
            destinationName: destination.name)
        return model
    }

    /// The embedded model copy in `field`, named after the version folder in the recorded `path`.
    private func embeddedModel(
        _ field: String, path: String?, of root: StoreObject
    ) throws(MappingError) -> ModelVersion {
        guard let path, let archive = try archive(field, of: root) else {
            throw fail(root, "field '\(field)' or its model path is missing")
        }
        let version = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        do {
            return try ArchivedModel(archive: archive).version(named: version)
        } catch {
            throw fail(root, "field '\(field)': \(error.message)")
        }
    }

    private func entityMapping(
        _ object: StoreObject,
        source: ModelVersion,
        destination: ModelVersion
    ) throws(MappingError) -> EntityMapping? {
        let sourceName = try string("sourcename", of: object)
        let destinationName = try string("destinationname", of: object)
        let policy = XcodeMappingReader.policyName(try string("migrationpolicyclassname", of: object))
        // A mapping with neither entity, named or not, compiles to an undefined one with no properties, which
        // Core Data skips (§5, rule 1; §10).
        guard sourceName != nil || destinationName != nil else { return nil }
        let name =
            try string("name", of: object)
            ?? sourceName.map { from in destinationName.map { "\(from)To\($0)" } ?? from } ?? destinationName ?? ""
        let kind: EntityMapping.Kind
        if sourceName == nil {
            kind = .add
        } else if destinationName == nil {
            kind = .remove
        } else if policy != nil {
            kind = .custom
        } else {
            kind =
                Self.isCopy(sourceName ?? "", to: destinationName ?? "", source: source, destination: destination)
                ? .copy : .transform
        }
        for (side, entity, model) in [("source", sourceName, source), ("destination", destinationName, destination)] {
            if let entity, model.entity(named: entity) == nil {
                throw fail(object, "the \(side) entity '\(entity)' is not in the embedded \(side) model")
            }
        }
        var mapping = EntityMapping(
            name: name, kind: kind, sourceEntity: sourceName, destinationEntity: destinationName,
            sourceEntityVersionHash: sourceName.flatMap { source.versionHashes[$0] },
            destinationEntityVersionHash: destinationName.flatMap { destination.versionHashes[$0] }, policy: policy)
        if let archive = try archive("userinfodata", of: object) {
            do {
                for (key, value) in try archive.dictionary(archive.root) {
                    mapping.userInfo[key] = try archive.string(value) ?? ""
                }
            } catch {
                throw fail(object, "field 'userinfodata': \(error.message)")
            }
        }
        mapping.attributeMappings = try properties("attributemappings", "XDDEVATTRIBUTEMAPPING", of: object)
        mapping.relationshipMappings = try properties("relationshipmappings", "XDDEVRELATIONSHIPMAPPING", of: object)
        return mapping
    }

    /// Copy when every source property exists in the destination with the same property hash (§5).
    private static func isCopy(
        _ sourceEntity: String,
        to destinationEntity: String,
        source: ModelVersion,
        destination: ModelVersion
    ) -> Bool {
        let kept = destination.propertyVersionHashes(of: destinationEntity)
        return source.propertyVersionHashes(of: sourceEntity).allSatisfy { kept[$0.key] == $0.value }
    }

    private func properties(
        _ field: String,
        _ type: String,
        of object: StoreObject
    ) throws(MappingError) -> [PropertyMapping] {
        var result: [PropertyMapping] = []
        for property in try related(field, of: object, type: type) {
            guard let name = try string("name", of: property), !name.isEmpty else {
                throw fail(property, "field 'name' is missing")
            }
            var mapping = PropertyMapping(name: name)
            if let archive = try archive("valueexpressiondata", of: property) {
                do {
                    mapping.valueExpression = try ArchivedExpression(archive: archive).text()
                } catch {
                    throw fail(property, "field 'valueexpressiondata': \(error.message)")
                }
            }
            result.append(mapping)
        }
        return result.sorted { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }
    }

    /// The expressions Xcode's compiler generates for property mappings that have none (§6).
    private func fillDefaults(
        of mapping: inout EntityMapping,
        source: ModelVersion,
        mappingsBySource: [(source: String?, name: String)]
    ) throws(MappingError) {
        guard let entity = mapping.sourceEntity else { return }
        for index in mapping.attributeMappings.indices where mapping.attributeMappings[index].valueExpression == nil {
            let name = mapping.attributeMappings[index].name
            if source.attribute(name, of: entity) != nil {
                mapping.attributeMappings[index].valueExpression = "$source.\(name)"
            }
        }
        for index in mapping.relationshipMappings.indices
        where mapping.relationshipMappings[index].valueExpression == nil {
            let name = mapping.relationshipMappings[index].name
            guard let relationship = source.relationship(name, of: entity) else { continue }
            let target = relationship.destination
            if !source.subentities(of: target).isEmpty {
                mapping.relationshipMappings[index].valueExpression = ExpressionText.relationshipCopy(name)
            } else if let first = mappingsBySource.first(where: { $0.source == target }) {
                mapping.relationshipMappings[index].valueExpression = ExpressionText.relationshipCopy(
                    name, entityMapping: first.name)
            }
        }
    }
}
