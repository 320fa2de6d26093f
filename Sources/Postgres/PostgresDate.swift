import CivilTime
public import Foundation

/// A calendar day without a time (PostgreSQL `date`), counted in days since 1970-01-01.
///
/// Written as `YYYY-MM-DD` without going through `String`; decodes from `date`, and from
/// `timestamp`/`timestamptz` (the UTC day).
public struct PostgresDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var daysSince1970: Int

    public init(daysSince1970: Int) { self.daysSince1970 = daysSince1970 }

    /// The UTC day holding `date`.
    public init(_ date: Date) {
        let micros = PostgresTimestamp.micros(of: date)
        var days = micros / PostgresTimestamp.microsPerDay
        if micros % PostgresTimestamp.microsPerDay < 0 { days -= 1 }
        daysSince1970 = Int(days)
    }

    /// A proleptic Gregorian day (year 0 is 1 BC).
    public init(year: Int, month: Int, day: Int) {
        daysSince1970 = CivilDate.dayNumber(year: year, month: month, day: day)
    }

    /// Midnight UTC of this day.
    public var date: Date { PostgresTimestamp.date(micros: Int64(daysSince1970) * PostgresTimestamp.microsPerDay) }

    /// (year, month, day).
    public var components: (year: Int, month: Int, day: Int) {
        let date = CivilDate(dayNumber: daysSince1970)
        return (date.year, date.month, date.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String { CivilDate(dayNumber: daysSince1970).description }

    public static func < (lhs: PostgresDate, rhs: PostgresDate) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }
}

extension PostgresDate: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .date }

    public func encode(into encoder: inout PostgresTextEncoder) {
        let (year, month, day) = components
        encoder.appendPadded(year <= 0 ? 1 - year : year, width: 4)
        encoder.appendPlain(0x2D)
        encoder.appendPadded(month, width: 2)
        encoder.appendPlain(0x2D)
        encoder.appendPadded(day, width: 2)
        if year <= 0 { encoder.appendPlain(" BC") }
    }
}

extension PostgresDate: PostgresDecodable {
    public static func canDecode(_ type: PostgresDataType) -> Bool { Date.canDecode(type) }

    public init?(postgresText text: UnsafeBufferPointer<UInt8>, type: PostgresDataType) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self.init(date)
    }
}
