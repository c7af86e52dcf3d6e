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

    /// What the row path writes for evaluated expression `index` in the row under `statement` (whose slot 0 is
    /// column `firstColumn`).
    enum Composition {
        /// The expression's value: it has no form, or a column it reads does not hold what the form assumes.
        case evaluated
        /// NULL: a column it reads is NULL.
        case null
        /// The composed text, at most `maximumLength` bytes (``write(_:from:firstColumn:at:)``).
        case text(maximumLength: Int)
    }

    /// Whether evaluated expression `index` is composed for the row under `statement` (whose slot 0 is column
    /// `firstColumn`): it has a form, and every column it reads holds what the form assumes.
    @inline(__always)
    func holds(_ index: Int, in statement: Statement, firstColumn: Int32) -> Bool {
        guard let range = forms[index] else { return false }
        for position in range {
            let piece = pieces[position]
            guard piece.kind != .literal else { continue }
            let kind = statement.columnType(firstColumn + piece.start)
            if kind != .null && kind != (piece.kind == .text ? .text : .integer) { return false }
        }
        return true
    }

    /// What to write for evaluated expression `index` in the row under `statement`: each column read once for
    /// its storage class, a text column's length read too.
    @inline(__always)
    func composition(_ index: Int, in statement: Statement, firstColumn: Int32) -> Composition {
        guard let range = forms[index] else { return .evaluated }
        var length = 0
        var isNull = false
        for position in range {
            let piece = pieces[position]
            switch piece.kind {
            case .literal: length += Int(piece.count)
            case .text:
                let column = firstColumn + piece.start
                switch statement.columnType(column) {
                case .null: isNull = true
                case .text: length += statement.withUnsafeText(column) { $0.count }
                default: return .evaluated
                }
            case .integer:
                switch statement.columnType(firstColumn + piece.start) {
                case .null: isNull = true
                case .integer: length += Self.maximumDigits
                default: return .evaluated
                }
            }
        }
        return isNull ? .null : .text(maximumLength: length)
    }

    /// Writes composed text `index` for the current row at `at`, where ``composition(_:in:firstColumn:)`` gave
    /// `.text`: at most its maximum length; the number of bytes written.
    @inline(__always)
    func write(_ index: Int, from statement: Statement, firstColumn: Int32, at start: UnsafeMutableRawPointer) -> Int {
        var at = start
        for position in forms[index]! {
            let piece = pieces[position]
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
        return at - start
    }

    /// The most characters an `Int64` takes in decimal: 19 digits and a minus sign.
    static let maximumDigits = 20

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
