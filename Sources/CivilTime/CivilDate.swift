/// A proleptic Gregorian calendar date in UTC. It is stored as its day number (days since
/// 1970-01-01, as PostgreSQL stores a `date`), so that a date costs what an `Int` costs, compares
/// and hashes as one integer, and steps by days with integer arithmetic (`Strideable`: a
/// `ClosedRange<CivilDate>` is a collection of days); its year, month and day are computed.
/// Events are partitioned and rolled up by this day.
public struct CivilDate: Sendable, Hashable, Comparable, Strideable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before).
    public let dayNumber: Int

    /// A date; nil when the month or the day does not exist (Feb 30, a 29 February outside leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        dayNumber = CivilDate.dayNumber(year: year, month: month, day: day)
    }

    /// The date of a day number (days since 1970-01-01, negative before).
    @inlinable
    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// The year (year 0 is 1 BC).
    public var year: Int { components.year }
    /// The month, 1 to 12.
    public var month: Int { components.month }
    /// The day of the month, 1 to 31.
    public var day: Int { components.day }

    /// The year, month and day, computed at once.
    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days: count from 0000-03-01 so the leap day ends the year,
        // then split into 400-year eras of 146,097 days.
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let doe = shifted - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The day `days` days later (earlier when negative).
    @inlinable
    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// Days from this date to `other` (negative when `other` is earlier).
    @inlinable
    public func distance(to other: CivilDate) -> Int { other.dayNumber - dayNumber }

    /// The date `days` days later (earlier when negative): `adding(days:)`.
    @inlinable
    public func advanced(by days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// `YYYY-MM-DD` (a year before 0 gets a `-`, one after 9999 all its digits).
    public var description: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DD`, as `description` spells it, to a byte buffer.
    public func append(to out: inout [UInt8]) {
        let (year, month, day) = components
        var y = year
        if y < 0 { out.append(UInt8(ascii: "-")); y = -y }
        if y >= 10_000 {
            out.append(contentsOf: String(y).utf8)
        } else {
            appendDigits(y, count: 4, to: &out)
        }
        out.append(UInt8(ascii: "-"))
        appendDigits(month, count: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(day, count: 2, to: &out)
    }

    @inlinable
    public static func == (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber == b.dayNumber }

    @inlinable
    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

    public func hash(into hasher: inout Hasher) { hasher.combine(dayNumber) }

    @inlinable
    public static func isLeapYear(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    @inlinable
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil). Not checked: a day past the end of
    /// its month counts on into the next (2026-02-30 is 2026-03-02); year 0 is 1 BC.
    @inlinable
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// Appends the last `count` decimal digits of a non-negative `value`, zero-padded.
@inline(__always)
func appendDigits(_ value: Int, count: Int, to out: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var v = value
    while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(v / divisor))
        v %= divisor
        divisor /= 10
    }
}
