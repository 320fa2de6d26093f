public import Foundation

/// Dates in reports, in UTC and independent of locale and time zone settings.
public enum ReportDate {
    /// The calendar day `day` days after 1970-01-01 (the storage layer's day index), `YYYY-MM-DD`.
    public static func day(_ day: Int) -> String {
        let (y, m, d) = civil(fromDays: day)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// The day index of `YYYY-MM-DD`, or nil when the text is not such a date.
    public static func dayIndex(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y)
        else { return nil }
        return days(fromCivil: y, m, d)
    }

    /// RFC 3339 in UTC to the second: `2026-11-29T10:00:05Z`.
    public static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let rest = seconds - dayNumber * 86_400
        return day(dayNumber) + "T" + pad(rest / 3600, 2) + ":" + pad(rest % 3600 / 60, 2) + ":" + pad(rest % 60, 2) + "Z"
    }

    /// `2026-11-29 10:00` (UTC), for tables people read.
    public static func minute(_ date: Date) -> String {
        let text = timestamp(date)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5))
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n.magnitude)
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }

    private static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    private static func daysIn(month m: Int, year y: Int) -> Int {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days-from-civil for the proleptic Gregorian calendar.
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
