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
            try LayoutFixtures.migrate(conn)
            let app = try LayoutFixtures.createApp("mail", on: conn)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            let mailbox = try LayoutFixtures.id("mail.mailbox", in: "element_types", app: app, on: conn)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: conn)
            let forward = try LayoutFixtures.id("forward", in: "commands", app: app, on: conn)
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

            let asOf = try #require(RankingDay.index("2026-11-29"))
            let window = RankingWindow(asOf: asOf, length: 28)
            let activities = try RankingQuery(appID: app, window: window).activities(on: conn)
            #expect(activities.map(\.elementType) == ["mail.mailbox", "mail.message"])
            let ranked = Ranker(window: window).rank(activities[1])
            #expect(ranked.selections == 18 && ranked.previousSelections == 4)
            #expect(ranked.dismissals == 2 && ranked.opens == 20)
            #expect(ranked.users == 10)
            #expect(ranked.command("reply")?.selections == 15 && ranked.command("reply")?.users == 8)
            #expect(ranked.command("reply")?.trend == Trend(previous: 4, current: 15))
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

            #expect(try RankingQuery(appID: app, window: window, elementTypes: ["nope"]).activities(on: conn).isEmpty)
        }
    }
}
