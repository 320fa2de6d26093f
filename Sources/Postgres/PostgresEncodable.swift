public import Foundation

/// A Swift value that can be sent to PostgreSQL: as a bind in a `PostgresQuery` or as a field
/// of a COPY row.
///
/// Conforming types: `Int`, `Int16`, `Int32`, `Int64`, `Double`, `Bool`, `String`, `Date`
/// (`timestamptz`, microsecond precision, written in UTC), `UUID`, `[UInt8]` (`bytea`),
/// `Optional` of any of these (`nil` is NULL), and arrays of `Int`, `Int16`, `Int32`, `Int64`,
/// `String`, `UUID` (as PostgreSQL array literals).
public protocol PostgresEncodable: Sendable {
    /// The type sent with a bind. `.unknown` lets the server infer it from the context.
    static var postgresDataType: PostgresDataType { get }

    /// Writes the value in PostgreSQL's text format.
    func encode(into encoder: inout PostgresTextEncoder) throws(PostgresError)
}

extension Int: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .int8 }
    public func encode(into encoder: inout PostgresTextEncoder) { encoder.appendInteger(Int64(self)) }
}

extension Int64: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .int8 }
    public func encode(into encoder: inout PostgresTextEncoder) { encoder.appendInteger(self) }
}

extension Int32: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .int4 }
    public func encode(into encoder: inout PostgresTextEncoder) { encoder.appendInteger(Int64(self)) }
}

extension Int16: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .int2 }
    public func encode(into encoder: inout PostgresTextEncoder) { encoder.appendInteger(Int64(self)) }
}

extension Double: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .float8 }
    /// Shortest text that reads back as the same value; `NaN`, `Infinity`, `-Infinity`.
    public func encode(into encoder: inout PostgresTextEncoder) {
        if isNaN {
            encoder.appendPlain("NaN")
        } else if isInfinite {
            encoder.appendPlain(self < 0 ? "-Infinity" : "Infinity")
        } else if self == rounded(), abs(self) < 1e15 {
            if self == 0 && sign == .minus { encoder.appendPlain(0x2D) }
            encoder.appendInteger(Int64(self))
        } else {
            var text = description
            text.withUTF8 { encoder.bytes.append(contentsOf: $0) }
        }
    }
}

extension Bool: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .bool }
    public func encode(into encoder: inout PostgresTextEncoder) { encoder.appendPlain(self ? 0x74 : 0x66) }
}

extension String: PostgresEncodable {
    /// Sent as `text`; a `jsonb` or enum column needs an explicit cast (`\(value)::jsonb`).
    public static var postgresDataType: PostgresDataType { .text }
    public func encode(into encoder: inout PostgresTextEncoder) throws(PostgresError) {
        try encoder.append(text: self)
    }
}

extension Date: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .timestamptz }
    public func encode(into encoder: inout PostgresTextEncoder) {
        PostgresTimestamp.write(micros: PostgresTimestamp.micros(of: self), into: &encoder)
    }
}

extension UUID: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .uuid }
    /// Lower-case hex with hyphens, written byte by byte.
    public func encode(into encoder: inout PostgresTextEncoder) {
        withUnsafeBytes(of: uuid) { raw in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { encoder.appendPlain(0x2D) }
                encoder.appendHex(raw[index])
            }
        }
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { Wrapped.postgresDataType }
    public func encode(into encoder: inout PostgresTextEncoder) throws(PostgresError) {
        switch self {
        case .none: encoder.appendNull()
        case .some(let value): try value.encode(into: &encoder)
        }
    }
}

extension Array: PostgresEncodable where Element: PostgresArrayElement {
    public static var postgresDataType: PostgresDataType { Element.postgresArrayDataType }
    public func encode(into encoder: inout PostgresTextEncoder) throws(PostgresError) {
        try Element.encodeArray(self, into: &encoder)
    }
}
