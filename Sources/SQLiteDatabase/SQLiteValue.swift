/// One SQLite value, in one of the five storage classes.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit IEEE floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes, stored as given. An empty array is a zero-length blob, not `NULL`.
    case blob([UInt8])

    /// A storage class, as reported by `sqlite3_column_type`.
    public enum Kind: Sendable, Hashable {
        /// `SQLITE_NULL`.
        case null
        /// `SQLITE_INTEGER`.
        case integer
        /// `SQLITE_FLOAT`.
        case real
        /// `SQLITE_TEXT`.
        case text
        /// `SQLITE_BLOB`.
        case blob
    }

    /// Whether SQLite holds the value as NULL once bound: NULL, and a real NaN (`sqlite3_bind_double` and
    /// `sqlite3_result_double` make a NaN NULL).
    public var isHeldAsNull: Bool {
        switch self {
        case .null: true
        case .real(let number): number.isNaN
        case .integer, .text, .blob: false
        }
    }

    /// The value as an SQL literal: `NULL`, digits, text in single quotes with any quote inside doubled, or a
    /// blob as `X'…'` in hexadecimal.
    public var sqlLiteral: String {
        switch self {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text):
            "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .blob(let bytes):
            "X'" + String(bytes.flatMap { [Self.hexDigits[Int($0 >> 4)], Self.hexDigits[Int($0 & 0xF)]] }) + "'"
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    /// The storage class of this value.
    public var kind: Kind {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    /// The integer, or `nil` unless this is `.integer`.
    public var int64: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The number as a `Double`, for `.real` and `.integer`; `nil` otherwise.
    public var double: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The text, or `nil` unless this is `.text`.
    public var string: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The bytes, or `nil` unless this is `.blob`.
    public var bytes: [UInt8]? {
        if case .blob(let value) = self { value } else { nil }
    }

    /// Whether this is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }
}
