/// Why evaluating a compiled expression failed for one object: division by zero, a text that is not a date,
/// a number that does not fit the destination attribute.
///
/// `mapping 'PostToPost', property 'words': column 14: division by zero in '$source.count / $source.pages'`.
public struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String
    /// The expression text.
    public var expression: String
    /// The 1-based position in `expression` of the part that failed.
    public var column: Int
    /// The entity mapping the expression belongs to, if any.
    public var mapping: String?
    /// The destination property (or `filter`) the expression belongs to, if any.
    public var property: String?

    /// Creates an error.
    public init(_ message: String, expression: String, column: Int, mapping: String? = nil, property: String? = nil) {
        self.message = message
        self.expression = expression
        self.column = column
        self.mapping = mapping
        self.property = property
    }

    /// The message, prefixed with the mapping, property and column, followed by the expression text.
    public var description: String {
        var subject: [String] = []
        if let mapping { subject.append("mapping '\(mapping)'") }
        if let property { subject.append("property '\(property)'") }
        let prefix = subject.isEmpty ? "" : subject.joined(separator: ", ") + ": "
        return "\(prefix)column \(column): \(message) in '\(expression)'"
    }
}
