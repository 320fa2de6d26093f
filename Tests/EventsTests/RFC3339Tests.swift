import Events
import Testing

@Suite("RFC 3339")
struct RFC3339Tests {
    static let base: Int64 = 1_795_946_398_000_000  // 2026-11-29T09:59:58Z

    @Test("valid timestamps", arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("1969-12-31T23:59:59.999999Z", -1),
        ("2026-11-29T09:59:58Z", base),
        ("2026-11-29T09:59:58.120Z", base + 120_000),
        ("2026-11-29t09:59:58.1z", base + 100_000),
        ("2026-11-29T09:59:58.12Z", base + 120_000),
        ("2026-11-29T09:59:58.123456Z", base + 123_456),
        ("2026-11-29T09:59:58.1234567Z", base + 123_456),
        ("2026-11-29T09:59:58.123456789Z", base + 123_456),
        ("2026-11-29T12:59:58+03:00", base),
        ("2026-11-29T04:29:58-05:30", base),
        ("2026-11-29T09:59:58-00:00", base),
        ("2026-11-30T09:58:58+23:59", base),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000_000),
        ("2000-02-29T00:00:00Z", 951_782_400_000_000),
        ("2016-12-31T23:59:60Z", 1_483_228_800_000_000),
        ("0001-01-01T00:00:00Z", -62_135_596_800_000_000),
        ("9999-12-31T23:59:59Z", 253_402_300_799_000_000),
    ])
    func valid(_ text: String, _ expected: Int64) {
        #expect(RFC3339.parse(text) == expected)
    }

    @Test("invalid timestamps", arguments: [
        "", "2026-11-29", "2026-11-29T09:59:58", "2026-11-29 09:59:58Z", "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
        "2026-11-00T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T09:60:00Z",
        "2026-11-29T09:59:61Z", "2026-11-29T09:59:58.Z", "2026-11-29T09:59:58.1234567890Z",
        "2026-11-29T09:59:58+0300", "2026-11-29T09:59:58+24:00", "2026-11-29T09:59:58+03:60",
        "2026-11-29T09:59:58+3:00", "2026-11-29T09:59:58ZZ", "2026-11-29T09:59:58Z ", " 2026-11-29T09:59:58Z",
        "2026/11/29T09:59:58Z", "2026-1a-29T09:59:58Z", "+2026-11-29T09:59:58Z", "2026-11-29T09:59:58.12a4Z",
        "2026-11-29T09:59:58UTC", "1732874398", "2026-11-29T9:59:58Z",
        "202X-11-29T09:59:58Z", "20X6-11-29T09:59:58Z", "X026-11-29T09:59:58Z", "2026-11-2XT09:59:58Z",
        // Found by scripts/fuzz (rfc3339): an offset that moves the instant out of years 0000-9999,
        // which could not be written back as RFC 3339.
        "9999-12-31T23:59:59.999999-23:59", "0000-01-01T00:00:00+00:01",
    ])
    func invalid(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    /// The extremes that stay inside years 0000-9999 in UTC parse and format back.
    @Test func theRangeEdgesRoundTrip() throws {
        for text in ["9999-12-31T23:59:59.999999Z", "0000-01-01T00:00:00.000000Z", "9999-12-31T00:00:00-23:59"] {
            let time = try #require(RFC3339.parse(text))
            #expect(RFC3339.parse(RFC3339.format(time, fractionDigits: 6)) == time, "\(text)")
        }
    }

    @Test("formatting", arguments: [
        (Int64(0), 3, "1970-01-01T00:00:00.000Z"),
        (base + 120_000, 3, "2026-11-29T09:59:58.120Z"),
        (base + 123_456, 6, "2026-11-29T09:59:58.123456Z"),
        (base + 999_999, 0, "2026-11-29T09:59:58Z"),
        (-1, 6, "1969-12-31T23:59:59.999999Z"),
        (-1, 3, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000_000, 3, "2000-02-29T00:00:00.000Z"),
    ])
    func format(_ micros: Int64, _ digits: Int, _ expected: String) {
        #expect(RFC3339.format(micros, fractionDigits: digits) == expected)
    }

    @Test func formatThenParseRoundTrips() {
        var t: Int64 = -5_000_000_000_000_000
        while t < 250_000_000_000_000_000 {
            #expect(RFC3339.parse(RFC3339.format(t, fractionDigits: 6)) == t)
            t += 7_777_777_777_777_777
        }
    }

    @Test func dayNumbers() throws {
        #expect(RFC3339.dayNumber(of: -1) == -1)
        #expect(RFC3339.dayNumber(of: RFC3339.parse("2026-11-29T23:59:59.999999Z")!) == 20_786)
        #expect(RFC3339.dayNumber(of: RFC3339.parse("2026-11-30T00:00:00Z")!) == 20_787)
    }
}
