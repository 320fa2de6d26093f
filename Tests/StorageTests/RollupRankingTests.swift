import CivilTime
import Foundation
import Postgres
import Ranking
import Storage
import Testing
import TestSupport

/// `RankingQuery` reads the rollups into what `Ranker` ranks: window sums (or daily rows with a
/// half-life), the previous window for trends, dismissals and the users' union.
@Suite(TestDatabase.enabled) struct RollupRankingTests {
    @Test func windowsTrendsDismissalsAndDecay() throws {
        try TestDatabase.withSchema(prefix: "ranking") { schema in
            let conn = try schema.connect()
            let mail = try LayoutFixtures.mail(on: conn)
            let (app, message, mailbox, reply, forward) = (mail.app, mail.message, mail.mailbox, mail.reply, mail.forward)
            func add(_ day: String, _ element: Int32, _ command: Int32?, _ count: Int, _ users: ClosedRange<Int>) throws {
                try LayoutFixtures.insertEvents(app: app, day: day, elementType: element, command: command, count: count,
                                                users: users, on: conn)
            }
            try add("2026-11-29", message, reply, 10, 1...5)
            try add("2026-11-28", message, reply, 5, 4...8)
            try add("2026-11-28", message, forward, 3, 1...3)
            try add("2026-11-29", message, nil, 2, 9...10)
            try add("2026-11-01", message, reply, 4, 1...2)     // the previous 28-day window
            try add("2026-10-01", message, reply, 99, 1...2)    // before both windows
            try add("2026-11-29", mailbox, nil, 3, 1...1)       // opened, never picked
            _ = try RollupStore().rollUp(appID: app, on: conn)

            let asOf = try #require(CivilDate(parsing: "2026-11-29"))
            let window = RankingWindow(asOf: asOf, length: 28)
            let activities = try RankingQuery(appID: app, window: window).activities(on: conn)
            #expect(activities.map(\.elementType) == ["mail.mailbox", "mail.message"])
            let ranked = Ranker(window: window).rank(activities[1])
            #expect(ranked.selections == 18 && ranked.previousSelections == 4)
            #expect(ranked.dismissals == 2 && ranked.opens == 20)
            #expect(ranked.users == 10)
            #expect(ranked.command("reply")?.selections == 15 && ranked.command("reply")?.users == 8)
            #expect(ranked.command("reply")?.trend == Trend(previous: 4, current: 15))
            // User-days: 5 people on 11-29 and 5 on 11-28 (users 4 and 5 on both days count twice).
            #expect(ranked.command("reply")?.userDays == 10 && ranked.command("forward")?.userDays == 3)
            #expect(ranked.command("reply")?.effectiveUserDays == 10)
            // Reach: 8 of the 10 people who used the menu.
            #expect(ranked.command("reply")?.reach == WilsonInterval(successes: 8, trials: 10))
            #expect(ranked.command("forward")?.selections == 3 && ranked.command("forward")?.trend == nil)
            let mailboxUsage = Ranker(window: window).rank(activities[0])
            #expect(mailboxUsage.selections == 0 && mailboxUsage.dismissals == 3 && mailboxUsage.dismissalRate == 1)

            // With a half-life the daily rows are read: raw counts stay, the newer day weighs more.
            let decayed = RankingWindow(asOf: asOf, length: 28, halfLife: 1)
            let only = try RankingQuery(appID: app, window: decayed, elementTypes: ["mail.message"])
                .activities(on: conn)
            #expect(only.map(\.elementType) == ["mail.message"])
            let weighted = Ranker(window: decayed).rank(only[0])
            #expect(weighted.selections == 18 && weighted.previousSelections == 4)
            #expect(weighted.command("reply")?.weightedSelections == 10 + 5 * 0.5)
            #expect(weighted.command("forward")?.weightedSelections == 3 * 0.5)
            #expect(weighted.command("reply")?.userDays == 10)
            #expect(weighted.command("reply")?.weightedUserDays == 5 + 5 * 0.5)

            // The daily rows of a few element types (an unknown one among them), as a window with a
            // half-life reads them, without the previous window's totals.
            let daily = try RankingQuery(appID: app, window: decayed, elementTypes: ["mail.message", "nope"],
                                         includePrevious: false).activities(on: conn)
            #expect(daily.map(\.elementType) == ["mail.message"])
            let days = try #require(daily.first).days
            // (Their splits by person bucket: PeopleSplitTests.)
            #expect(days.allSatisfy { $0.people.isKnown })
            #expect(days.map { CommandDay(day: $0.day, command: $0.command, selections: $0.selections,
                                          userDays: $0.userDays) } == [
                CommandDay(day: asOf.adding(days: -1), command: "forward", selections: 3, userDays: 3),
                CommandDay(day: asOf.adding(days: -1), command: "reply", selections: 5, userDays: 5),
                CommandDay(day: asOf, command: "reply", selections: 10, userDays: 5),
            ])

            #expect(try RankingQuery(appID: app, window: window, elementTypes: ["nope"]).activities(on: conn).isEmpty)
        }
    }
}
