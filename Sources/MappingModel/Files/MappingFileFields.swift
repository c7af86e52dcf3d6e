import ObjectModel
import Yams

/// Where in a mapping file the reader is: the file, and the entity mapping and property being read.
struct MappingFileContext {
    var file: String
    var mapping: String?
    var property: String?

    /// An error at `node`'s line that names this place.
    func error(_ code: MappingError.Code, _ message: String, at node: Node?) -> MappingError {
        MappingError(code, message, file: file, line: node?.mark?.line, mapping: mapping, property: property)
    }
}

extension MappingFileContext: YAMLErrorContext {
    func malformed(_ message: String, at node: Node?) -> MappingError {
        error(.malformedFile, message, at: node)
    }
}

/// The fields of a mapping file's YAML mapping, read with ``MappingFileContext``'s errors.
typealias MappingFileFields = YAMLFields<MappingFileContext>
