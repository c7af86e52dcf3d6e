/// Why a mapping model could not be read, or does not fit the model versions it maps between.
///
/// The description names the file and line (when the mapping was read from a file), the entity mapping, the
/// property and the 1-based column in the value expression:
/// `maps/v1-v2.yaml:14: mapping 'PostToPost', property 'hexColor': column 9: unknown attribute 'colour' of entity 'Post'`.
public struct MappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is, for programs that react to it.
    public enum Code: String, Sendable, Hashable {
        /// The file cannot be read.
        case unreadableFile
        /// The file is not valid YAML/JSON, or has unknown, missing or ill-typed keys.
        case malformedFile
        /// The kind of an entity mapping does not fit its source, destination or properties.
        case invalidKind
        /// Two entity mappings, or two property mappings of one entity mapping, have the same name.
        case duplicateName
        /// The mapping names a model version other than the one it is used with.
        case versionMismatch
        /// An Xcode mapping model's entity hashes match no version of the model: it was made for a version
        /// that has been edited since.
        case staleMapping
        /// An entity named by the mapping does not exist in its model version.
        case unknownEntity
        /// An entity's version hash in the mapping differs from the model's.
        case versionHashMismatch
        /// A destination property does not exist, or is of the wrong kind.
        case unknownProperty
        /// The entity mapping's policy is not registered.
        case unknownPolicy
        /// The expression text cannot be parsed.
        case syntaxError
        /// A `$variable` that does not exist, or that is not available where it is used.
        case unknownVariable
        /// A key of a key path that the entity does not have.
        case unknownKey
        /// A value of the wrong type.
        case typeMismatch
        /// A function that does not exist.
        case unknownFunction
        /// A function called with too few or too many arguments.
        case wrongArgumentCount
        /// A `FUNCTION(receiver, "selector")` selector that is not supported for that receiver.
        case unknownSelector
        /// `destinationInstancesForEntityMappingNamed:` names an entity mapping that does not exist.
        case unknownEntityMapping
        /// A constant part of an expression fails when evaluated (`date("yesterday")`).
        case invalidConstant
    }

    /// What kind of problem this is.
    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The mapping file, when the mapping was read from one.
    public var file: String?
    /// The line in `file`, when known.
    public var line: Int?
    /// The entity mapping, when the problem is in one.
    public var mapping: String?
    /// The destination property (or `filter` for the source filter), when the problem is in one.
    public var property: String?
    /// The 1-based position in the value expression (in characters), when the problem is in one.
    public var column: Int?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        file: String? = nil,
        line: Int? = nil,
        mapping: String? = nil,
        property: String? = nil,
        column: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.mapping = mapping
        self.property = property
        self.column = column
    }

    /// The message, prefixed with the file, line, mapping, property and column it concerns.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(line.map { "\(file):\($0)" } ?? file) }
        var subject: [String] = []
        if let mapping { subject.append("mapping '\(mapping)'") }
        if let property { subject.append("property '\(property)'") }
        if !subject.isEmpty { parts.append(subject.joined(separator: ", ")) }
        if let column { parts.append("column \(column)") }
        return parts.isEmpty ? message : parts.joined(separator: ": ") + ": " + message
    }
}
