import SQLiteDatabase

/// The tags of an encoded value (see ``RowEncoder``).
private enum Tag: UInt8 {
    case null, integer, real, text, blob
}

/// Encodes the values of one row: per value a tag byte, then an integer in zigzag form 7 bits a byte (low bits
/// first), 8 bytes for a real, or the length (7 bits a byte) and the bytes of a text or blob (native byte order;
/// the bytes never leave the process).
struct RowEncoder {
    private(set) var bytes: [UInt8] = []

    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    mutating func append(_ value: SQLiteValue) {
        switch value {
        case .null: bytes.append(Tag.null.rawValue)
        case .integer(let number): appendInteger(number)
        case .real(let number): appendNumber(.real, number.bitPattern)
        case .text(var text):
            text.withUTF8 { appendBytes(.text, UnsafeRawBufferPointer($0)) }
        case .blob(let blob):
            blob.withUnsafeBytes { appendBytes(.blob, $0) }
        }
    }

    /// Appends column `column` of `statement`'s current row as it is stored, without making a Swift value of it.
    mutating func append(column: Int32, of statement: Statement) {
        switch statement.columnType(column) {
        case .null: bytes.append(Tag.null.rawValue)
        case .integer: appendInteger(statement.int64(column))
        case .real: appendNumber(.real, statement.double(column).bitPattern)
        case .text: statement.withUnsafeText(column) { appendBytes(.text, $0) }
        case .blob: statement.withUnsafeBlob(column) { appendBytes(.blob, $0) }
        }
    }

    /// An integer as its zigzag form (small magnitudes small), 7 bits a byte: keys and counts take 1 to 3 bytes.
    private mutating func appendInteger(_ number: Int64) {
        bytes.append(Tag.integer.rawValue)
        appendVarint(UInt64(bitPattern: (number << 1) ^ (number >> 63)))
    }

    private mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private mutating func appendNumber(_ tag: Tag, _ bits: UInt64) {
        bytes.append(tag.rawValue)
        withUnsafeBytes(of: bits) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendBytes(_ tag: Tag, _ payload: UnsafeRawBufferPointer) {
        bytes.append(tag.rawValue)
        appendVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }
}

/// Reads the values ``RowEncoder`` wrote, one after the other.
struct RowDecoder {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    /// The next value.
    mutating func next() -> SQLiteValue {
        switch tag() {
        case .null: return .null
        case .integer: return .integer(integer())
        case .real: return .real(Double(bitPattern: number()))
        case .text: return .text(String(decoding: payload(), as: UTF8.self))
        case .blob: return .blob([UInt8](payload()))
        }
    }

    /// Binds the next value to `statement` at `index`, without making a Swift value of it.
    mutating func bindNext(to statement: Statement, at index: Int32) throws {
        switch tag() {
        case .null: try statement.bindNull(at: index)
        case .integer: try statement.bind(integer(), at: index)
        case .real: try statement.bind(Double(bitPattern: number()), at: index)
        case .text: try statement.bindText(payload(), at: index)
        case .blob: try statement.bindBlob(payload(), at: index)
        }
    }

    private mutating func tag() -> Tag {
        defer { offset += 1 }
        return Tag(rawValue: bytes[offset])!
    }

    private mutating func number() -> UInt64 {
        defer { offset += 8 }
        return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    private mutating func integer() -> Int64 {
        let zigzag = varint()
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    private mutating func varint() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private mutating func payload() -> UnsafeRawBufferPointer {
        let count = Int(varint())
        offset += count
        return UnsafeRawBufferPointer(rebasing: bytes[(offset - count)..<offset])
    }
}
