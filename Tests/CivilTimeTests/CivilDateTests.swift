import CivilTime
import Testing

@Suite("CivilDate")
struct CivilDateTests {
    @Test func civilDates() throws {
        #expect(CivilDate(dayNumber: 0).description == "1970-01-01")
        #expect(CivilDate(dayNumber: -1).description == "1969-12-31")
        let leap = try #require(CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate(dayNumber: leap.dayNumber) == leap)
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2026, month: 4, day: 31) == nil)
        for day in stride(from: -800_000, to: 3_000_000, by: 997) {
            #expect(CivilDate(dayNumber: day).dayNumber == day)
        }
    }

    @Test("day numbers", arguments: [
        (0, 1970, 1, 1, "1970-01-01"),
        (-1, 1969, 12, 31, "1969-12-31"),
        (-719_468, 0, 3, 1, "0000-03-01"),
        (-719_469, 0, 2, 29, "0000-02-29"),
        (-719_528, 0, 1, 1, "0000-01-01"),
        (-719_529, -1, 12, 31, "-0001-12-31"),
        (-141_427, 1582, 10, 15, "1582-10-15"),
        (10_957, 2000, 1, 1, "2000-01-01"),
        (11_016, 2000, 2, 29, "2000-02-29"),
        (47_540, 2100, 2, 28, "2100-02-28"),
        (47_541, 2100, 3, 1, "2100-03-01"),
        (20_786, 2026, 11, 29, "2026-11-29"),
        (2_932_896, 9999, 12, 31, "9999-12-31"),
        (2_932_897, 10_000, 1, 1, "10000-01-01"),
    ])
    func dayNumbers(_ number: Int, _ year: Int, _ month: Int, _ day: Int, _ text: String) throws {
        let date = try #require(CivilDate(year: year, month: month, day: day))
        #expect(date.dayNumber == number)
        #expect(CivilDate(dayNumber: number) == date)
        #expect(date.description == text)
        #expect(CivilDate.dayNumber(year: year, month: month, day: day) == number)
    }

    @Test("leap years", arguments: [
        (1900, false), (1996, true), (2000, true), (2023, false), (2024, true), (2100, false), (2400, true),
        (0, true), (-4, true), (-100, false), (-400, true),
    ])
    func leapYears(_ year: Int, _ leap: Bool) {
        #expect(CivilDate.isLeapYear(year) == leap)
        #expect(CivilDate.daysInMonth(year: year, month: 2) == (leap ? 29 : 28))
        #expect((CivilDate(year: year, month: 2, day: 29) != nil) == leap)
        #expect(CivilDate.dayNumber(year: year + 1, month: 1, day: 1) - CivilDate.dayNumber(year: year, month: 1, day: 1)
                == (leap ? 366 : 365))
    }

    @Test func monthLengths() {
        #expect((1...12).map { CivilDate.daysInMonth(year: 2026, month: $0) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CivilDate(year: 2026, month: 0, day: 1) == nil)
        #expect(CivilDate(year: 2026, month: 13, day: 1) == nil)
        #expect(CivilDate(year: 2026, month: 1, day: 0) == nil)
        #expect(CivilDate(year: 2026, month: 1, day: 32) == nil)
    }

    /// Every day within ±200,000 days of 1970 goes back and forth, and each follows the one before.
    @Test func roundTripsDayByDay() {
        var previous = CivilDate(dayNumber: -200_001)
        var mismatches = 0
        for number in -200_000...200_000 {
            let date = CivilDate(dayNumber: number)
            let next = previous.day < CivilDate.daysInMonth(year: previous.year, month: previous.month)
                ? (previous.year, previous.month, previous.day + 1)
                : previous.month < 12 ? (previous.year, previous.month + 1, 1) : (previous.year + 1, 1, 1)
            if date.dayNumber != number || (date.year, date.month, date.day) != next || !(previous < date) {
                mismatches += 1
            }
            previous = date
        }
        #expect(mismatches == 0)
    }

    /// A date is its day number: equal, ordered and hashed as the number, its parts computed from
    /// it, and a range of dates a collection of days (`Strideable`), as the ranking's window uses it.
    @Test func aDateIsItsDayNumber() throws {
        let date = try #require(CivilDate(year: 2026, month: 11, day: 29))
        #expect(date.dayNumber == 20_786)
        #expect(date.components == (2026, 11, 29))
        #expect(date == CivilDate(dayNumber: 20_786) && date.hashValue == CivilDate(dayNumber: 20_786).hashValue)
        #expect(Set([date, CivilDate(dayNumber: 20_786), date.adding(days: 1)]).count == 2)
        #expect(date.adding(days: -28) < date && !(date < date))
        #expect(date.distance(to: date.adding(days: 3)) == 3 && date.advanced(by: -2) == date.adding(days: -2))
        let window = date.adding(days: -27)...date
        #expect(window.count == 28)
        #expect(window.first?.description == "2026-11-02" && window.last == date)
        #expect(window.contains(date.adding(days: -27)) && !window.contains(date.adding(days: 1)))
        #expect(Array(CivilDate(dayNumber: -1)...CivilDate(dayNumber: 1)).map(\.description)
                == ["1969-12-31", "1970-01-01", "1970-01-02"])
        #expect(MemoryLayout<CivilDate>.size == MemoryLayout<Int>.size)
    }

    @Test func unchecked() {
        // Days past the end of a month count on into the next.
        #expect(CivilDate.dayNumber(year: 2026, month: 2, day: 30) == CivilDate.dayNumber(year: 2026, month: 3, day: 2))
    }

    @Test("parsing", arguments: [
        ("1970-01-01", 0),
        ("2000-02-29", 11_016),
        ("9999-12-31", 2_932_896),
        ("0000-01-01", -719_528),
    ])
    func parsing(_ text: String, _ number: Int) throws {
        let date = try #require(CivilDate(parsing: text))
        #expect(date.dayNumber == number)
        #expect(date.description == text)
    }

    @Test("refused by parsing", arguments: [
        "", "2026-11-2", "2026-11-290", "26-11-29", "2026/11/29", "2026-1-029", "+202-11-29", "-202-11-29",
        "2026-11-29 ", " 2026-11-29", "2026-02-29", "2100-02-29", "2026-13-01", "2026-00-01", "2026-04-31",
        "2026-11-00", "2026-1a-29", "２０２６-11-29", "10000-01-01",
    ])
    func refused(_ text: String) {
        #expect(CivilDate(parsing: text) == nil)
    }

    @Test func parsesSubstrings() {
        let line = "from 2026-11-29 on"
        #expect(CivilDate(parsing: line.dropFirst(5).prefix(10))?.dayNumber == 20_786)
    }

    @Test func addsDaysAcrossMonthsYearsAndLeapDays() throws {
        let leap = try #require(CivilDate(year: 2024, month: 2, day: 28))
        #expect(leap.adding(days: 1).description == "2024-02-29")
        #expect(leap.adding(days: 2).description == "2024-03-01")
        #expect(leap.adding(days: -59).description == "2023-12-31")
        #expect(leap.adding(days: 0) == leap)
        #expect(leap.adding(days: 366).adding(days: -366) == leap)
    }
}
