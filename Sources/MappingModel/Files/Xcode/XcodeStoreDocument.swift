import Foundation
import ObjectModel

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A Core Data XML store document, the container of `xcmapping.xml` (`shared/formats/xcmappingmodel.md` §2): its
/// `<object>` elements with their typed attributes and relationship id lists. The DTD is never fetched.
final class XcodeStoreDocument: NSObject, XMLParserDelegate {
    /// One `<object type="T" id="zNNN">`.
    struct StoreObject {
        var type: String
        var id: String
        var line: Int
        /// Attribute name → (XML type, text).
        var attributes: [String: (type: String, text: String)] = [:]
        /// Relationship name → the ids in `idrefs` (empty when absent).
        var relationships: [String: [String]] = [:]
    }

    private let file: String
    private(set) var objects: [String: StoreObject] = [:]
    private var object: StoreObject?
    private var field: (name: String, type: String)?
    private var text = ""
    private var depth = 0
    private var failure: MappingError?

    private init(file: String) {
        self.file = file
    }

    /// Reads the document `data` of `file`.
    static func parse(data: Data, file: String) throws(MappingError) -> [String: StoreObject] {
        if let line = InputLimits.lineOfEmptyProcessingInstruction(in: data) {
            throw MappingError(
                .malformedFile, "malformed XML (a processing instruction without data)", file: file, line: line)
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let reader = XcodeStoreDocument(file: file)
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed, reader.depth == 0 else {
            let detail =
                (parser.parserError as NSError?).map { "XML error \($0.code)" } ?? "the file ends inside an element"
            throw MappingError(.malformedFile, "malformed XML (\(detail))", file: file, line: parser.lineNumber)
        }
        return reader.objects
    }

    private func fail(_ message: String, line: Int) {
        if failure == nil { failure = MappingError(.malformedFile, message, file: file, line: line) }
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        switch element {
        case "object":
            guard let type = attributes["type"], let id = attributes["id"] else {
                return fail("an <object> lacks its type or id", line: parser.lineNumber)
            }
            object = StoreObject(type: type, id: id, line: parser.lineNumber)
        case "attribute" where object != nil:
            guard let name = attributes["name"], let type = attributes["type"] else {
                return fail(
                    "an <attribute> of object \(object?.id ?? "") lacks its name or type", line: parser.lineNumber)
            }
            field = (name, type)
            text = ""
        case "relationship" where object != nil:
            guard let name = attributes["name"] else {
                return fail("a <relationship> of object \(object?.id ?? "") lacks its name", line: parser.lineNumber)
            }
            object?.relationships[name] = (attributes["idrefs"] ?? "").split(separator: " ").map(String.init)
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if field != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        switch element {
        case "object":
            if let object {
                if objects.updateValue(object, forKey: object.id) != nil {
                    fail("two objects have the id \(object.id)", line: parser.lineNumber)
                }
            }
            object = nil
        case "attribute":
            if let field { object?.attributes[field.name] = (field.type, text) }
            field = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        fail("malformed XML (XML error \((parseError as NSError).code))", line: parser.lineNumber)
    }
}
