import ObjectModel
import SQLiteDatabase

/// Writes generated values of one attribute into its insert parameter, row after row, allocating nothing.
struct AttributeWriter {
    let parameter: Int32
    let type: AttributeType
    /// Out of 2^32: a draw below this is nil.
    let nullThreshold: UInt64
    let length: IntRange
    /// Values depend only on the primary key, so that they never repeat (uniqueness constraints).
    let isUnique: Bool
    /// Values are drawn from this many different ones (0 = unrestricted).
    let distinct: Int
    /// Mixed into values drawn from a pool, so that two attributes' pools differ.
    let poolSalt: UInt64
    /// A measured distribution to draw from (a dataset made by `shape`), which then decides nils, numbers,
    /// lengths and pools.
    var shaped: ShapedValues? = nil

    private static let alphabet: [UInt8] = Array("abcdefghijklmnopqrstuvwxyz eaoin".utf8)

    func write(
        to statement: Statement,
        primaryKey: Int64,
        random: inout RandomSource,
        buffer: UnsafeMutableRawBufferPointer
    ) throws(SQLiteError) {
        var shapedDraw: ShapedValues.Draw?
        if let shaped {
            guard let draw = shaped.draw(primaryKey: primaryKey) else {
                try statement.bindNull(at: parameter)
                return
            }
            shapedDraw = draw
        } else if nullThreshold > 0 && (random.next() >> 32) < nullThreshold {
            try statement.bindNull(at: parameter)
            return
        }
        // A pool value is a pure function of its index, so equal draws give equal values.
        var poolRandom: RandomSource?
        if let index = shapedDraw?.poolIndex {
            poolRandom = RandomSource(seed: poolSalt &+ UInt64(index) &* 0x9e37_79b9_7f4a_7c15)
        } else if shapedDraw == nil && distinct > 0 {
            poolRandom = RandomSource(seed: poolSalt &+ UInt64(random.below(distinct)) &* 0x9e37_79b9_7f4a_7c15)
        }
        func draw() -> UInt64 { poolRandom != nil ? poolRandom!.next() : random.next() }

        if [.double, .float, .date, .decimal].contains(type), !isUnique, let draw = shapedDraw,
            let quantiles = shaped?.quantiles
        {
            try statement.bind(quantiles.value(at: draw.level), at: parameter)
            return
        }
        switch type {
        case .integer16, .integer32, .integer64:
            let range = type.integerRange!
            if isUnique {
                try statement.bind(primaryKey, at: parameter)
            } else if let draw = shapedDraw, let value = shaped?.integer(draw, in: range) {
                try statement.bind(value, at: parameter)
            } else {
                // Small, realistic magnitudes: spread evenly over 0 ..< 100,000, or the type's positive range if smaller.
                let span = UInt64(min(100_000, range.upperBound) + 1)
                try statement.bind(Int64(draw() % span), at: parameter)
            }
        case .boolean:
            if let draw = shapedDraw, let value = shaped?.frequentValue(draw) {
                try statement.bind(Int64(value == 0 ? 0 : 1), at: parameter)
            } else {
                try statement.bind(Int64(draw() & 1), at: parameter)
            }
        case .double, .float:
            let value = isUnique ? Double(primaryKey) : Double(draw() >> 11) * 0x1p-53 * 10_000
            try statement.bind(value, at: parameter)
        case .date:
            // Seconds since 2001: between 2001 and about 2026.
            let value = isUnique ? Double(primaryKey) : Double(draw() % 800_000_000) + Double(draw() % 1000) / 1000
            try statement.bind(value, at: parameter)
        case .decimal:
            let cents = isUnique ? UInt64(primaryKey) : draw() % 10_000_000
            let count = Self.writeDigits(cents, fraction: 2, into: buffer)
            try statement.bindText(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: parameter)
        case .string, .uri, .undefined:
            var count = 0
            if type == .uri {
                count = Self.copy(Self.uriPrefix, into: buffer, at: 0)
            }
            if isUnique {
                count += Self.writeDigits(
                    UInt64(primaryKey), into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                // Digits, then letters only: unique without the dash, which a shaped length may not leave room for.
                if shaped == nil {
                    buffer[count] = UInt8(ascii: "-")
                    count += 1
                }
            }
            let target = min(max(count, shapedLength(shapedDraw) ?? drawnLength(draw())), buffer.count)
            while count < target {
                var bits = draw()
                for _ in 0..<min(8, target - count) {
                    buffer[count] = Self.alphabet[Int(bits & 31)]
                    bits >>= 8
                    count += 1
                }
            }
            try statement.bindText(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: parameter)
        case .binary, .transformable, .objectID:
            let target = min(shapedLength(shapedDraw) ?? drawnLength(draw()), buffer.count)
            var count = 0
            if isUnique { count = Self.copyBytes(of: primaryKey, into: buffer) }
            while count < target {
                var bits = draw()
                for _ in 0..<min(8, target - count) {
                    buffer[count] = UInt8(truncatingIfNeeded: bits)
                    bits >>= 8
                    count += 1
                }
            }
            try statement.bindBlob(UnsafeRawBufferPointer(rebasing: buffer[0..<max(count, target)]), at: parameter)
        case .uuid:
            var count = 0
            if isUnique { count = Self.copyBytes(of: primaryKey, into: buffer) }
            while count < 16 {
                var bits = draw()
                for _ in 0..<min(8, 16 - count) {
                    buffer[count] = UInt8(truncatingIfNeeded: bits)
                    bits >>= 8
                    count += 1
                }
            }
            buffer[6] = buffer[6] & 0x0f | 0x40  // version 4
            buffer[8] = buffer[8] & 0x3f | 0x80  // RFC 4122 variant
            try statement.bindBlob(UnsafeRawBufferPointer(rebasing: buffer[0..<16]), at: parameter)
        }
    }

    /// A length drawn evenly from `length`.
    private func drawnLength(_ bits: UInt64) -> Int {
        length.min + Int(bits % UInt64(length.max - length.min + 1))
    }

    /// The length at a shaped draw's level, when the shape has lengths.
    private func shapedLength(_ draw: ShapedValues.Draw?) -> Int? {
        guard let draw, let lengths = shaped?.lengths else { return nil }
        return max(Int(lengths.countValue(at: draw.level, draws: draw.draws).rounded()), 0)
    }

    private static let uriPrefix: [UInt8] = Array("https://example.com/".utf8)

    /// Writes `value` in decimal digits, with a point before the last `fraction` digits, and returns the length.
    private static func writeDigits(
        _ value: UInt64, fraction: Int = 0, into buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        digits = max(digits, fraction + 1)
        let length = digits + (fraction > 0 ? 1 : 0)
        var index = length - 1
        rest = value
        for position in 0..<digits {
            if fraction > 0 && position == fraction {
                buffer[index] = UInt8(ascii: ".")
                index -= 1
            }
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
        return length
    }

    private static func copy(_ bytes: [UInt8], into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        for (index, byte) in bytes.enumerated() { buffer[offset + index] = byte }
        return offset + bytes.count
    }

    private static func copyBytes(of primaryKey: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        withUnsafeBytes(of: primaryKey.bigEndian) { bytes in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return 8
    }
}
