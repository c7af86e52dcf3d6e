/// How one destination property gets its value, like Core Data's `NSPropertyMapping`.
public struct PropertyMapping: Sendable, Hashable {
    /// The destination attribute or relationship.
    public var name: String
    /// The value expression (see the README's expression language); nil leaves the property to the policy, or
    /// to the attribute's default value.
    public var valueExpression: String?
    /// Free-form key/value pairs.
    public var userInfo: [String: String]

    /// Creates a property mapping.
    public init(name: String, valueExpression: String? = nil, userInfo: [String: String] = [:]) {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
    }
}
