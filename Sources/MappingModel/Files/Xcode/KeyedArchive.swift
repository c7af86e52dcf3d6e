import ObjectModel

/// An NSKeyedArchiver archive read from a binary property list: `$objects`, referenced by ``PropertyListValue/uid(_:)``,
/// with `$top.root` as the root object (`shared/formats/xcmappingmodel.md` §7.1).
struct KeyedArchive {
    let objects: [PropertyListValue]
    /// The reference of the root object.
    let root: PropertyListValue

    init(bytes: [UInt8]) throws(PropertyListError) {
        guard case .dictionary(let top) = try BinaryPropertyList.parse(bytes),
            case .string("NSKeyedArchiver") = top["$archiver"],
            case .array(let objects) = top["$objects"],
            case .dictionary(let roots) = top["$top"], let root = roots["root"]
        else {
            throw PropertyListError(
                message: "not an NSKeyedArchiver archive ($archiver, $objects or $top.root missing)")
        }
        self.objects = objects
        self.root = root
    }

    /// The object a value stands for: the referenced one for a UID (nil for UID 0, `$null`), else the value.
    func resolve(_ value: PropertyListValue?) throws(PropertyListError) -> PropertyListValue? {
        guard let value else { return nil }
        guard case .uid(let index) = value else { return value }
        if index == 0 { return nil }
        guard index < objects.count else {
            throw PropertyListError(message: "reference \(index) points past the \(objects.count) archived objects")
        }
        return objects[index]
    }

    /// The archived object (a dictionary with `$class`) a value refers to, or nil for nil.
    func object(_ value: PropertyListValue?) throws(PropertyListError) -> ArchivedObject? {
        guard let resolved = try resolve(value) else { return nil }
        guard case .dictionary(let fields) = resolved else {
            throw PropertyListError(message: "an archived object is expected, not \(Self.describe(resolved))")
        }
        var className = "?"
        if case .dictionary(let info)? = try resolve(fields["$class"]), case .string(let name)? = info["$classname"] {
            className = name
        }
        return ArchivedObject(className: className, fields: fields)
    }

    /// A string, stored plainly or as an archived NSString; nil for nil.
    func string(_ value: PropertyListValue?) throws(PropertyListError) -> String? {
        switch try resolve(value) {
        case nil: return nil
        case .string(let text): return text
        case .dictionary(let fields):
            if let inner = fields["NS.string"] { return try string(inner) }
            if case .data(let bytes)? = fields["NS.bytes"] { return String(decoding: bytes, as: UTF8.self) }
            throw PropertyListError(
                message: "a string is expected, not an archived \(try object(value)?.className ?? "?")")
        case let other?:
            throw PropertyListError(message: "a string is expected, not \(Self.describe(other))")
        }
    }

    /// The elements of an archived NSArray or NSSet (`NS.objects`); empty for nil.
    func array(_ value: PropertyListValue?) throws(PropertyListError) -> [PropertyListValue] {
        guard let object = try object(value) else { return [] }
        guard case .array(let items)? = object.fields["NS.objects"] else {
            throw PropertyListError(message: "an archived array is expected, not an archived \(object.className)")
        }
        return items
    }

    /// The pairs of an archived NSDictionary (`NS.keys`, `NS.objects`) keyed by string; empty for nil.
    func dictionary(_ value: PropertyListValue?) throws(PropertyListError) -> [(key: String, value: PropertyListValue)]
    {
        guard let object = try object(value) else { return [] }
        guard case .array(let keys)? = object.fields["NS.keys"], case .array(let values)? = object.fields["NS.objects"],
            keys.count == values.count
        else {
            throw PropertyListError(message: "an archived dictionary is expected, not an archived \(object.className)")
        }
        var pairs: [(key: String, value: PropertyListValue)] = []
        for (key, value) in zip(keys, values) {
            guard let name = try string(key) else { throw PropertyListError(message: "a dictionary key is nil") }
            pairs.append((name, value))
        }
        return pairs
    }

    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .null: "null"
        case .boolean: "a boolean"
        case .integer: "an integer"
        case .real: "a real number"
        case .date: "a date"
        case .data: "data"
        case .string: "a string"
        case .uid: "a reference"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }
}

/// One archived object: its class name and its keys.
struct ArchivedObject {
    var className: String
    var fields: PropertyListDictionary

    subscript(_ key: String) -> PropertyListValue? { fields[key] }
}
