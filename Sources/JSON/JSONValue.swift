/// A parsed JSON document. Objects keep their members in document order (duplicates included), so
/// callers can report duplicate keys and write documents back in a stable order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number, kept as its literal text so that integers beyond 2^53 and exact decimals survive.
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of the first member named `key`, if this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public var stringValue: String? { if case let .string(s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case let .bool(b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case let .array(a) = self { return a } else { return nil } }
    public var objectValue: [(key: String, value: JSONValue)]? {
        if case let .object(o) = self { return o } else { return nil }
    }
    public var isNull: Bool { if case .null = self { return true } else { return false } }
    public var intValue: Int? { if case let .number(n) = self { return n.intValue } else { return nil } }
    public var doubleValue: Double? { if case let .number(n) = self { return n.doubleValue } else { return nil } }

    /// A short name of the value's JSON type, for error messages ("expected a string, found an array").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON number as written in the document.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    public init(text: String) { self.text = text }
    public init(_ value: Int) { self.text = String(value) }
    public init(_ value: Double) {
        if value.isFinite, abs(value) < 1e15, value == Double(Int64(value)) {
            self.text = String(Int64(value))
        } else {
            self.text = "\(value)"
        }
    }
    /// The value as an integer when the literal is an integer that fits in `Int`.
    public var intValue: Int? { Int(text) }
    public var doubleValue: Double? { Double(text) }
    public var description: String { text }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}
