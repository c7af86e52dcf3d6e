/// Why a model could not be read or is not valid.
///
/// The description names the file (and line, when known), the version, the entity and the property:
/// `Model.xcdatamodeld/V2.xcdatamodel/contents:12: entity 'Post', property 'author': unknown destination 'Person'`.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is, for programs that react to it.
    public enum Code: String, Sendable, Hashable {
        case unreadableFile
        case malformedFile
        case legacyBinaryBundle
        case unknownAttributeType
        case invalidDefaultValue
        case duplicateName
        case invalidName
        case unknownEntity
        case inheritanceCycle
        case inverseMismatch
        case invalidProperty
        case unknownVersion
        case emptyModel
    }

    /// What kind of problem this is.
    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The file in which the problem is.
    public var file: String?
    /// The line in `file`, when known.
    public var line: Int?
    /// The model version, when known.
    public var version: String?
    /// The entity, when the problem is in one.
    public var entity: String?
    /// The property, when the problem is in one.
    public var property: String?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        file: String? = nil,
        line: Int? = nil,
        version: String? = nil,
        entity: String? = nil,
        property: String? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.version = version
        self.entity = entity
        self.property = property
    }

    /// The same error, placed in `file` (and `line`) unless it already names one.
    public func located(file: String, line: Int? = nil) -> ModelError {
        var copy = self
        if copy.file == nil {
            copy.file = file
            copy.line = copy.line ?? line
        }
        return copy
    }

    /// The message, prefixed with the file, line, version, entity and property it concerns.
    public var description: String {
        var where_: [String] = []
        if let file {
            where_.append(line.map { "\(file):\($0)" } ?? file)
        }
        var subject: [String] = []
        if let version { subject.append("version '\(version)'") }
        if let entity { subject.append("entity '\(entity)'") }
        if let property { subject.append("property '\(property)'") }
        if !subject.isEmpty { where_.append(subject.joined(separator: ", ")) }
        return where_.isEmpty ? message : where_.joined(separator: ": ") + ": " + message
    }
}
