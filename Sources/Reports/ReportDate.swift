public import CivilTime

/// Dates in reports, in UTC and independent of locale and time zone settings.
public enum ReportDate {
    /// A calendar day, `YYYY-MM-DD`.
    public static func day(_ date: CivilDate) -> String {
        date.description
    }

    /// RFC 3339 in UTC to the second (the fraction cut off): `2026-11-29T10:00:05Z`.
    public static func timestamp(_ instant: UTCTimestamp) -> String {
        instant.civil.rfc3339(fractionDigits: 0)
    }

    /// `2026-11-29 10:00` (UTC), for tables people read.
    public static func minute(_ instant: UTCTimestamp) -> String {
        let text = timestamp(instant)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5))
    }
}
