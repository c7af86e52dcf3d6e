/// One column of a table, as `PRAGMA table_info` describes it.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The declared type exactly as written in `CREATE TABLE` (may be empty).
    public let declaredType: String
    /// Whether the column is part of the primary key.
    public let isPrimaryKey: Bool
    /// Whether the column is declared `NOT NULL`.
    public let notNull: Bool

    /// Creates a column description.
    public init(name: String, declaredType: String, isPrimaryKey: Bool, notNull: Bool) {
        self.name = name
        self.declaredType = declaredType
        self.isPrimaryKey = isPrimaryKey
        self.notNull = notNull
    }
}
