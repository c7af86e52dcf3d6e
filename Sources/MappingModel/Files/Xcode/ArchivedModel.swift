import ObjectModel

/// The copy of a model version that Xcode embeds in a mapping model (`sourcemodeldata`, `destinationmodeldata`):
/// a keyed archive of Xcode's XDPM classes, read into a ``ModelVersion`` as `shared/formats/xcmappingmodel.md`
/// §4.2 describes, so that its entity version hashes are Core Data's.
struct ArchivedModel {
    let archive: KeyedArchive

    /// The version the archive holds, named `name`.
    func version(named name: String) throws(PropertyListError) -> ModelVersion {
        guard let model = try archive.object(archive.root),
            let package = try archive.object(model["_xd_rootPackage"])
        else {
            throw PropertyListError(message: "the archived model has no _xd_rootPackage")
        }
        var entities: [Entity] = []
        for (_, value) in try archive.dictionary(package["XDBucketForClassesstorage"]) {
            guard let entity = try archive.object(value) else { continue }
            entities.append(try self.entity(entity))
        }
        var identifiers: [String] = []
        if let identifier = try archive.string(model["_modelVersionIdentifier"]), !identifier.isEmpty {
            identifiers.append(identifier)
        }
        do {
            return try ModelVersion(name: name, entities: entities, versionIdentifiers: identifiers)
        } catch {
            throw PropertyListError(message: "the archived model is invalid: \(error)")
        }
    }

    private func name(of object: ArchivedObject) throws(PropertyListError) -> String {
        guard let name = try archive.string(object["_name"]), !name.isEmpty else {
            throw PropertyListError(message: "an archived \(object.className) has no _name")
        }
        return name
    }

    /// The values of an element's stereotype `stereotype`, by key (each an `XDUMLPropertyImp`'s `_default`).
    private func stereotype(
        _ stereotype: String,
        of object: ArchivedObject
    ) throws(PropertyListError) -> [String: PropertyListValue] {
        var values: [String: PropertyListValue] = [:]
        for (name, value) in try archive.dictionary(object["XDBucketForStereotypesstorage"]) where name == stereotype {
            guard let imp = try archive.object(value) else { continue }
            for (key, property) in try archive.dictionary(imp["XDBucketForOwnedAttributesstorage"]) {
                if let resolved = try archive.resolve(try archive.object(property)?["_default"]) {
                    values[key] = resolved
                }
            }
        }
        return values
    }

    private func entity(_ object: ArchivedObject) throws(PropertyListError) -> Entity {
        let settings = try stereotype("XD_PStereotype", of: object)
        var entity = Entity(
            name: try name(of: object), isAbstract: Self.flag(settings["XD_PSK_isAbstract"]),
            versionHashModifier: try text(settings["XD_PSK_versionHashModifier"]))
        for generalization in try archive.array(object["XDBucketForGeneralizationsstorage"]) {
            if let general = try archive.object(try archive.object(generalization)?["_general"]) {
                entity.parent = try name(of: general)
            }
        }
        if let constraints = settings["XDPMUniquenessConstraints"] {
            for constraint in try archive.array(constraints) {
                var names: [String] = []
                for item in try archive.array(constraint) {
                    if let name = try archive.string(item) { names.append(name) }
                }
                if !names.isEmpty { entity.uniquenessConstraints.append(names) }
            }
        }
        for (_, value) in try archive.dictionary(object["XDBucketForOwnedAttributesstorage"]) {
            guard let property = try archive.object(value) else { continue }
            let common = try stereotype("XD_PPropStereotype", of: property)
            let name = try name(of: property)
            let isOptional = Self.flag(common["XD_PPSK_isOptional"])
            let isTransient = Self.flag(common["XD_PPSK_isTransient"])
            let modifier = try text(common["XD_PPSK_versionHashModifier"])
            if property.className == "XDPMRelationship" {
                let settings = try stereotype("XD_PR_Stereotype", of: property)
                guard let destination = try archive.object(settings["XD_PRK_destination"]) else { continue }
                let inverse = try archive.object(settings["XD_PRK_inverseRelationship"])
                let isToMany = Self.flag(settings["XD_PRK_isToMany"])
                entity.relationships.append(
                    Relationship(
                        name: name, destination: try self.name(of: destination),
                        inverse: try inverse.map { object throws(PropertyListError) in try self.name(of: object) },
                        isToMany: isToMany, isOrdered: Self.flag(settings["XD_PRK_ordered"]), isOptional: isOptional,
                        isTransient: isTransient, minCount: Self.number(settings["XD_PRK_minCount"]) ?? 0,
                        maxCount: Self.number(settings["XD_PRK_maxCount"]), versionHashModifier: modifier))
            } else {
                let settings = try stereotype("XD_PAtt_Stereotype", of: property)
                let code = Self.number(settings["XD_PAttK_attributeType"]) ?? 0
                guard let type = AttributeType.allCases.first(where: { Int($0.coreDataCode) == code }) else {
                    throw PropertyListError(message: "attribute '\(name)' has the unknown attribute type \(code)")
                }
                entity.attributes.append(
                    Attribute(
                        name: name, type: type, isOptional: isOptional, isTransient: isTransient,
                        versionHashModifier: modifier,
                        allowsExternalBinaryDataStorage: Self.flag(settings["XD_PAttK_allowsExternalBinaryDataStorage"])
                    ))
            }
        }
        return entity
    }

    private func text(_ value: PropertyListValue?) throws(PropertyListError) -> String? {
        guard let text = try archive.string(value), !text.isEmpty else { return nil }
        return text
    }

    private static func flag(_ value: PropertyListValue?) -> Bool {
        switch value {
        case .boolean(let flag)?: flag
        case .integer(let number)?: number != 0
        default: false
        }
    }

    private static func number(_ value: PropertyListValue?) -> Int? {
        switch value {
        case .integer(let number)?: Int(truncatingIfNeeded: number)
        case .boolean(let flag)?: flag ? 1 : 0
        default: nil
        }
    }
}
