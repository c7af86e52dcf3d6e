extension BinaryPropertyList {
    /// `value` as `bplist00` bytes, laid out as Core Foundation lays them out, so that a property list read from
    /// a store Core Data wrote is written back byte for byte.
    ///
    /// Objects are numbered depth first, a dictionary's keys before its values; equal strings, numbers, dates
    /// and data are written once and shared (containers never are); integers take the fewest of 1, 2 or 4 bytes,
    /// and 8 when negative or larger; a string is ASCII when it can be, else UTF-16 big-endian; references and
    /// offsets take the fewest bytes that hold the object count and the offset table's position.
    package static func encode(_ value: PropertyListValue) -> [UInt8] {
        var writer = PropertyListWriter()
        writer.flatten(value)
        let referenceSize = byteCount(UInt64(writer.objects.count))
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(writer.objects.count)
        for number in writer.objects.indices {
            offsets.append(bytes.count)
            writer.append(number, to: &bytes, referenceSize: referenceSize)
        }
        let table = bytes.count
        let offsetSize = byteCount(UInt64(table))
        for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &bytes) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        appendBigEndian(UInt64(writer.objects.count), size: 8, to: &bytes)
        appendBigEndian(0, size: 8, to: &bytes)
        appendBigEndian(UInt64(table), size: 8, to: &bytes)
        return bytes
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    static func byteCount(_ value: UInt64) -> Int {
        switch value {
        case ..<0x100: 1
        case ..<0x1_0000: 2
        case ..<0x1_0000_0000: 4
        default: 8
        }
    }

    static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}

/// The objects of a property list being written, numbered, with the shared ones found.
private struct PropertyListWriter {
    /// Each object once, by number; a container's children are numbers into this list.
    var objects: [PropertyListValue] = []
    /// The numbers of each container's children (a dictionary's keys, then its values), by its number.
    var children: [Int: [Int]] = [:]
    /// The number of each shared (non-container) value.
    var shared: [PropertyListValue: Int] = [:]

    /// Numbers `value` and everything under it; returns its number.
    @discardableResult
    mutating func flatten(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let items):
            let number = objects.count
            objects.append(value)
            children[number] = items.map { flatten($0) }
            return number
        case .dictionary(let dictionary):
            let number = objects.count
            objects.append(value)
            let keys = dictionary.keys.map { flatten(.string($0)) }
            children[number] = keys + dictionary.values.map { flatten($0) }
            return number
        default:
            if let number = shared[value] { return number }
            let number = objects.count
            objects.append(value)
            shared[value] = number
            return number
        }
    }

    /// The bytes of object `number`.
    func append(_ number: Int, to bytes: inout [UInt8], referenceSize: Int) {
        switch objects[number] {
        case .null: bytes.append(0x00)
        case .boolean(let flag): bytes.append(flag ? 0x09 : 0x08)
        case .integer(let number): Self.appendInteger(number, to: &bytes)
        case .real(let number):
            bytes.append(0x23)
            BinaryPropertyList.appendBigEndian(number.bitPattern, size: 8, to: &bytes)
        case .date(let seconds):
            bytes.append(0x33)
            BinaryPropertyList.appendBigEndian(seconds.bitPattern, size: 8, to: &bytes)
        case .data(let data):
            Self.appendMarker(0x4, count: data.count, to: &bytes)
            bytes += data
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                Self.appendMarker(0x5, count: text.utf8.count, to: &bytes)
                bytes += text.utf8
            } else {
                let units = Array(text.utf16)
                Self.appendMarker(0x6, count: units.count, to: &bytes)
                for unit in units { BinaryPropertyList.appendBigEndian(UInt64(unit), size: 2, to: &bytes) }
            }
        case .uid(let reference):
            let size = BinaryPropertyList.byteCount(UInt64(reference))
            bytes.append(0x80 | UInt8(size - 1))
            BinaryPropertyList.appendBigEndian(UInt64(reference), size: size, to: &bytes)
        case .array(let items):
            Self.appendMarker(0xA, count: items.count, to: &bytes)
            appendReferences(of: number, to: &bytes, referenceSize: referenceSize)
        case .dictionary(let dictionary):
            Self.appendMarker(0xD, count: dictionary.count, to: &bytes)
            appendReferences(of: number, to: &bytes, referenceSize: referenceSize)
        }
    }

    private func appendReferences(of number: Int, to bytes: inout [UInt8], referenceSize: Int) {
        for child in children[number] ?? [] {
            BinaryPropertyList.appendBigEndian(UInt64(child), size: referenceSize, to: &bytes)
        }
    }

    /// An integer object: the fewest of 1, 2 or 4 bytes when not negative, else 8.
    static func appendInteger(_ number: Int64, to bytes: inout [UInt8]) {
        let size = number < 0 ? 8 : BinaryPropertyList.byteCount(UInt64(number))
        bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
        BinaryPropertyList.appendBigEndian(UInt64(bitPattern: number), size: size, to: &bytes)
    }

    /// A marker with a count: in its low nibble below 15, else 0xF and an integer object.
    static func appendMarker(_ kind: UInt8, count: Int, to bytes: inout [UInt8]) {
        if count < 15 {
            bytes.append(kind << 4 | UInt8(count))
        } else {
            bytes.append(kind << 4 | 0x0F)
            appendInteger(Int64(count), to: &bytes)
        }
    }
}
