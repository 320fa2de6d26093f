import CivilTime

/// UTC timestamps in milliseconds since 1970 and their text forms, computed without calendars or
/// locales so that output is fast and byte-for-byte reproducible.
public enum SimulationTimestamp {
    public static let millisPerDay: Int64 = 86_400_000

    /// The day number (days since 1970-01-01) of a time.
    public static func day(ofMillis ms: Int64) -> Int64 {
        ms >= 0 ? ms / millisPerDay : (ms - millisPerDay + 1) / millisPerDay
    }

    /// 0 = Monday ... 6 = Sunday.
    public static func weekday(ofDay day: Int64) -> Int {
        Int(((day % 7) + 7 + 3) % 7)
    }

    /// `2026-11-29T09:59:58.120Z`: always 24 bytes, so a timestamp can be patched in place.
    public static func appendRFC3339(_ ms: Int64, to out: inout [UInt8]) {
        appendDateTime(ms, dateTimeSeparator: UInt8(ascii: "T"), to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `2026-11-29 09:59:58.120+00`: PostgreSQL's text form of a timestamptz in UTC.
    public static func appendPostgres(_ ms: Int64, to out: inout [UInt8]) {
        appendDateTime(ms, dateTimeSeparator: UInt8(ascii: " "), to: &out)
        out.append(contentsOf: [UInt8(ascii: "+"), UInt8(ascii: "0"), UInt8(ascii: "0")])
    }

    /// `2026-11-29`.
    public static func appendDate(ofMillis ms: Int64, to out: inout [UInt8]) {
        CivilDate(dayNumber: Int(day(ofMillis: ms))).append(to: &out)
    }

    public static func rfc3339(_ ms: Int64) -> String {
        var out: [UInt8] = []
        appendRFC3339(ms, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z` (the form this type writes, and what `--now` accepts).
    public static func parseRFC3339(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b.last == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(b[i] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let dayOfMonth = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(dayOfMonth), hour < 24, minute < 60, second < 61
        else { return nil }
        var millis = 0
        if b.count > 20 {
            guard b[19] == UInt8(ascii: "."), b.count >= 22, let fraction = number(20..<(b.count - 1)) else { return nil }
            let digits = b.count - 21
            millis = digits >= 3 ? fraction / Int(pow10(digits - 3)) : fraction * Int(pow10(3 - digits))
        } else if b.count != 20 {
            return nil
        }
        // A day past the end of its month counts on into the next (2026-02-30 is 2026-03-02).
        let days = Int64(CivilDate.dayNumber(year: year, month: month, day: dayOfMonth))
        return days * millisPerDay + Int64(((hour * 60 + minute) * 60 + second) * 1000 + millis)
    }

    private static func pow10(_ n: Int) -> Int64 {
        var value: Int64 = 1
        for _ in 0..<n { value *= 10 }
        return value
    }

    /// `YYYY-MM-DD`, the separator, `HH:MM:SS.fff`.
    private static func appendDateTime(_ ms: Int64, dateTimeSeparator: UInt8, to out: inout [UInt8]) {
        CivilDateTime(microsecondsSince1970: ms * 1000).append(separator: dateTimeSeparator, fractionDigits: 3, to: &out)
    }
}
