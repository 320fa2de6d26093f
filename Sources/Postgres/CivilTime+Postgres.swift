public import CivilTime
public import Foundation

// CivilTime's two types as PostgreSQL values: `CivilDate` is `date`, `UTCTimestamp` is
// `timestamptz`, each also as an array element (`date[]`, `timestamptz[]`), written and read as
// text with integer arithmetic.

extension CivilDate: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .date }

    /// `YYYY-MM-DD`, with ` BC` for years before 1 (year 0 is 1 BC).
    public func encode(into encoder: inout PostgresTextEncoder) {
        encoder.appendPadded(year <= 0 ? 1 - year : year, width: 4)
        encoder.appendPlain(0x2D)
        encoder.appendPadded(month, width: 2)
        encoder.appendPlain(0x2D)
        encoder.appendPadded(day, width: 2)
        if year <= 0 { encoder.appendPlain(" BC") }
    }
}

extension CivilDate: PostgresDecodable {
    /// From `date`, and from `timestamp`/`timestamptz` (their UTC day); not from `infinity`.
    public static func canDecode(_ type: PostgresDataType) -> Bool { type == .date || type == .timestamp || type == .timestamptz }

    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard let instant = UTCTimestamp(postgresText: text, type: .timestamptz) else { return nil }
        self = instant.day
    }
}

extension CivilDate: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .dateArray }
}

extension UTCTimestamp: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .timestamptz }

    /// `YYYY-MM-DD HH:MM:SS[.ffffff]+00`.
    public func encode(into encoder: inout PostgresTextEncoder) {
        PostgresTimestamp.write(micros: microsecondsSince1970, into: &encoder)
    }
}

extension UTCTimestamp: PostgresDecodable {
    /// From `timestamptz`, `timestamp` (read as UTC) and `date` (midnight UTC); not from `infinity`.
    public static func canDecode(_ type: PostgresDataType) -> Bool { CivilDate.canDecode(type) }

    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard case .finite(let micros)? = PostgresTimestamp.parseMicros(text) else { return nil }
        self.init(microsecondsSince1970: micros)
    }
}

extension UTCTimestamp: PostgresArrayLiteralElement {
    public static var postgresArrayDataType: PostgresDataType { .timestamptzArray }

    /// Quoted: the text holds a space.
    func encodeElement(into encoder: inout PostgresTextEncoder) {
        encoder.appendPlain(0x22)
        encode(into: &encoder)
        encoder.appendPlain(0x22)
    }
}

extension UTCTimestamp {
    /// The instant `date` names, to the nearest microsecond: for the edges where an API hands
    /// over a Foundation `Date` (the clock, `URLSession`, `FileManager`).
    public init(_ date: Date) { self.init(microsecondsSince1970: PostgresTimestamp.micros(of: date)) }

    /// The same instant as a Foundation `Date`, for APIs that demand one.
    public var date: Date { PostgresTimestamp.date(micros: microsecondsSince1970) }
}
