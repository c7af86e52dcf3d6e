import MappingModel
import ObjectModel
import SQLiteDatabase

/// The text expressions of a row plan that SQLite could compute (``MappingModel/SQLForm``), composed by the row
/// path straight from the source reader's columns into the destination row: literal bytes, a text column's bytes
/// and an integer column's decimal digits, with no `ExpressionValue`, `String` or closure per object. The bytes
/// are those the SQL path writes for the same form (`||`, `CAST(n AS TEXT)`): a text column's bytes as stored.
///
/// As in SQL, the composition holds only while each column read has the storage class its form assumes (text,
/// or an integer, or NULL; ``holds(_:in:firstColumn:)``); a row where one does not is evaluated by the compiled
/// expression instead. A NULL column makes the whole text NULL, as `||` and ``MappingModel/ValueOperations`` do.
///
/// Everything is kept in flat arrays of trivial values, read in place: reading a text form per object retains
/// nothing.
struct SourceTexts {
    /// One piece of a composed text.
    struct Piece {
        enum Kind { case literal, text, integer }
        let kind: Kind
        /// A literal's first byte in `literals`; else the source reader's slot.
        let start: Int32
        /// A literal's byte count.
        let count: Int32
    }

    /// The pieces of every form, one form after the other.
    private var pieces: [Piece] = []
    /// The bytes of every literal.
    private var literals: [UInt8] = []
    /// Per evaluated expression of the plan (by its index), its pieces; nil when it is not composed.
    private var forms: [Range<Int>?] = []

    /// The composed forms of `targets`: those of text attributes whose expression has an SQL form.
    init(_ targets: [AttributeTarget]) {
        for target in targets {
            guard target.type == .string, let form = target.expression.sqlForm else {
                forms.append(nil)
                continue
            }
            let first = pieces.count
            add(form)
            forms.append(first..<pieces.count)
        }
    }

    private mutating func add(_ form: SQLForm) {
        switch form {
        case .literal(let text):
            pieces.append(Piece(kind: .literal, start: Int32(literals.count), count: Int32(text.utf8.count)))
            literals += text.utf8
        case .textAttribute(let slot): pieces.append(Piece(kind: .text, start: Int32(slot), count: 0))
        case .integerAsText(let slot): pieces.append(Piece(kind: .integer, start: Int32(slot), count: 0))
        case .concatenation(let left, let right):
            add(left)
            add(right)
        }
    }

    /// Whether evaluated expression `index` is composed for the row under `statement` (whose slot 0 is column
    /// `firstColumn`): it has a form, and every column it reads holds what the form assumes.
    @inline(__always)
    func holds(_ index: Int, in statement: Statement, firstColumn: Int32) -> Bool {
        guard let range = forms[index] else { return false }
        for piece in pieces[range] {
            switch piece.kind {
            case .literal: continue
            case .text:
                let kind = statement.columnType(firstColumn + piece.start)
                if kind != .text && kind != .null { return false }
            case .integer:
                let kind = statement.columnType(firstColumn + piece.start)
                if kind != .integer && kind != .null { return false }
            }
        }
        return true
    }

    /// The byte count of composed text `index` for the current row, or nil when it is NULL. Call only where
    /// ``holds(_:in:firstColumn:)``.
    func length(_ index: Int, in statement: Statement, firstColumn: Int32) -> Int? {
        var length = 0
        for piece in pieces[forms[index]!] {
            switch piece.kind {
            case .literal: length += Int(piece.count)
            case .text:
                let column = firstColumn + piece.start
                if statement.isNull(column) { return nil }
                length += statement.withUnsafeText(column) { $0.count }
            case .integer:
                let column = firstColumn + piece.start
                if statement.isNull(column) { return nil }
                length += Self.digitCount(statement.int64(column))
            }
        }
        return length
    }

    /// Writes composed text `index` for the current row at `at`: the ``length(_:in:firstColumn:)`` bytes.
    func write(_ index: Int, from statement: Statement, firstColumn: Int32, at: UnsafeMutableRawPointer) {
        var at = at
        for piece in pieces[forms[index]!] {
            switch piece.kind {
            case .literal:
                literals.withUnsafeBytes { bytes in
                    at.copyMemory(from: bytes.baseAddress! + Int(piece.start), byteCount: Int(piece.count))
                }
                at += Int(piece.count)
            case .text:
                statement.withUnsafeText(firstColumn + piece.start) { text in
                    if let base = text.baseAddress { at.copyMemory(from: base, byteCount: text.count) }
                    at += text.count
                }
            case .integer:
                at += Self.writeDigits(statement.int64(firstColumn + piece.start), at: at)
            }
        }
    }

    /// The number of characters of `number` in decimal, a minus sign included: what `String(number)` makes.
    static func digitCount(_ number: Int64) -> Int {
        var rest = number.magnitude
        var count = number < 0 ? 2 : 1
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// Writes `number` in decimal at `at`, as `String(number)` spells it; the number of bytes written.
    static func writeDigits(_ number: Int64, at: UnsafeMutableRawPointer) -> Int {
        let count = digitCount(number)
        var rest = number.magnitude
        var position = count
        repeat {
            position -= 1
            (at + position).storeBytes(of: UInt8(truncatingIfNeeded: rest % 10) + 0x30, as: UInt8.self)
            rest /= 10
        } while rest > 0
        if number < 0 { at.storeBytes(of: 0x2d, as: UInt8.self) }
        return count
    }
}
