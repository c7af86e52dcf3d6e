/// The lines of a mapping file on which each entity mapping, key and property mapping was written.
///
/// Carried by ``MappingModel`` for error messages only: any two are equal, so that a mapping read from a file
/// equals the same mapping built in code.
struct MappingFileLines: Sendable, Hashable {
    /// The file the mapping was read from.
    var file: String?
    private var lines: [String: Int] = [:]

    init(file: String? = nil) {
        self.file = file
    }

    static func == (lhs: MappingFileLines, rhs: MappingFileLines) -> Bool { true }

    func hash(into hasher: inout Hasher) {}

    /// Records the line of the entity mapping `mapping`, or of one of its keys (`source`, `filter`, …), or of
    /// one of its property mappings (`key` is then `attributes` or `relationships`).
    mutating func record(_ line: Int?, mapping: String?, key: String? = nil, property: String? = nil) {
        guard let line else { return }
        lines[Self.key(mapping, key, property)] = line
    }

    /// The line of the most precise place recorded: the property, else the key, else the entity mapping.
    func line(mapping: String?, key: String? = nil, property: String? = nil) -> Int? {
        if let property, let line = lines[Self.key(mapping, key, property)] { return line }
        if let key, let line = lines[Self.key(mapping, key, nil)] { return line }
        return lines[Self.key(mapping, nil, nil)]
    }

    /// The error placed in the file at the line of `key`/`property` of its mapping.
    func locate(_ error: MappingError, key: String? = nil) -> MappingError {
        guard let file, error.file == nil else { return error }
        var located = error
        located.file = file
        located.line = line(mapping: error.mapping, key: key, property: error.property)
        return located
    }

    private static func key(_ mapping: String?, _ key: String?, _ property: String?) -> String {
        [mapping ?? "", key ?? "", property ?? ""].joined(separator: "\u{1F}")
    }
}
