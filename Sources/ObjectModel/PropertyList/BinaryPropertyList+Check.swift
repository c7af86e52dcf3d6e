/// The kinds Core Data's store metadata holds, checked before ``BinaryPropertyList/parse(_:)`` reads it.
///
/// Core Data's metadata is a tree of dictionaries, arrays, strings, numbers, dates and data with string keys,
/// so anything else is refused here with the object it found: sets (which the reader takes as arrays, for keyed
/// archives), objects that contain themselves, unknown markers. The walk visits each object once. (Found by
/// fuzzing `Z_PLIST` when Foundation's `PropertyListSerialization` read it: a set or a dictionary keyed by a
/// number crashed it while bridging.)
extension BinaryPropertyList {
    /// What is wrong with `bytes` as a binary property list, or nil when its structure is sound.
    package static func problem(in bytes: [UInt8]) -> String? {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else {
            return "it is not a binary property list"
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { return "its trailer is damaged" }
        let count = integer(bytes, trailer + 8, 8)
        let top = integer(bytes, trailer + 16, 8)
        let table = integer(bytes, trailer + 24, 8)
        guard count >= 1, count <= bytes.count, top < count, table >= 8, table <= trailer,
            (trailer - table) / offsetSize >= count
        else { return "its trailer is damaged" }
        var offsets: [Int] = []
        for index in 0..<count {
            let offset = integer(bytes, table + index * offsetSize, offsetSize)
            guard offset >= 8, offset < table else { return "object \(index) lies outside the objects" }
            offsets.append(offset)
        }
        var state = [UInt8](repeating: 0, count: count)  // 0 unseen, 1 on the path, 2 done
        func visit(_ index: Int, depth: Int) -> String? {
            guard state[index] != 1 else { return "object \(index) contains itself" }
            guard state[index] == 0 else { return nil }
            guard depth < 64 else { return "it nests deeper than 64 levels" }
            state[index] = 1
            let offset = offsets[index]
            let marker = bytes[offset]
            switch marker >> 4 {
            case 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x8: break
            case 0xA, 0xD:
                guard let (length, start) = length(bytes, offset, table) else {
                    return "object \(index) has a damaged length"
                }
                let references = marker >> 4 == 0xD ? 2 * length : length
                guard references <= (table - start) / referenceSize else { return "object \(index) overruns" }
                for position in 0..<references {
                    let child = integer(bytes, start + position * referenceSize, referenceSize)
                    guard child < count else { return "object \(index) refers to no object" }
                    if marker >> 4 == 0xD && position < length && ![0x5, 0x6].contains(bytes[offsets[child]] >> 4) {
                        return "a dictionary key is not a string"
                    }
                    if let problem = visit(child, depth: depth + 1) { return problem }
                }
            default: return "object \(index) is of a kind Core Data metadata never holds (marker \(marker))"
            }
            state[index] = 2
            return nil
        }
        return visit(top, depth: 0)
    }

    /// The element count of the container at `offset` and where its references start.
    private static func length(_ bytes: [UInt8], _ offset: Int, _ end: Int) -> (Int, Int)? {
        let low = Int(bytes[offset] & 0x0F)
        guard low == 0x0F else { return (low, offset + 1) }
        guard offset + 2 < end, bytes[offset + 1] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, offset + 2 + size <= end else { return nil }
        return (integer(bytes, offset + 2, size), offset + 2 + size)
    }

    /// A big-endian unsigned integer of `size` bytes, clamped to `Int.max`.
    private static func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + size)] { value = value << 8 | UInt64(byte) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }
}
