public import Foundation

/// An element type whose Swift arrays are `PostgresEncodable`: `Int`, `Int16`, `Int32`,
/// `Int64`, `String` and `UUID` become PostgreSQL arrays (`{1,2,3}`); `UInt8` makes
/// `[UInt8]` a `bytea`.
public protocol PostgresArrayElement: Sendable {
    /// The PostgreSQL type of an array of this element.
    static var postgresArrayDataType: PostgresDataType { get }
    /// Writes a whole array.
    static func encodeArray(_ array: [Self], into encoder: inout PostgresTextEncoder) throws(PostgresError)
}

/// Elements written as array literals `{a,b,c}`.
protocol PostgresArrayLiteralElement: PostgresArrayElement, PostgresEncodable {
    /// Writes one element inside the braces (quoted if it needs to be).
    func encodeElement(into encoder: inout PostgresTextEncoder) throws(PostgresError)
}

extension PostgresArrayLiteralElement {
    public static func encodeArray(_ array: [Self], into encoder: inout PostgresTextEncoder) throws(PostgresError) {
        encoder.appendPlain(0x7B)
        for (index, element) in array.enumerated() {
            if index > 0 { encoder.appendPlain(0x2C) }
            try element.encodeElement(into: &encoder)
        }
        encoder.appendPlain(0x7D)
    }

    func encodeElement(into encoder: inout PostgresTextEncoder) throws(PostgresError) {
        try encode(into: &encoder)
    }
}

extension Int: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .int8Array }
}

extension Int64: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .int8Array }
}

extension Int32: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .int4Array }
}

extension Int16: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .int2Array }
}

extension UUID: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .uuidArray }
}

extension String: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .textArray }

    /// Always double-quoted, so empty strings, `NULL`, commas and braces stay text.
    func encodeElement(into encoder: inout PostgresTextEncoder) throws(PostgresError) {
        encoder.appendPlain(0x22)
        try encoder.appendUTF8(of: self, arrayElement: true)
        encoder.appendPlain(0x22)
    }
}

extension UInt8: PostgresArrayElement {
    public static var postgresArrayDataType: PostgresDataType { .bytea }

    /// `bytea` in hex format: `\x0a1b…`.
    public static func encodeArray(_ array: [UInt8], into encoder: inout PostgresTextEncoder) {
        encoder.appendBackslash()
        encoder.appendPlain(0x78)
        for byte in array { encoder.appendHex(byte) }
    }
}
