/// The columns of one entity-table row as a statement lists them: a bookkeeping prefix, then one column per
/// slot.
///
/// A slot is a property column's place after the prefix, the same whether the row is inserted, read or
/// passed to a SQL function: an insert lists `Z_PK`, `Z_ENT` and `Z_OPT` first (``inserted(_:)``), a read
/// of source objects `Z_PK` alone (``read(_:)``). Slot `s` is then statement parameter
/// ``parameter(ofSlot:)`` (1-based) and result or argument column ``column(ofSlot:)`` (0-based), and no
/// caller counts the prefix by hand.
public struct RowShape: Sendable, Hashable {
    /// The columns every entity-table row starts with, in table order: the primary key, the entity number and
    /// the optimistic-locking version.
    public static let bookkeepingColumns = ["Z_PK", "Z_ENT", "Z_OPT"]

    /// The columns before the first slot.
    public let prefix: [String]
    /// The column of each slot, in slot order.
    public let slots: [String]

    /// A row of `prefix` and then `slots`.
    public init(prefix: [String], slots: [String]) {
        self.prefix = prefix
        self.slots = slots
    }

    /// An inserted row: the bookkeeping columns, then `slots`.
    public static func inserted(_ slots: [String]) -> RowShape {
        RowShape(prefix: bookkeepingColumns, slots: slots)
    }

    /// A read row: the primary key, then `slots`.
    public static func read(_ slots: [String]) -> RowShape {
        RowShape(prefix: ["Z_PK"], slots: slots)
    }

    /// Every column, prefix first.
    public var columnNames: [String] { prefix + slots }

    /// The number of columns, prefix included.
    public var width: Int { prefix.count + slots.count }

    /// The 1-based parameter index of `slot` in a statement that binds this row.
    @inline(__always)
    public func parameter(ofSlot slot: Int) -> Int32 { Int32(prefix.count + slot + 1) }

    /// The 0-based column of `slot` in a result row, or argument of a function call, of this shape.
    @inline(__always)
    public func column(ofSlot slot: Int) -> Int32 { Int32(prefix.count + slot) }
}
