/// Where each entity and property of one model version was declared, so that errors found by
/// ``ModelVersion``'s validation (which knows no files) can name the file and line.
struct SourceLines {
    /// The file that declares the version.
    var file: String
    /// The line of the version itself.
    var versionLine: Int?
    private var entityLines: [String: Int] = [:]
    private var propertyLines: [String: [String: Int]] = [:]

    init(file: String, versionLine: Int? = nil) {
        self.file = file
        self.versionLine = versionLine
    }

    /// Records the line of `entity`; a later declaration of the same name wins, so duplicates point at the second.
    mutating func record(entity: String, line: Int?) {
        if let line { entityLines[entity] = line }
    }

    /// Records the line of `property` of `entity`.
    mutating func record(property: String, of entity: String, line: Int?) {
        if let line { propertyLines[entity, default: [:]][property] = line }
    }

    /// The error placed in this file, at the line of the property, else the entity, else the version it names.
    func locate(_ error: ModelError) -> ModelError {
        var line = versionLine
        if let entity = error.entity {
            line = entityLines[entity] ?? line
            if let property = error.property, let propertyLine = propertyLines[entity]?[property] {
                line = propertyLine
            }
        }
        return error.located(file: file, line: line)
    }

    /// Builds the version, placing any validation error in this file.
    func makeVersion(
        name: String,
        entities: [Entity],
        versionIdentifiers: [String],
        warnings: [String]
    ) throws(ModelError) -> ModelVersion {
        do {
            return try ModelVersion(
                name: name, entities: entities, versionIdentifiers: versionIdentifiers, warnings: warnings)
        } catch {
            throw locate(error)
        }
    }
}
