public import Foundation

/// A Swift type that values of a result can be decoded as, from PostgreSQL's text format.
///
/// Conforming types and the PostgreSQL types they accept:
/// `Int`, `Int64`, `Int32`, `Int16` ← `int2`, `int4`, `int8`, `oid`, and `numeric` holding an
/// integer (range-checked); `Double` ← `float4`, `float8`, `numeric`, integers; `Bool` ← `bool`;
/// `String` ← any type (its text form); `Date` ← `timestamptz`, `timestamp` (read as UTC),
/// `date` (midnight UTC); `UUID` ← `uuid`; `[UInt8]` ← `bytea`; `Optional` of any of these
/// (NULL → `nil`).
public protocol PostgresDecodable {
    /// Whether a value of this PostgreSQL type can be decoded as `Self`.
    static func canDecode(_ type: PostgresDataType) -> Bool

    /// Decodes a non-NULL value from its text form; `nil` when malformed or out of range.
    init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType)

    /// The value standing for SQL NULL, or `nil` when `Self` cannot represent NULL.
    static var postgresNull: Self? { get }
}

extension PostgresDecodable {
    public static var postgresNull: Self? { nil }
}

extension Int64: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { type.isInteger || type == .numeric }

    /// Decimal digits with an optional sign; for `numeric`, a fraction of zeros is allowed.
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        var scanner = ByteScanner(text)
        let negative = scanner.take(0x2D)
        var magnitude: UInt64 = 0
        var digits = 0
        while let digit = scanner.digit() {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            digits += 1
        }
        guard digits > 0 else { return nil }
        if type == .numeric && scanner.take(0x2E) {
            while let digit = scanner.digit() {
                if digit != 0 { return nil }
            }
        }
        guard scanner.isAtEnd else { return nil }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            self = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        } else {
            guard magnitude <= UInt64(Int64.max) else { return nil }
            self = Int64(magnitude)
        }
    }
}

extension Int: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { Int64.canDecode(type) }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard let wide = Int64(postgresText: text, type: type), let value = Int(exactly: wide) else { return nil }
        self = value
    }
}

extension Int32: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { Int64.canDecode(type) }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard let wide = Int64(postgresText: text, type: type), let value = Int32(exactly: wide) else { return nil }
        self = value
    }
}

extension Int16: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { Int64.canDecode(type) }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard let wide = Int64(postgresText: text, type: type), let value = Int16(exactly: wide) else { return nil }
        self = value
    }
}

extension Double: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool {
        type == .float4 || type == .float8 || type == .numeric || type.isInteger
    }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        let string = String(decoding: text, as: UTF8.self)
        switch string {
        case "NaN": self = .nan
        case "Infinity": self = .infinity
        case "-Infinity": self = -.infinity
        default:
            guard let first = string.utf8.first, first == 0x2D || first == 0x2E || (0x30...0x39).contains(first),
                let value = Double(string)
            else { return nil }
            self = value
        }
    }
}

extension Bool: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { type == .bool }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard text.count == 1 else { return nil }
        switch text[text.startIndex] {
        case 0x74: self = true
        case 0x66: self = false
        default: return nil
        }
    }
}

extension String: PostgresDecodable {
    /// Every type decodes as its text form.
    public static func canDecode(_ type: PostgresDataType) -> Bool { true }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        self = String(decoding: text, as: UTF8.self)
    }
}

extension Date: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool {
        type == .timestamptz || type == .timestamp || type == .date
    }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

extension UUID: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { type == .uuid }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard text.count == 36 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        var index = text.startIndex
        for byteIndex in 0..<16 {
            if byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10 {
                guard text[index] == 0x2D else { return nil }
                index += 1
            }
            guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return nil }
            bytes[byteIndex] = high << 4 | low
            index += 2
        }
        self = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

extension Array: PostgresDecodable where Element == UInt8 {
    public static func canDecode(_ type: PostgresDataType) -> Bool { type == .bytea }
    /// `bytea` in hex output format (`\x…`, the server default).
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard text.count >= 2, text.count % 2 == 0, text[text.startIndex] == 0x5C,
            text[text.startIndex + 1] == 0x78
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2 - 1)
        var index = text.startIndex + 2
        while index < text.endIndex {
            guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { Wrapped.canDecode(type) }
    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard let value = Wrapped(postgresText: text, type: type) else { return nil }
        self = .some(value)
    }
    public static var postgresNull: Wrapped?? { .some(nil) }
}

/// The value of an ASCII hex digit, either case.
private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x61...0x66: byte - 0x61 + 10
    case 0x41...0x46: byte - 0x41 + 10
    default: nil
    }
}
