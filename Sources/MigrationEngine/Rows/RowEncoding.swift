import SQLiteDatabase

/// The tags of an encoded value (see ``EncodedRows``).
private enum Tag: UInt8 {
    case null, integer, real, text, blob
}

/// Where a row starts in ``EncodedRows``.
struct RowPosition: Hashable {
    var chunk: Int32
    var offset: Int32
}

/// Rows kept encoded one after the other in chunks of raw memory (128 KiB each, or one row's size when it is
/// larger): per row its primary key, then per value a tag byte and the payload — an integer in zigzag form 7 bits
/// a byte (low bits first), 8 bytes for a real, or the length (7 bits a byte) and the bytes of a text or blob
/// (native byte order; the bytes never leave the process; a composed text's length may end in zero groups). A row
/// never spans two chunks; the number of values of a row is its writer's, which the rows do not record.
///
/// Values go straight into the current chunk, with no row assembled elsewhere first. The methods that run per
/// value touch only the current chunk's pointer and offsets, never an array: no reference count, no
/// copy-on-write test, no bounds check.
final class EncodedRows {
    /// The size of a chunk (a row larger than this has a chunk of its own size).
    private let chunkSize: Int

    /// Every chunk made; a released one is empty.
    private var chunks: [UnsafeMutableRawBufferPointer] = []
    /// The bytes of rows in each chunk before the current one.
    private var filled: [Int] = []
    /// How many chunks from the first are released.
    private var released = 0
    /// The index of the current chunk (-1 before the first): kept apart from `chunks`, whose reads are checked
    /// accesses (swift_beginAccess) where this one is not, for ``finishRow()`` to read per row.
    private var current: Int32 = -1
    /// The current chunk, its size, where its row being written starts, and where the next byte goes.
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    private var rowStart = 0
    private var end = 0

    /// Rows in chunks of `chunkSize` bytes: 128 KiB but in tests. Small enough that the save, which releases a
    /// chunk once its rows are written, gives memory back about as fast as SQLite's page cache takes it.
    init(chunkSize: Int = 1 << 17) {
        self.chunkSize = chunkSize
    }

    deinit { removeAll() }

    /// Starts a row of the object with key `primaryKey`; append its values, then ``finishRow()``.
    func startRow(primaryKey: Int64) {
        rowStart = end
        let at = reserve(10)
        end += Self.writeVarint(zigzag(primaryKey), at: at)
    }

    /// Ends the row started last; where it is.
    func finishRow() -> RowPosition {
        RowPosition(chunk: current, offset: Int32(rowStart))
    }

    func append(_ value: SQLiteValue) {
        switch value {
        case .null: appendTag(.null)
        case .integer(let number): appendInteger(number)
        case .real(let number): appendReal(number)
        case .text(var text): text.withUTF8 { appendBytes(.text, UnsafeRawBufferPointer($0)) }
        case .blob(let blob): blob.withUnsafeBytes { appendBytes(.blob, $0) }
        }
    }

    /// Appends column `column` of `statement`'s current row as it is stored, without making a Swift value of it:
    /// the column looked up once (``SQLiteDatabase/StoredColumn``), not once for its type and again for its value.
    func append(column: Int32, of statement: Statement) {
        let stored = statement.storedColumn(column)
        switch stored.kind {
        case .null: appendTag(.null)
        case .integer: appendInteger(stored.int64)
        case .real: appendReal(stored.double)
        case .text: stored.withUnsafeText { appendBytes(.text, $0) }
        case .blob: stored.withUnsafeBlob { appendBytes(.blob, $0) }
        }
    }

    /// Appends text `index` of `texts`, composed from `statement`'s current row (whose slot 0 is column
    /// `firstColumn`) straight into the chunk, in one pass: no `String` is made of it. Its length is written
    /// before it is known, in as many bytes as `maximumLength` takes.
    func append(
        _ texts: SourceTexts, _ index: Int, maximumLength: Int, from statement: Statement, firstColumn: Int32
    ) {
        var width = 1
        while maximumLength >> (7 * width) != 0 { width += 1 }
        let at = reserve(1 + width + maximumLength)
        at.storeBytes(of: Tag.text.rawValue, as: UInt8.self)
        let length = texts.write(index, from: statement, firstColumn: firstColumn, at: at + 1 + width)
        Self.writeVarint(UInt64(length), at: at + 1, width: width)
        end += 1 + width + length
    }

    /// A reader of the row at `position`, which is valid until its chunk is released.
    func row(at position: RowPosition) -> RowDecoder {
        let chunk = Int(position.chunk)
        return RowDecoder(bytes: UnsafeRawBufferPointer(chunks[chunk]), offset: Int(position.offset))
    }

    /// The bytes of the rows in chunk `chunk`; valid until it is released.
    func rows(inChunk chunk: Int32) -> UnsafeRawBufferPointer {
        let index = Int(chunk)
        let count = index < filled.count ? filled[index] : end
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(chunks[index])[..<count])
    }

    /// `position`, or the start of the next chunk with rows when no row starts there: the position of the row
    /// after one that ended at `position`, once that row is written.
    func normalized(_ position: RowPosition) -> RowPosition {
        var position = position
        while Int(position.chunk) < filled.count && Int(position.offset) == filled[Int(position.chunk)] {
            position = RowPosition(chunk: position.chunk + 1, offset: 0)
        }
        return position
    }

    /// Gives the memory of the chunks before `chunk` back; no row in them is read again.
    func release(before chunk: Int32) {
        while released < Int(chunk) {
            chunks[released].deallocate()
            chunks[released] = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            released += 1
        }
    }

    /// Forgets every row and gives all memory back.
    func removeAll() {
        release(before: Int32(chunks.count))
        chunks = []
        current = -1
        filled = []
        released = 0
        base = nil
        capacity = 0
        rowStart = 0
        end = 0
    }

    private func appendTag(_ tag: Tag) {
        reserve(1).storeBytes(of: tag.rawValue, as: UInt8.self)
        end += 1
    }

    /// An integer as its zigzag form (small magnitudes small), 7 bits a byte: keys and counts take 1 to 3 bytes.
    private func appendInteger(_ number: Int64) {
        let at = reserve(11)
        at.storeBytes(of: Tag.integer.rawValue, as: UInt8.self)
        end += 1 + Self.writeVarint(zigzag(number), at: at + 1)
    }

    private func appendReal(_ number: Double) {
        let at = reserve(9)
        at.storeBytes(of: Tag.real.rawValue, as: UInt8.self)
        (at + 1).storeBytes(of: number.bitPattern, as: UInt64.self)
        end += 9
    }

    private func appendBytes(_ tag: Tag, _ payload: UnsafeRawBufferPointer) {
        let at = reserve(11 + payload.count)
        at.storeBytes(of: tag.rawValue, as: UInt8.self)
        let length = Self.writeVarint(UInt64(payload.count), at: at + 1)
        if let source = payload.baseAddress {
            (at + 1 + length).copyMemory(from: source, byteCount: payload.count)
        }
        end += 1 + length + payload.count
    }

    /// Where `count` more bytes of the row go: in the current chunk, or in a new one that the row moves to.
    @inline(__always)
    private func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if end + count > capacity { moveRowToNewChunk(making: count) }
        return base.unsafelyUnwrapped + end
    }

    private func moveRowToNewChunk(making count: Int) {
        let written = end - rowStart
        let chunk = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(chunkSize, written + count), alignment: 16)
        if let base {
            chunk.baseAddress!.copyMemory(from: base + rowStart, byteCount: written)
            filled.append(rowStart)
        }
        chunks.append(chunk)
        current += 1
        base = chunk.baseAddress
        capacity = chunk.count
        rowStart = 0
        end = written
    }

    /// Writes `value` 7 bits a byte at `at` in exactly `width` bytes, the last groups zero where it takes fewer:
    /// a reader of varints reads the same value.
    private static func writeVarint(_ value: UInt64, at: UnsafeMutableRawPointer, width: Int) {
        var rest = value
        for index in 0..<width {
            let group = UInt8(truncatingIfNeeded: rest & 0x7f)
            (at + index).storeBytes(of: index < width - 1 ? group | 0x80 : group, as: UInt8.self)
            rest >>= 7
        }
    }

    /// Writes `value` 7 bits a byte at `at`; the number of bytes (at most 10).
    @inline(__always)
    private static func writeVarint(_ value: UInt64, at: UnsafeMutableRawPointer) -> Int {
        var rest = value
        var count = 0
        while rest >= 0x80 {
            (at + count).storeBytes(of: UInt8(truncatingIfNeeded: rest) | 0x80, as: UInt8.self)
            rest >>= 7
            count += 1
        }
        (at + count).storeBytes(of: UInt8(rest), as: UInt8.self)
        return count + 1
    }
}

@inline(__always)
private func zigzag(_ number: Int64) -> UInt64 {
    UInt64(bitPattern: (number << 1) ^ (number >> 63))
}

/// Reads a row of ``EncodedRows``: its primary key, then its values one after the other. Its small readers are
/// inlined: called once per value, each was a call of its own (the save's column reads, 670,000 at 100,000 objects).
struct RowDecoder {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    /// The primary key; read it first.
    mutating func primaryKey() -> Int64 { integer() }

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

    /// Gives SQLite the next value; a text or blob is not copied, and must stay until SQLite moves on.
    mutating func setNext(into result: ColumnResult) {
        switch tag() {
        case .null: result.setNull()
        case .integer: result.set(integer())
        case .real: result.set(Double(bitPattern: number()))
        case .text: result.setText(borrowing: payload())
        case .blob: result.setBlob(borrowing: payload())
        }
    }

    /// Moves past the next value.
    mutating func skip() {
        switch tag() {
        case .null: break
        case .integer: _ = varint()
        case .real: offset += 8
        case .text, .blob: offset += Int(varint())
        }
    }

    @inline(__always)
    private mutating func tag() -> Tag {
        defer { offset += 1 }
        return Tag(rawValue: bytes[offset]).unsafelyUnwrapped
    }

    @inline(__always)
    private mutating func number() -> UInt64 {
        defer { offset += 8 }
        return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    @inline(__always)
    private mutating func integer() -> Int64 {
        let zigzag = varint()
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    @inline(__always)
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

    @inline(__always)
    private mutating func payload() -> UnsafeRawBufferPointer {
        let count = Int(varint())
        offset += count
        return UnsafeRawBufferPointer(rebasing: bytes[(offset - count)..<offset])
    }
}
