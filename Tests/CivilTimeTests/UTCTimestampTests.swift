import CivilTime
import Testing

@Suite("UTCTimestamp")
struct UTCTimestampTests {
    @Test("An instant's UTC day, before and after 1970 and at the day's edges", arguments: [
        (Int64(0), "1970-01-01"),
        (Int64(-1), "1969-12-31"),
        (Int64(86_400_000_000 - 1), "1970-01-01"),
        (Int64(86_400_000_000), "1970-01-02"),
        (Int64(-86_400_000_000), "1969-12-31"),
        (Int64(-86_400_000_001), "1969-12-30"),
        (Int64(1_795_946_398_000_000), "2026-11-29"),
    ])
    func day(micros: Int64, expected: String) {
        let instant = UTCTimestamp(microsecondsSince1970: micros)
        #expect(instant.day.description == expected)
        #expect(instant.dayNumber == instant.day.dayNumber)
    }

    @Test func textAndOrder() {
        let instant = UTCTimestamp(microsecondsSince1970: 1_795_946_398_120_000)
        #expect(instant.description == "2026-11-29T09:59:58.120000Z")
        #expect(UTCTimestamp(microsecondsSince1970: -1).description == "1969-12-31T23:59:59.999999Z")
        #expect(UTCTimestamp(microsecondsSince1970: -1) < UTCTimestamp(microsecondsSince1970: 0))
    }
}
