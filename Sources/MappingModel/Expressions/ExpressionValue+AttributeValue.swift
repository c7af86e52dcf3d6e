public import ObjectModel

extension ExpressionValue {
    /// An attribute's value (a default, or a value read from a store) as an expression sees it.
    public init(_ value: AttributeValue) {
        self =
            switch value {
            case .integer(let number): .integer(number)
            case .double(let number): .double(number)
            case .decimal(let text): .decimal(text)
            case .string(let text): .string(text)
            case .boolean(let flag): .boolean(flag)
            case .date(let seconds): .date(seconds)
            case .binary(let bytes): .binary(bytes)
            case .uuid(let uuid): .uuid(uuid)
            case .uri(let text): .uri(text)
            }
    }
}
