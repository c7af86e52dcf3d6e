/// Reads and writes `bplist00` data: an 8-byte header, the objects, a table of their offsets, and a 32-byte
/// trailer giving the offset and reference sizes, the object count, the top object and the table's offset
/// (CFBinaryPList.c).
package struct BinaryPropertyList {
    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    /// Whether only the kinds Core Data's store metadata holds are read (see ``parseMetadata(_:)``).
    private let metadataOnly: Bool
    private static let maximumDepth = 256

    /// The top object of `bytes`.
    ///
    /// Every offset, length and reference is checked, nesting stops at 256 levels, and the objects visited are
    /// at most the bytes there are (plus 1,024): a tree visits each reference once and each takes a byte at
    /// least, while containers that share containers could otherwise unfold into far more than the file holds.
    package static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        try parse(bytes, metadataOnly: false)
    }

    /// The top object of `bytes`, which must hold only the kinds Core Data's store metadata holds: a tree of
    /// dictionaries, arrays, strings, numbers, dates and data with string keys. Sets (which ``parse(_:)`` reads
    /// as arrays, for keyed archives) and keyed-archive references are refused with the object that holds them,
    /// in the same walk that reads everything else. (Found by fuzzing `Z_PLIST` when Foundation's
    /// `PropertyListSerialization` read it: a set or a dictionary keyed by a number crashed it while bridging.)
    package static func parseMetadata(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        try parse(bytes, metadataOnly: true)
    }

    private static func parse(_ bytes: [UInt8], metadataOnly: Bool) throws(PropertyListError) -> PropertyListValue {
        guard bytes.count >= 40, Array(bytes[0..<8]) == Array("bplist00".utf8) else {
            throw PropertyListError(message: "not a binary property list (no bplist00 header)")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = integer(bytes, at: trailer + 8, size: 8)
        let top = integer(bytes, at: trailer + 16, size: 8)
        let table = integer(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < UInt64(bytes.count),
            top < count, table < UInt64(trailer), UInt64(trailer) - table >= count * UInt64(offsetSize)
        else {
            throw PropertyListError(message: "the binary property list's trailer is inconsistent")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let offset = integer(bytes, at: Int(table) + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < UInt64(trailer) else {
                throw PropertyListError(message: "object \(index) lies outside the binary property list")
            }
            offsets.append(Int(offset))
        }
        let list = BinaryPropertyList(
            bytes: bytes, offsets: offsets, referenceSize: referenceSize, metadataOnly: metadataOnly)
        var budget = bytes.count + 1024
        return try list.object(Int(top), depth: 0, budget: &budget)
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func fail(_ index: Int, _ message: String) -> PropertyListError {
        PropertyListError(message: "object \(index) of the binary property list: \(message)")
    }

    /// `size` bytes at `offset`, checked against the end of the objects.
    private func read(_ offset: Int, _ size: Int, object index: Int) throws(PropertyListError) -> ArraySlice<UInt8> {
        guard size >= 0, offset <= bytes.count - 32, size <= bytes.count - 32 - offset else {
            throw fail(index, "runs past the end of the data")
        }
        return bytes[offset..<offset + size]
    }

    private func object(_ index: Int, depth: Int, budget: inout Int) throws(PropertyListError) -> PropertyListValue {
        guard index < offsets.count else { throw fail(index, "is referenced but does not exist") }
        guard depth < Self.maximumDepth else { throw fail(index, "is nested more than \(Self.maximumDepth) deep") }
        budget -= 1
        guard budget >= 0 else { throw fail(index, "is visited again and again: containers are shared") }
        let offset = offsets[index]
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .boolean(false)
            case 0x09: return .boolean(true)
            default: throw fail(index, "has the unknown marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            guard low <= 3 else { throw fail(index, "is an integer wider than 8 bytes") }
            let size = 1 << low
            let raw = Self.integer(Array(try read(offset + 1, size, object: index)), at: 0, size: size)
            return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2, 0x3:
            let size = marker == 0x33 ? 8 : 1 << low
            guard size == 4 || size == 8, marker >> 4 == 0x2 || marker == 0x33 else {
                throw fail(index, "has the unknown marker 0x\(String(marker, radix: 16))")
            }
            let raw = Self.integer(Array(try read(offset + 1, size, object: index)), at: 0, size: size)
            let value = size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)
            return marker == 0x33 ? .date(value) : .real(value)
        case 0x4:
            let (count, start) = try length(low, at: offset, object: index)
            return .data(Array(try read(start, count, object: index)))
        case 0x5:
            let (count, start) = try length(low, at: offset, object: index)
            let text = try read(start, count, object: index)
            guard text.allSatisfy({ $0 < 0x80 }) else { throw fail(index, "is an ASCII string with non-ASCII bytes") }
            return .string(String(decoding: text, as: UTF8.self))
        case 0x6:
            let (count, start) = try length(low, at: offset, object: index)
            let raw = try read(start, count * 2, object: index)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var position = raw.startIndex
            while position < raw.endIndex {
                units.append(UInt16(raw[position]) << 8 | UInt16(raw[position + 1]))
                position += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8 where metadataOnly, 0xC where metadataOnly:
            let kind = marker >> 4 == 0x8 ? "a keyed-archive reference" : "a set"
            throw fail(index, "is \(kind), a kind Core Data metadata never holds")
        case 0x8:
            let raw = Self.integer(Array(try read(offset + 1, low + 1, object: index)), at: 0, size: low + 1)
            guard raw < UInt64(Int32.max) else { throw fail(index, "is a reference too large to follow") }
            return .uid(Int(raw))
        case 0xA, 0xC:
            let (count, start) = try length(low, at: offset, object: index)
            let references = try self.references(count, at: start, object: index)
            var items: [PropertyListValue] = []
            items.reserveCapacity(count)
            for reference in references { items.append(try object(reference, depth: depth + 1, budget: &budget)) }
            return .array(items)
        case 0xD:
            let (count, start) = try length(low, at: offset, object: index)
            let references = try self.references(count * 2, at: start, object: index)
            var dictionary = PropertyListDictionary()
            for position in 0..<count {
                guard case .string(let key) = try object(references[position], depth: depth + 1, budget: &budget)
                else { throw fail(index, "is a dictionary whose key is not a string") }
                dictionary[key] = try object(references[count + position], depth: depth + 1, budget: &budget)
            }
            return .dictionary(dictionary)
        default:
            throw fail(index, "has the unknown marker 0x\(String(marker, radix: 16))")
        }
    }

    /// The element count in a marker's low nibble, or in the integer object after it when the nibble is 0xF,
    /// and where the contents start.
    private func length(_ low: Int, at offset: Int, object index: Int) throws(PropertyListError) -> (Int, Int) {
        guard low == 0xF else { return (low, offset + 1) }
        let marker = try read(offset + 1, 1, object: index).first ?? 0
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw fail(index, "has a malformed length") }
        let size = 1 << Int(marker & 0x0F)
        let raw = Self.integer(Array(try read(offset + 2, size, object: index)), at: 0, size: size)
        guard raw < UInt64(bytes.count) else { throw fail(index, "claims \(raw) elements") }
        return (Int(raw), offset + 2 + size)
    }

    private func references(_ count: Int, at start: Int, object index: Int) throws(PropertyListError) -> [Int] {
        let raw = Array(try read(start, count * referenceSize, object: index))
        return (0..<count).map { Int(Self.integer(raw, at: $0 * referenceSize, size: referenceSize)) }
    }
}
