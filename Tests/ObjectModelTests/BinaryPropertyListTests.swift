import ObjectModel
import Testing

/// The binary property-list reader on hand-made hostile input: it refuses, never crashes or loops.
struct BinaryPropertyListTests {
    /// A `bplist00` of `objects` (each its encoded bytes), with 1-byte offsets and references.
    static func plist(_ objects: [[UInt8]], top: UInt8 = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = UInt8(bytes.count)
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top] + [0, 0, 0, 0, 0, 0, 0, table]
        return bytes
    }

    @Test func readsEveryMarkerTheArchivesUse() throws {
        // dict { "a": [UID 3, true, 300, "é"] }
        let bytes = Self.plist([
            [0xD1, 1, 2], [0x51, 0x61], [0xA4, 3, 4, 5, 6], [0x80, 3], [0x09], [0x11, 0x01, 0x2C], [0x61, 0x00, 0xE9],
        ])
        let value = try BinaryPropertyList.parse(bytes)
        #expect(value == .dictionary(["a": .array([.uid(3), .boolean(true), .integer(300), .string("é")])]))
    }

    static let hostile: [(name: String, bytes: [UInt8], message: String)] = [
        ("an array holding itself", plist([[0xA1, 0]]), "nested more than 256 deep"),
        ("a reference past the objects", plist([[0xA1, 9]]), "does not exist"),
        ("a string longer than the data", plist([[0x5F, 0x10, 20]]), "runs past the end"),
        ("an unknown marker", plist([[0x70]]), "unknown marker"),
        ("no header", Array("bplist01".utf8) + Array(repeating: 0, count: 40), "no bplist00 header"),
        ("a top object past the end", plist([[0x09]], top: 5), "trailer is inconsistent"),
        // 40 arrays, each holding the next one twice: 2^40 visits if followed, so the reader stops.
        (
            "containers that share containers",
            plist((0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x09]]), "visited again and again"
        ),
    ]

    @Test(arguments: hostile)
    func hostileInputIsRefused(input: (name: String, bytes: [UInt8], message: String)) {
        #expect(input.name.isEmpty == false)
        #expect {
            _ = try BinaryPropertyList.parse(input.bytes)
        } throws: { error in
            (error as? PropertyListError)?.message.contains(input.message) == true
        }
        // The metadata reader walks the same way, and refuses the same input with the same message.
        #expect {
            _ = try BinaryPropertyList.parseMetadata(input.bytes)
        } throws: { error in
            (error as? PropertyListError)?.message.contains(input.message) == true
        }
    }
}
