package import Foundation

extension InputLimits {
    /// The line of the first processing instruction without data (`<?junk?>`) outside comments and CDATA,
    /// or nil when there is none. swift-corelibs-foundation's `XMLParser` dereferences the missing data and
    /// crashes on one, so every XML file (a model's `contents`, a mapping model's `xcmapping.xml`) is refused
    /// before it reaches the parser; Xcode never writes one.
    package static func lineOfEmptyProcessingInstruction(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var line = 1
        var index = 0
        func starts(with text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return bytes[position...].starts(with: pattern)
        }
        func skip(to end: String) {
            while index < bytes.count && !starts(with: end, at: index) {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
            index += end.utf8.count
        }
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            } else if starts(with: "<!--", at: index) {
                skip(to: "-->")
            } else if starts(with: "<![CDATA[", at: index) {
                skip(to: "]]>")
            } else if starts(with: "<?", at: index) {
                var position = index + 2
                while position < bytes.count, !Self.instructionEnds.contains(bytes[position]) { position += 1 }
                while position < bytes.count, Self.whiteSpace.contains(bytes[position]) {
                    position += 1
                }
                if starts(with: "?>", at: position) { return line }
                index += 2
            } else {
                index += 1
            }
        }
        return nil
    }

    private static let whiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    private static let instructionEnds: Set<UInt8> = whiteSpace.union([UInt8(ascii: "?")])
}
