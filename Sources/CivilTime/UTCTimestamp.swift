/// An instant in UTC to the microsecond: microseconds since 1970-01-01T00:00:00Z (before it when
/// negative). The one timestamp type of menurank, beside `CivilDate` for days: event times, the
/// days they fall on and their text all come from it with integer arithmetic, never through a
/// floating-point `Date`.
public struct UTCTimestamp: Sendable, Hashable, Comparable {
    public static let microsecondsPerDay: Int64 = 86_400 * 1_000_000

    public var microsecondsSince1970: Int64

    public init(microsecondsSince1970: Int64) { self.microsecondsSince1970 = microsecondsSince1970 }

    /// The UTC day number (days since 1970-01-01) of this instant.
    public var dayNumber: Int {
        Int(CivilDateTime.floorDivision(microsecondsSince1970, Self.microsecondsPerDay).quotient)
    }

    /// The UTC day of this instant.
    public var day: CivilDate { CivilDate(dayNumber: dayNumber) }

    /// Its calendar date and time of day.
    public var civil: CivilDateTime { CivilDateTime(microsecondsSince1970: microsecondsSince1970) }

    public static func < (a: UTCTimestamp, b: UTCTimestamp) -> Bool { a.microsecondsSince1970 < b.microsecondsSince1970 }
}

extension UTCTimestamp: CustomStringConvertible {
    /// RFC 3339 with microseconds: `2026-11-29T09:59:58.120000Z`.
    public var description: String { civil.rfc3339(fractionDigits: 6) }
}
