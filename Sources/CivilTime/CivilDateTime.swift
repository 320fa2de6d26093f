/// A UTC instant broken down into its calendar date and time of day, to the microsecond, and its
/// text `YYYY-MM-DDTHH:MM:SS[.fff…]Z`, computed with integer arithmetic only.
public struct CivilDateTime: Sendable, Hashable {
    public static let microsecondsPerSecond: Int64 = 1_000_000
    public static let secondsPerDay: Int64 = 86_400

    public let date: CivilDate
    /// 0 to 23.
    public let hour: Int
    /// 0 to 59.
    public let minute: Int
    /// 0 to 59.
    public let second: Int
    /// The fraction of the second, 0 to 999,999.
    public let microsecond: Int

    /// The instant `microseconds` after 1970-01-01T00:00:00Z (before it when negative).
    public init(microsecondsSince1970 microseconds: Int64) {
        let (seconds, microsecond) = CivilDateTime.floorDivision(microseconds, CivilDateTime.microsecondsPerSecond)
        self.init(secondsSince1970: seconds, microsecond: Int(microsecond))
    }

    /// The instant `seconds` (plus `microsecond` millionths) after 1970-01-01T00:00:00Z.
    public init(secondsSince1970 seconds: Int64, microsecond: Int = 0) {
        precondition((0..<1_000_000).contains(microsecond), "microsecond out of range: \(microsecond)")
        let (days, secondOfDay) = CivilDateTime.floorDivision(seconds, CivilDateTime.secondsPerDay)
        date = CivilDate(dayNumber: Int(days))
        hour = Int(secondOfDay) / 3600
        minute = Int(secondOfDay) / 60 % 60
        second = Int(secondOfDay) % 60
        self.microsecond = microsecond
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff…]Z` with `fractionDigits` digits of the second (0 to 6, truncated,
    /// no `.` at 0).
    public func rfc3339(fractionDigits: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        appendRFC3339(fractionDigits: fractionDigits, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `rfc3339(fractionDigits:)` to a byte buffer.
    public func appendRFC3339(fractionDigits: Int, to out: inout [UInt8]) {
        append(separator: UInt8(ascii: "T"), fractionDigits: fractionDigits, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Appends `YYYY-MM-DD`, `separator`, `HH:MM:SS`, then `.` and `fractionDigits` digits of the
    /// second (0 to 6, truncated, nothing at 0); no zone.
    public func append(separator: UInt8, fractionDigits: Int, to out: inout [UInt8]) {
        let digits = max(0, min(6, fractionDigits))
        date.append(to: &out)
        out.append(separator)
        appendDigits(hour, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(minute, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(second, count: 2, to: &out)
        if digits > 0 {
            var fraction = microsecond
            for _ in digits..<6 { fraction /= 10 }
            out.append(UInt8(ascii: "."))
            appendDigits(fraction, count: digits, to: &out)
        }
    }

    /// Quotient rounded towards negative infinity, and the matching non-negative remainder.
    static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }
}
