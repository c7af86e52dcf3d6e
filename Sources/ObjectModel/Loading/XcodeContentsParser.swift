import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads one Xcode model version (`Version.xcdatamodel/contents`) into a ``ModelVersion``.
///
/// Follows `shared/formats/xcdatamodel.md`: entities with their attributes, relationships, fetch indexes
/// (and the legacy compound indexes), uniqueness constraints and user info. Diagram positions (`elements`),
/// fetched properties, fetch requests and configurations are skipped: none of them is a version hash input.
final class XcodeContentsParser: NSObject, XMLParserDelegate {
    private let file: String
    private let versionName: String
    private var lines: SourceLines
    private var path: [String] = []
    private var sawModel = false
    private var versionIdentifiers: [String] = []
    private var warnings: [String] = []
    private var entities: [Entity] = []
    private var entity: Entity?
    private var attribute: Attribute?
    private var relationship: Relationship?
    private var index: Index?
    private var constraint: [String]?
    private var failure: ModelError?

    private init(file: String, versionName: String) {
        self.file = file
        self.versionName = versionName
        self.lines = SourceLines(file: file)
    }

    /// Parses the XML `data` of the `contents` file at `file` as the version `version`.
    static func parse(data: Data, file: String, version: String) throws(ModelError) -> ModelVersion {
        // Foundation's XMLParser traps on a name that is not UTF-8 (found by fuzzing); Xcode writes UTF-8.
        guard String(validating: data, as: UTF8.self) != nil else {
            throw ModelError(.malformedFile, "the file is not UTF-8 text", file: file, version: version)
        }
        if let line = InputLimits.lineOfEmptyProcessingInstruction(in: data) {
            throw ModelError(
                .malformedFile, "malformed XML (a processing instruction without data)", file: file, line: line,
                version: version)
        }
        let parser = XMLParser(data: data)
        let reader = XcodeContentsParser(file: file, versionName: version)
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            throw reader.malformed(parser.parserError, line: parser.lineNumber)
        }
        // swift-corelibs-foundation's XMLParser can report success for a truncated document, so check that
        // every element was closed.
        if let open = reader.path.last {
            let lineCount = data.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw reader.error(.malformedFile, "malformed XML (the file ends inside <\(open)>)", line: lineCount)
        }
        guard reader.sawModel else {
            throw ModelError(.malformedFile, "no <model> element", file: file, version: version)
        }
        return try reader.lines.makeVersion(
            name: version, entities: reader.entities, versionIdentifiers: reader.versionIdentifiers,
            warnings: reader.warnings)
    }

    // MARK: - XMLParserDelegate

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let parent = path.last
        let grandparent = path.count >= 2 ? path[path.count - 2] : nil
        path.append(elementName)
        guard failure == nil else { return }
        guard path.count <= InputLimits.xmlDepth else {
            failure = error(
                .malformedFile,
                "elements nested more than \(InputLimits.xmlDepth) deep (<\(elementName)> in <\(parent ?? "")>); "
                    + "Xcode writes 5", line: parser.lineNumber)
            parser.abortParsing()
            return
        }
        do {
            try start(elementName, parent: parent, grandparent: grandparent, attributeDict, line: parser.lineNumber)
        } catch {
            failure = error
            parser.abortParsing()
        }
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        path.removeLast()
        let parent = path.last
        switch (parent, elementName) {
        case ("model", "entity"):
            if let entity { entities.append(entity) }
            entity = nil
        case ("entity", "attribute"):
            if let attribute { entity?.attributes.append(attribute) }
            attribute = nil
        case ("entity", "relationship"):
            if let relationship { entity?.relationships.append(relationship) }
            relationship = nil
        case ("entity", "fetchIndex"):
            if let index, !index.properties.isEmpty { entity?.indexes.append(index) }
            index = nil
        case ("compoundIndexes", "compoundIndex"):
            // Core Data names a legacy compound index after its properties (store-layout.md I4).
            if let index, !index.properties.isEmpty {
                entity?.indexes.append(
                    Index(name: index.properties.joined(separator: "_"), properties: index.properties))
            }
            index = nil
        case ("uniquenessConstraints", "uniquenessConstraint"):
            if let constraint, !constraint.isEmpty { entity?.uniquenessConstraints.append(constraint) }
            constraint = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil { failure = malformed(parseError, line: parser.lineNumber) }
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
        if failure == nil { failure = malformed(validationError, line: parser.lineNumber) }
    }

    /// The error for broken XML, naming the entity and property being read.
    private func malformed(_ cause: (any Error)?, line: Int) -> ModelError {
        var detail = "unknown error"
        if let cause = cause.map({ $0 as NSError }) {
            // Foundation on Linux describes these errors only by libxml2's number; name the common ones.
            detail =
                cause.domain == XMLParser.errorDomain
                ? Self.libxml2Problems[cause.code] ?? "XML error \(cause.code)" : cause.localizedDescription
        }
        return error(
            .malformedFile, "malformed XML (\(detail))", line: line, property: attribute?.name ?? relationship?.name)
    }

    /// libxml2's `xmlParserErrors` numbers that broken model files produce most often.
    private static let libxml2Problems: [Int: String] = [
        4: "the document is empty", 5: "extra content after the root element", 41: "an attribute is repeated",
        73: "'>' expected", 76: "a closing tag does not match its opening tag", 77: "the document ends inside a tag",
    ]

    // MARK: - Elements

    private func start(
        _ element: String,
        parent: String?,
        grandparent: String?,
        _ xml: [String: String],
        line: Int
    ) throws(ModelError) {
        switch (parent, element) {
        case (nil, "model"):
            sawModel = true
            if let identifier = xml["userDefinedModelVersionIdentifier"], !identifier.isEmpty {
                versionIdentifiers = [identifier]
            }
        case (nil, _):
            throw error(.malformedFile, "the root element is <\(element)>, not <model>", line: line)
        case ("model", "entity"):
            let name = try required("name", of: "<entity>", in: xml, line: line)
            entity = Entity(
                name: name, parent: xml["parentEntity"], isAbstract: Self.flag(xml["isAbstract"]),
                renamingIdentifier: xml["elementID"], versionHashModifier: xml["versionHashModifier"])
            lines.record(entity: name, line: line)
        case ("entity", "attribute"):
            attribute = try makeAttribute(xml, line: line)
        case ("entity", "relationship"):
            relationship = try makeRelationship(xml, line: line)
        case ("entity", "fetchIndex"):
            let number = (entity?.indexes.count ?? 0) + 1
            index = Index(name: xml["name"] ?? "index\(number)", properties: [])
        case ("fetchIndex", "fetchIndexElement"):
            if let property = xml["property"] { index?.properties.append(property) }
        case ("compoundIndexes", "compoundIndex"):
            index = Index(name: "", properties: [])  // named after its properties once they are read
        case ("compoundIndex", "index"):
            if let property = xml["value"] { index?.properties.append(property) }
        case ("uniquenessConstraints", "uniquenessConstraint"):
            constraint = []
        case ("uniquenessConstraint", "constraint"):
            if let property = xml["value"] { constraint?.append(property) }
        case ("userInfo", "entry"):
            guard let key = xml["key"] else { return }
            let value = xml["value"] ?? ""
            switch grandparent {
            case "attribute": attribute?.userInfo[key] = value
            case "relationship": relationship?.userInfo[key] = value
            case "entity": entity?.userInfo[key] = value
            default: break
            }
        default:
            break
        }
    }

    private func makeAttribute(_ xml: [String: String], line: Int) throws(ModelError) -> Attribute {
        let name = try required("name", of: "<attribute>", in: xml, line: line)
        lines.record(property: name, of: entity?.name ?? "", line: line)
        var type = AttributeType.undefined
        if let typeName = xml["attributeType"] {
            guard let known = AttributeType(rawValue: typeName) else {
                let expected = AttributeType.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(
                    .unknownAttributeType, "unknown attribute type '\(typeName)' (expected one of: \(expected))",
                    line: line, property: name)
            }
            type = known
        }
        var attribute = Attribute(
            name: name, type: type, isOptional: Self.flag(xml["optional"]), isTransient: Self.flag(xml["transient"]),
            renamingIdentifier: xml["elementID"], versionHashModifier: xml["versionHashModifier"],
            allowsExternalBinaryDataStorage: Self.flag(xml["allowsExternalBinaryDataStorage"]),
            preserveAfterDeletion: Self.flag(xml["preserveAfterDeletion"]), isIndexed: Self.flag(xml["indexed"]))
        if type == .date, let seconds = xml["defaultDateTimeInterval"] {
            guard let value = Double(seconds.trimmingCharacters(in: .whitespaces)) else {
                throw error(
                    .invalidDefaultValue, "defaultDateTimeInterval '\(seconds)' is not a number of seconds",
                    line: line, property: name)
            }
            attribute.defaultValue = .date(value)
        } else if let text = xml["defaultValueString"] {
            attribute.defaultValue = try defaultValue(text, type: type, line: line, property: name)
        }
        return attribute
    }

    private func defaultValue(
        _ text: String,
        type: AttributeType,
        line: Int,
        property: String
    ) throws(ModelError) -> AttributeValue? {
        switch type {
        case .binary, .transformable, .objectID, .undefined:
            let note = "default value '\(text)' ignored: a \(type.rawValue) attribute has no text default"
            warnings.append(error(.invalidDefaultValue, note, line: line, property: property).description)
            return nil
        default:
            break
        }
        guard let (value, coercion) = AttributeValue.parse(text, as: type) else {
            throw error(
                .invalidDefaultValue, "default value '\(text)' is not a valid \(type.rawValue)",
                line: line, property: property)
        }
        if let coercion {
            let note = "default value \(coercion)"
            warnings.append(error(.invalidDefaultValue, note, line: line, property: property).description)
        }
        return value
    }

    private func makeRelationship(_ xml: [String: String], line: Int) throws(ModelError) -> Relationship {
        let name = try required("name", of: "<relationship>", in: xml, line: line)
        lines.record(property: name, of: entity?.name ?? "", line: line)
        guard let destination = xml["destinationEntity"], !destination.isEmpty else {
            throw error(.unknownEntity, "the relationship has no destination entity", line: line, property: name)
        }
        var deleteRule = DeleteRule.nullify
        if let ruleName = xml["deletionRule"] {
            guard let rule = DeleteRule(rawValue: ruleName) else {
                let expected = DeleteRule.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(
                    .invalidProperty, "unknown deletion rule '\(ruleName)' (expected one of: \(expected))",
                    line: line, property: name)
            }
            deleteRule = rule
        }
        return Relationship(
            name: name, destination: destination, inverse: xml["inverseName"], isToMany: Self.flag(xml["toMany"]),
            isOrdered: Self.flag(xml["ordered"]), isOptional: Self.flag(xml["optional"]),
            isTransient: Self.flag(xml["transient"]),
            minCount: try count("minCount", in: xml, line: line, property: name) ?? 0,
            maxCount: try count("maxCount", in: xml, line: line, property: name), deleteRule: deleteRule,
            renamingIdentifier: xml["elementID"], versionHashModifier: xml["versionHashModifier"],
            isIndexed: Self.flag(xml["indexed"]))
    }

    // MARK: - Helpers

    private static func flag(_ text: String?) -> Bool { text == "YES" }

    private func count(_ key: String, in xml: [String: String], line: Int, property: String) throws(ModelError) -> Int?
    {
        guard let text = xml[key] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw error(.invalidProperty, "\(key) '\(text)' is not a whole number", line: line, property: property)
        }
        return value
    }

    private func required(
        _ key: String,
        of element: String,
        in xml: [String: String],
        line: Int
    ) throws(ModelError) -> String {
        guard let value = xml[key], !value.isEmpty else {
            throw error(.malformedFile, "\(element) has no '\(key)'", line: line)
        }
        return value
    }

    private func error(_ code: ModelError.Code, _ message: String, line: Int, property: String? = nil) -> ModelError {
        ModelError(
            code, message, file: file, line: line, version: versionName, entity: entity?.name, property: property)
    }
}
