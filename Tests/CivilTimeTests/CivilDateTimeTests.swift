import CivilTime
import Testing

@Suite("CivilDateTime")
struct CivilDateTimeTests {
    static let base: Int64 = 1_795_946_398_000_000  // 2026-11-29T09:59:58Z

    @Test("breakdown", arguments: [
        (Int64(0), "1970-01-01", 0, 0, 0, 0),
        (-1, "1969-12-31", 23, 59, 59, 999_999),
        (-86_400_000_000, "1969-12-31", 0, 0, 0, 0),
        (-86_400_000_001, "1969-12-30", 23, 59, 59, 999_999),
        (base + 123_456, "2026-11-29", 9, 59, 58, 123_456),
        (951_868_799_999_999, "2000-02-29", 23, 59, 59, 999_999),
        (253_402_300_799_999_999, "9999-12-31", 23, 59, 59, 999_999),
    ])
    func breakdown(_ micros: Int64, _ date: String, _ hour: Int, _ minute: Int, _ second: Int, _ microsecond: Int) {
        let time = CivilDateTime(microsecondsSince1970: micros)
        #expect(time.date.description == date)
        #expect(time.hour == hour)
        #expect(time.minute == minute)
        #expect(time.second == second)
        #expect(time.microsecond == microsecond)
    }

    @Test("seconds", arguments: [
        (Int64(0), 0, "1970-01-01T00:00:00.000000Z"),
        (-1, 250_000, "1969-12-31T23:59:59.250000Z"),
        (1_795_946_398, 7, "2026-11-29T09:59:58.000007Z"),
    ])
    func seconds(_ seconds: Int64, _ microsecond: Int, _ text: String) {
        let time = CivilDateTime(secondsSince1970: seconds, microsecond: microsecond)
        #expect(time.rfc3339(fractionDigits: 6) == text)
        #expect(time == CivilDateTime(microsecondsSince1970: seconds * 1_000_000 + Int64(microsecond)))
    }

    @Test("RFC 3339", arguments: [
        (Int64(0), 3, "1970-01-01T00:00:00.000Z"),
        (base + 120_000, 3, "2026-11-29T09:59:58.120Z"),
        (base + 123_456, 6, "2026-11-29T09:59:58.123456Z"),
        (base + 123_456, 1, "2026-11-29T09:59:58.1Z"),
        (base + 999_999, 0, "2026-11-29T09:59:58Z"),
        (base + 999_999, -4, "2026-11-29T09:59:58Z"),
        (base + 999_999, 9, "2026-11-29T09:59:58.999999Z"),
        (-1, 6, "1969-12-31T23:59:59.999999Z"),
        (-1, 3, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000_000, 3, "2000-02-29T00:00:00.000Z"),
        (253_402_300_799_999_999, 3, "9999-12-31T23:59:59.999Z"),
        (-62_167_219_200_000_001, 0, "-0001-12-31T23:59:59Z"),
    ])
    func rfc3339(_ micros: Int64, _ digits: Int, _ expected: String) {
        let time = CivilDateTime(microsecondsSince1970: micros)
        #expect(time.rfc3339(fractionDigits: digits) == expected)
        var bytes: [UInt8] = Array("x".utf8)
        time.appendRFC3339(fractionDigits: digits, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + expected)
    }

    @Test func otherSeparator() {
        var bytes: [UInt8] = []
        CivilDateTime(microsecondsSince1970: Self.base + 120_000).append(separator: UInt8(ascii: " "), fractionDigits: 3, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "2026-11-29 09:59:58.120")
    }

    /// Every hour over ±200,000 days: the breakdown adds back up to the instant it came from.
    @Test func breakdownAddsUp() {
        var mismatches = 0
        var micros: Int64 = -200_000 * 86_400_000_000
        while micros <= 200_000 * 86_400_000_000 {
            let time = CivilDateTime(microsecondsSince1970: micros + 1_234_567)
            let seconds = Int64(time.date.dayNumber) * 86_400 + Int64(time.hour * 3600 + time.minute * 60 + time.second)
            if seconds * 1_000_000 + Int64(time.microsecond) != micros + 1_234_567 { mismatches += 1 }
            micros += 3_600_000_000 * 7 + 13
        }
        #expect(mismatches == 0)
    }
}
