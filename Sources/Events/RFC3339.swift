import CivilTime

/// RFC 3339 timestamps as microseconds since the Unix epoch (UTC), parsed and formatted by hand:
/// no `DateFormatter`, no `ISO8601DateFormatter`, no allocation when parsing.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction]OFFSET` with `T` or `t`, a fraction of 1-9 digits
/// (truncated to microseconds), and `Z`, `z` or `±HH:MM` as offset. Refused: missing offset,
/// impossible dates (Feb 30, Feb 29 outside leap years), hours over 23, minutes over 59, seconds
/// over 60. A leap second (`:60`) is accepted as RFC 3339 allows and lands on the next second.
public enum RFC3339 {
    public static let microsecondsPerSecond: Int64 = 1_000_000
    public static let microsecondsPerDay: Int64 = 86_400_000_000

    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    public static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        let n = b.count
        guard n >= 20, n <= 40 else { return nil }
        @inline(__always) func digit(_ i: Int) -> Int {
            let v = Int(b[i]) &- 0x30
            return v >= 0 && v <= 9 ? v : -1000
        }
        @inline(__always) func two(_ i: Int) -> Int { digit(i) * 10 + digit(i + 1) }
        // Each year digit on its own: a sum could hide one non-digit ("202X" would read as 1020).
        guard digit(0) >= 0, digit(1) >= 0, digit(2) >= 0, digit(3) >= 0 else { return nil }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = two(5)
        let day = two(8)
        let hour = two(11)
        let minute = two(14)
        let second = two(17)
        guard year >= 0, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              month >= 1, month <= 12, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
              hour >= 0, hour <= 23, minute >= 0, minute <= 59, second >= 0, second <= 60
        else { return nil }
        var i = 19
        var fraction: Int64 = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let first = i
            var scale: Int64 = 100_000
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Int64(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > first, i - first <= 9 else { return nil }
        }
        guard i < n else { return nil }
        var offsetSeconds = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard n - i == 6, b[i + 3] == UInt8(ascii: ":") else { return nil }
            let oh = two(i + 1)
            let om = two(i + 4)
            guard oh >= 0, oh <= 23, om >= 0, om <= 59 else { return nil }
            offsetSeconds = (oh * 60 + om) * 60
            if b[i] == UInt8(ascii: "-") { offsetSeconds = -offsetSeconds }
            i += 6
        default:
            return nil
        }
        guard i == n else { return nil }
        let days = CivilDate.dayNumber(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        let time = seconds * microsecondsPerSecond + fraction
        // An offset can move the instant out of the years 0000-9999 that the text form can hold
        // ("9999-12-31T23:59:59-23:59" is in the year 10000 in UTC): such a time could not be
        // written back as RFC 3339, so it is not one.
        guard time >= firstTime, time <= lastTime else { return nil }
        return time
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z.
    static let firstTime = Int64(CivilDate.dayNumber(year: 0, month: 1, day: 1)) * microsecondsPerDay
    static let lastTime = Int64(CivilDate.dayNumber(year: 10_000, month: 1, day: 1)) * microsecondsPerDay - 1

    /// `YYYY-MM-DDTHH:MM:SS[.fff…]Z` in UTC with 0 to 6 fraction digits (default 3: milliseconds).
    public static func format(_ microseconds: Int64, fractionDigits: Int = 3) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        append(microseconds, fractionDigits: fractionDigits, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func append(_ microseconds: Int64, fractionDigits: Int = 3, to out: inout [UInt8]) {
        CivilDateTime(microsecondsSince1970: microseconds).appendRFC3339(fractionDigits: fractionDigits, to: &out)
    }

    /// The UTC day number (days since 1970-01-01) of a time in microseconds.
    public static func dayNumber(of microseconds: Int64) -> Int {
        Int(floorDivision(microseconds, microsecondsPerDay).quotient)
    }

    /// Quotient rounded towards negative infinity, and the matching non-negative remainder.
    static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }
}
