/// The type of the next value under a `JSONReader` cursor, told from its first byte.
public enum JSONValueKind: Sendable, Hashable {
    case object, array, string, number, bool, null

    /// A short name for error messages ("expected a string, found an array").
    public var name: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}
