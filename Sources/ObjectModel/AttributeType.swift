/// The type of a stored value, with Core Data's names and numeric codes.
///
/// The raw value is the name Xcode writes in a model's `attributeType` attribute.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "ObjectID"
    /// No type: allowed only on transient attributes.
    case undefined = "Undefined"

    /// Core Data's `NSAttributeType` code, an input of the version hash.
    public var coreDataCode: Int32 {
        switch self {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        }
    }

    /// Whether values of this type are whole numbers (booleans included, as SQLite stores them).
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: true
        default: false
        }
    }

    /// The smallest and largest value an integer type can hold.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        case .boolean: 0...1
        default: nil
        }
    }
}
