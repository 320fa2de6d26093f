import CivilTime
import Foundation
@testable import MenurankCommands
import Testing

/// `serve --nightly-at HH:MM --nightly-tz ZONE`: which night is due when.
@Suite struct NightlyScheduleTests {
    /// `YYYY-MM-DDTHH:MM` (UTC) as an instant.
    static func at(_ text: String) -> UTCTimestamp {
        let day = CivilDate(parsing: text.prefix(10))!
        let parts = text.dropFirst(11).split(separator: ":").map { Int64($0)! }
        return UTCTimestamp(microsecondsSince1970: (Int64(day.dayNumber) * 86_400 + parts[0] * 3_600 + parts[1] * 60) * 1_000_000)
    }

    @Test func theDueNightIsTheLatestDayWhoseTimeHasPassed() throws {
        let utc = ServeNightly.Schedule(hour: 3, minute: 0, zone: try #require(TimeZone(identifier: "UTC")))
        #expect(utc.dueNight(at: Self.at("2026-12-06T02:59")).description == "2026-12-05")
        #expect(utc.dueNight(at: Self.at("2026-12-06T03:00")).description == "2026-12-06")
        #expect(utc.dueNight(at: Self.at("2026-12-06T23:59")).description == "2026-12-06")
        // Berlin is UTC+1 in December: 03:00 there is 02:00 UTC.
        let berlin = ServeNightly.Schedule(hour: 3, minute: 0, zone: try #require(TimeZone(identifier: "Europe/Berlin")))
        #expect(berlin.dueNight(at: Self.at("2026-12-06T01:59")).description == "2026-12-05")
        #expect(berlin.dueNight(at: Self.at("2026-12-06T02:00")).description == "2026-12-06")
        // And UTC+2 in July; a day of the zone, not of UTC: 23:30 UTC on the 5th is the 6th there.
        #expect(berlin.dueNight(at: Self.at("2026-07-06T00:59")).description == "2026-07-05")
        #expect(berlin.dueNight(at: Self.at("2026-07-06T01:00")).description == "2026-07-06")
        let late = ServeNightly.Schedule(hour: 0, minute: 30, zone: try #require(TimeZone(identifier: "Europe/Berlin")))
        #expect(late.dueNight(at: Self.at("2026-07-05T23:30")).description == "2026-07-06")
    }

    @Test func timesOfDayAreHHMM() {
        #expect(ServeNightly.Schedule.time("03:00")! == (3, 0))
        #expect(ServeNightly.Schedule.time("23:59")! == (23, 59))
        for bad in ["3:00", "24:00", "12:60", "03:00:00", "0300", "", "ab:cd", "-1:00", "03:0٣"] {
            #expect(ServeNightly.Schedule.time(bad) == nil, "\(bad)")
        }
    }
}
