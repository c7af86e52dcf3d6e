import Foundation
import ObjectModel

/// Reads a compiled mapping model (`Name.cdm`, a keyed archive of `NSMappingModel`, `shared/formats/xcmappingmodel.md`
/// §8): its entity mappings in order, with their types, policies, hashes and value expressions.
enum CompiledMappingReader {
    /// `NSEntityMappingType`'s raw values; 0 (undefined) mappings are skipped.
    private static let kinds: [Int64: EntityMapping.Kind] = [
        1: .custom, 2: .add, 3: .remove, 4: .copy, 5: .transform,
    ]

    static func load(path: String) throws(MappingError) -> MappingModel {
        let data: Data
        do {
            data = try InputLimits.read(path)
        } catch {
            throw MappingError(.unreadableFile, error.message, file: path)
        }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var where_ = "the archive"
        do throws(PropertyListError) {
            let archive = try KeyedArchive(bytes: Array(data))
            guard let root = try archive.object(archive.root), root.className == "NSMappingModel" else {
                throw PropertyListError(message: "the root object is not an NSMappingModel")
            }
            var mappings: [EntityMapping] = []
            for (index, value) in try archive.array(root["NSEntityMappings"]).enumerated() {
                where_ = "entity mapping \(index + 1)"
                guard let object = try archive.object(value) else { continue }
                if let mapping = try entityMapping(object, in: archive, at: &where_) { mappings.append(mapping) }
            }
            var model = MappingModel(name: name, entityMappings: mappings)
            model.lines = MappingFileLines(file: path)
            return model
        } catch {
            throw MappingError(.malformedFile, "\(where_): \(error.message)", file: path)
        }
    }

    private static func entityMapping(
        _ object: ArchivedObject,
        in archive: KeyedArchive,
        at where_: inout String
    ) throws(PropertyListError) -> EntityMapping? {
        guard case .integer(let type)? = object["NSMappingType"] else {
            throw PropertyListError(message: "NSMappingType is missing")
        }
        guard type != 0 else { return nil }
        guard let kind = kinds[type] else { throw PropertyListError(message: "NSMappingType \(type) is unknown") }
        guard let name = try archive.string(object["NSMappingName"]) else {
            throw PropertyListError(message: "NSMappingName is missing")
        }
        where_ = "entity mapping '\(name)'"
        var mapping = EntityMapping(
            name: name, kind: kind, sourceEntity: try archive.string(object["NSSourceEntityName"]),
            destinationEntity: try archive.string(object["NSDestinationEntityName"]),
            sourceEntityVersionHash: try hash(object["NSSourceEntityVersionHash"], in: archive),
            destinationEntityVersionHash: try hash(object["NSDestinationEntityVersionHash"], in: archive),
            policy: XcodeMappingReader.policyName(try archive.string(object["NSEntityMigrationPolicyClassName"])))
        for (key, value) in try archive.dictionary(object["NSUserInfo"]) {
            mapping.userInfo[key] = try archive.string(value) ?? ""
        }
        mapping.attributeMappings = try properties(object["NSAttributeMappings"], in: archive)
        mapping.relationshipMappings = try properties(object["NSRelationshipMappings"], in: archive)
        return mapping
    }

    private static func hash(
        _ value: PropertyListValue?, in archive: KeyedArchive
    ) throws(PropertyListError) -> VersionHash? {
        var bytes: [UInt8]?
        switch try archive.resolve(value) {
        case .data(let data)?: bytes = data
        case .dictionary(let fields)?: if case .data(let data)? = fields["NS.data"] { bytes = data }
        case nil: return nil
        default: break
        }
        guard let bytes, let hash = VersionHash(bytes: bytes) else {
            throw PropertyListError(message: "an entity version hash is not 32 bytes of data")
        }
        return hash
    }

    private static func properties(
        _ value: PropertyListValue?,
        in archive: KeyedArchive
    ) throws(PropertyListError) -> [PropertyMapping] {
        var result: [PropertyMapping] = []
        for item in try archive.array(value) {
            guard let object = try archive.object(item) else { continue }
            guard let name = try archive.string(object["NSDestinationPropertyName"]) else {
                throw PropertyListError(message: "a property mapping has no NSDestinationPropertyName")
            }
            var mapping = PropertyMapping(name: name)
            if object["NSValueExpression"] != nil, try archive.object(object["NSValueExpression"]) != nil {
                do {
                    mapping.valueExpression = try ArchivedExpression(archive: archive).text(object["NSValueExpression"])
                } catch {
                    throw PropertyListError(message: "property '\(name)': \(error.message)")
                }
            }
            result.append(mapping)
        }
        return result
    }
}
