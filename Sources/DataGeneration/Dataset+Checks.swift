import ObjectModel

extension Dataset {
    /// Checks, before anything is written, that the dataset fits `version` at `size` and stays within the
    /// documented bounds (``InputLimits``): every key names an entity, relationship or attribute of the version;
    /// counts, lengths, ratios and multiples are in range; no count range asks for more destination objects than
    /// the relationship's maximum count.
    ///
    /// - Throws: ``GenerationError`` naming the dataset file, the key's line and the key.
    func check(against version: ModelVersion, size: Int) throws(GenerationError) {
        guard (0...InputLimits.size).contains(size) else {
            throw GenerationError("the size must be from 0 to \(InputLimits.size) (got \(size))")
        }
        for (name, multiple) in objects.sorted(by: { $0.key < $1.key }) {
            let key = "objects.\(name)"
            guard let entity = version.entity(named: name) else {
                throw error(key, "names entity '\(name)', which version '\(version.name)' lacks")
            }
            if entity.isAbstract && multiple > 0 { throw error(key, "gives objects to '\(name)', which is abstract") }
            guard multiple.isFinite, (0...InputLimits.objectMultiple).contains(multiple) else {
                throw error(key, "must be a number from 0 to \(Int(InputLimits.objectMultiple)) (got \(multiple))")
            }
            guard Double(size) * multiple <= Double(InputLimits.objectsPerEntity) else {
                throw error(
                    key,
                    "asks for \(Double(size) * multiple) objects at size \(size); the limit is "
                        + "\(InputLimits.objectsPerEntity)")
            }
        }
        for (name, fill) in relationships.sorted(by: { $0.key < $1.key }) {
            let key = "relationships.\(name)"
            let (entity, property) = Self.split(name)
            guard let relationship = version.relationship(property, of: entity) else {
                throw error(key, "names '\(name)', which is not a relationship of version '\(version.name)'")
            }
            if let ratio = fill.fill, !(0...1).contains(ratio) { throw error(key, "'fill' must be between 0 and 1") }
            guard let count = fill.count else { continue }
            guard relationship.isToMany else { throw error(key, "'count' is for to-many relationships; use 'fill'") }
            guard count.max <= InputLimits.fanOut else {
                throw error(key, "'count' \(count) exceeds the limit of \(InputLimits.fanOut)")
            }
            if relationship.maxCount > 0 && count.max > relationship.maxCount {
                throw error(
                    key, "'count' \(count) asks for more than the model's maximum count of \(relationship.maxCount)")
            }
        }
        for (name, fill) in attributes.sorted(by: { $0.key < $1.key }) {
            let key = "attributes.\(name)"
            let (entity, property) = Self.split(name)
            guard let attribute = version.attribute(property, of: entity) else {
                throw error(key, "names '\(name)', which is not an attribute of version '\(version.name)'")
            }
            if let ratio = fill.nullRatio, !(0...1).contains(ratio) {
                throw error(key, "'nullRatio' must be between 0 and 1")
            }
            if let length = fill.length {
                // Only text and bytes have a length; on a number or a date it was taken and ignored.
                guard Self.typesWithLength.contains(attribute.type) else {
                    throw error(
                        key,
                        "'length' is for String, URI, Binary and Transformable attributes; '\(name)' is "
                            + attribute.type.rawValue)
                }
                try checkLength(length, key: key)
            }
            // No 'distinct' means no limit; 0 distinct values cannot fill a single object.
            if let distinct = fill.distinct, !(1...InputLimits.distinctValues).contains(distinct) {
                throw error(key, "'distinct' must be from 1 to \(InputLimits.distinctValues) (got \(distinct))")
            }
        }
        try checkShapes(against: version)
        try checkLength(stringLength, key: "stringLength")
        try checkLength(binaryLength, key: "binaryLength")
        guard (0...1).contains(nullRatio) else { throw error("nullRatio", "must be between 0 and 1") }
    }

    /// The attribute types whose values the generator writes to a length.
    static let typesWithLength: Set<AttributeType> = [.string, .uri, .binary, .transformable, .undefined, .objectID]

    private func checkLength(_ length: IntRange, key: String) throws(GenerationError) {
        guard length.min >= 0, length.min <= length.max, length.max <= InputLimits.valueLength else {
            throw error(key, "length \(length) must be within 0…\(InputLimits.valueLength)")
        }
    }

    /// An error at `key` (`relationships.Author.books`): `file:line: dataset key '…': …` when the dataset was
    /// read from a file.
    func error(_ key: String, _ message: String) -> GenerationError {
        GenerationError("\(source.place(of: key))dataset key '\(key)': \(message)")
    }

    /// `Entity.property` as its two parts.
    static func split(_ key: String) -> (String, String) {
        guard let dot = key.firstIndex(of: ".") else { return (key, "") }
        return (String(key[..<dot]), String(key[key.index(after: dot)...]))
    }
}
