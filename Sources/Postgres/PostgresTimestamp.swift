import CivilTime
import Foundation

/// Conversions between `Date` and PostgreSQL's ISO text format for timestamps and dates,
/// in UTC with microsecond precision, done with integer arithmetic (no formatter, no `String`).
enum PostgresTimestamp {
    static let microsPerSecond: Int64 = 1_000_000
    static let microsPerDay: Int64 = 86_400 * 1_000_000
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    static let referenceDateOffsetMicros: Int64 = 978_307_200 * 1_000_000

    /// Microseconds since 1970-01-01 00:00 UTC, rounded to the nearest microsecond.
    static func micros(of date: Date) -> Int64 {
        let sinceReference = (date.timeIntervalSinceReferenceDate * 1_000_000).rounded()
        // Clamp to what Int64 can hold (±292,000 years); PostgreSQL's own range is smaller.
        let clamped = min(max(sinceReference, -9.2e18), 9.2e18)
        return Int64(clamped) + referenceDateOffsetMicros
    }

    static func date(micros: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(micros - referenceDateOffsetMicros) / 1_000_000)
    }

    /// Writes `YYYY-MM-DD HH:MM:SS[.ffffff]+00` (with ` BC` for years before 1).
    static func write(micros: Int64, into encoder: inout PostgresTextEncoder) {
        let time = CivilDateTime(microsecondsSince1970: micros)
        let year = time.date.year
        let bc = year <= 0
        encoder.appendPadded(bc ? 1 - year : year, width: 4)
        encoder.appendPlain(0x2D)
        encoder.appendPadded(time.date.month, width: 2)
        encoder.appendPlain(0x2D)
        encoder.appendPadded(time.date.day, width: 2)
        encoder.appendPlain(0x20)
        encoder.appendPadded(time.hour, width: 2)
        encoder.appendPlain(0x3A)
        encoder.appendPadded(time.minute, width: 2)
        encoder.appendPlain(0x3A)
        encoder.appendPadded(time.second, width: 2)
        if time.microsecond != 0 {
            encoder.appendPlain(0x2E)
            encoder.appendPadded(time.microsecond, width: 6)
        }
        encoder.appendPlain("+00")
        if bc { encoder.appendPlain(" BC") }
    }

    /// A parsed `date`, `timestamp` or `timestamptz`: microseconds since 1970-01-01 UTC, or one of
    /// PostgreSQL's infinities.
    enum Parsed: Equatable {
        case finite(Int64)
        case infinity
        case minusInfinity
    }

    /// Parses PostgreSQL's ISO output as a `Date` (the infinities as `Date.distantFuture` /
    /// `Date.distantPast`).
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        switch parseMicros(text) {
        case .finite(let micros)?: date(micros: micros)
        case .infinity?: .distantFuture
        case .minusInfinity?: .distantPast
        case nil: nil
        }
    }

    /// Parses PostgreSQL's ISO output of `date`, `timestamp` and `timestamptz`:
    /// `YYYY-MM-DD[ HH:MM:SS[.f…]][±HH[:MM[:SS]]][ BC]`, also `infinity` / `-infinity`. A value
    /// without an offset is UTC.
    static func parseMicros(_ text: UnsafeBufferPointer<UInt8>) -> Parsed? {
        var scanner = ByteScanner(text)
        if scanner.matches("infinity") { return .infinity }
        if scanner.matches("-infinity") { return .minusInfinity }
        guard var year = scanner.integer(minDigits: 4), scanner.take(0x2D),
            let month = scanner.integer(minDigits: 2, maxDigits: 2), scanner.take(0x2D),
            let day = scanner.integer(minDigits: 2, maxDigits: 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var micros: Int64 = 0
        var bc = scanner.matches(" BC")
        if !bc && (scanner.take(0x20) || scanner.take(0x54)) {
            guard let hour = scanner.integer(minDigits: 2, maxDigits: 2), scanner.take(0x3A),
                let minute = scanner.integer(minDigits: 2, maxDigits: 2), scanner.take(0x3A),
                let second = scanner.integer(minDigits: 2, maxDigits: 2),
                hour <= 24, minute < 60, second < 61
            else { return nil }
            micros = Int64(hour * 3600 + minute * 60 + second) * microsPerSecond
            if scanner.take(0x2E) {
                var scale: Int64 = 100_000
                var digits = 0
                while let digit = scanner.digit() {
                    micros += Int64(digit) * scale
                    scale /= 10
                    digits += 1
                }
                if digits == 0 { return nil }
            }
            if let sign = scanner.peek(), sign == 0x2B || sign == 0x2D {
                scanner.skip()
                guard let offsetHours = scanner.integer(minDigits: 2, maxDigits: 2) else { return nil }
                var offset = offsetHours * 3600
                if scanner.take(0x3A) {
                    guard let offsetMinutes = scanner.integer(minDigits: 2, maxDigits: 2) else { return nil }
                    offset += offsetMinutes * 60
                    if scanner.take(0x3A) {
                        guard let offsetSeconds = scanner.integer(minDigits: 2, maxDigits: 2) else { return nil }
                        offset += offsetSeconds
                    }
                }
                // Local time = UTC + offset, so UTC = local - offset.
                micros -= Int64(sign == 0x2B ? offset : -offset) * microsPerSecond
            }
        }
        if !bc { bc = scanner.matches(" BC") }
        if bc { year = 1 - year }
        guard scanner.isAtEnd else { return nil }
        // A day past the end of its month counts on into the next, as it always has here.
        let days = Int64(CivilDate.dayNumber(year: year, month: month, day: day))
        return .finite(days * microsPerDay + micros)
    }
}
