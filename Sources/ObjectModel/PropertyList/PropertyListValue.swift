/// A value of a binary property list, with NSKeyedArchiver references (`CF$UID`) kept as ``uid(_:)``.
///
/// Read and written by ``BinaryPropertyList``: the store metadata (`Z_METADATA.Z_PLIST`) and the keyed archives
/// of Xcode's compiled mapping models. swift-corelibs-foundation's `PropertyListSerialization` hands references
/// back as an opaque `_NSKeyedArchiverUID` whose number cannot be read, and costs more to read a store's
/// metadata than the rest of opening it.
package enum PropertyListValue: Sendable, Hashable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001.
    case date(Double)
    case data([UInt8])
    case string(String)
    /// A keyed archive's reference to `$objects[n]`.
    case uid(Int)
    case array([PropertyListValue])
    case dictionary(PropertyListDictionary)
}

/// A property list's dictionary: string keys in the order the file holds them, so that what is read can be
/// written back byte for byte.
package struct PropertyListDictionary: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The keys, in order.
    package private(set) var keys: [String] = []
    /// The values, in the keys' order.
    package private(set) var values: [PropertyListValue] = []
    /// Each key's index in ``keys``.
    private var positions: [String: Int] = [:]

    package init() {}

    package init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The value of `key`; setting a key already present replaces its value in place, setting nil removes it.
    package subscript(_ key: String) -> PropertyListValue? {
        get { positions[key].map { values[$0] } }
        set {
            if let index = positions[key] {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                    positions = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
                }
            } else if let newValue {
                positions[key] = keys.count
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    package var count: Int { keys.count }

    package func makeIterator() -> Zip2Sequence<[String], [PropertyListValue]>.Iterator {
        zip(keys, values).makeIterator()
    }
}

/// Why bytes are not a binary property list; the caller adds the file and field.
package struct PropertyListError: Error {
    package var message: String

    package init(message: String) {
        self.message = message
    }
}
