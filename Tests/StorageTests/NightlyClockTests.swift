import CivilTime
import Nightly
import Postgres
import Ranking
import Recommender
import Storage
import Testing
import TestSupport

/// A night on PostgreSQL at a given instant: what the night stamps comes from the clock it is
/// given (`PostgresNightlyStore(clock:)`, as the daemon passes its own), not from the database's
/// `now()`, so a test can run a night on any day and read back when it happened.
@Suite(TestDatabase.enabled) struct NightlyClockTests {
    @Test func aNightStampsWhatItWritesWithItsClock() throws {
        try ProposalStoreTests.withImported { conn, app in
            // 03:00 UTC on 2026-03-29; the window's 28 days end the day before.
            let today = try #require(CivilDate(year: 2026, month: 3, day: 29))
            let night = UTCTimestamp(microsecondsSince1970: Int64(today.dayNumber) * UTCTimestamp.microsecondsPerDay
                + 3 * 3_600_000_000)
            let type = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            // Forward is used ten times as much as reply, which comes before it: a reorder to file.
            let picks = [("forward", 30), ("archive", 10), ("reply", 3), ("delete", 1)]
            let commands = try picks.map { (try LayoutFixtures.id($0.0, in: "commands", app: app, on: conn), $0.1) }
            for back in 1...28 {
                let day = CivilDate(dayNumber: today.dayNumber - back).description
                for (command, count) in commands {
                    try LayoutFixtures.insertEvents(app: app, day: day, elementType: type, command: command, count: count,
                                                    users: 1...40, on: conn)
                }
            }
            // A proposal on file before the night, which the night's filing supersedes.
            let earlier = try RolloutStoreTests.filed(conn, app: app)

            let job = NightlyJob(window: RankingWindow(asOf: today.adding(days: -1)), options: Recommender.Options(), files: true)
            let runs = try job.run(appNamed: "mail", on: PostgresNightlyStore(connection: conn, helper: nil,
                                                                               clock: .fixed(night)))
            let run = try #require(runs.first)
            #expect(run.rollup.days.count == 28)
            guard case .filed(let filed, let superseded)? = run.filings["mail.message"] else {
                Issue.record("mail.message not filed: \(run.filings)")
                return
            }
            #expect(superseded == [earlier])

            // The rollup's time, the new proposal's and the superseded one's end: the night's instant.
            let rolledUp: UTCTimestamp = try conn.query("""
                SELECT rolled_up_at FROM rollup_times WHERE app_id = \(app)
                """)[0].decode(column: "rolled_up_at")
            #expect(rolledUp == night)
            let proposals = ProposalStore()
            #expect(try #require(try proposals.proposal(id: filed, on: conn)).createdAt == night)
            let old = try #require(try proposals.proposal(id: earlier, on: conn))
            #expect(old.status == .superseded && old.decidedAt == night)
        }
    }

    /// A rollout's times come from its store's clock, the one `RolloutQuery` compares them with.
    @Test func aRolloutIsStampedByItsStoresClock() throws {
        try ProposalStoreTests.withImported { conn, app in
            let id = try RolloutStoreTests.filed(conn, app: app)
            let start = UTCTimestamp(microsecondsSince1970: 1_774_000_000_000_000)
            let widen = UTCTimestamp(microsecondsSince1970: start.microsecondsSince1970 + 3_600_000_000)
            let stop = UTCTimestamp(microsecondsSince1970: widen.microsecondsSince1970 + 3_600_000_000)
            let started = try RolloutStore(clock: .fixed(start)).start(proposalID: id, share: 0.2, note: nil, by: "ana",
                                                                        on: conn)
            #expect(started.startedAt == start && started.shareSince == start)
            #expect(try #require(try ProposalStore().proposal(id: id, on: conn)).decidedAt == start)
            let widened = try RolloutStore(clock: .fixed(widen)).setShare(id: started.id, share: 0.5, note: nil, by: "ana",
                                                                           on: conn)
            #expect(widened.startedAt == start && widened.shareSince == widen)
            let stopped = try RolloutStore(clock: .fixed(stop)).stop(id: started.id, note: nil, by: "ana", on: conn)
            #expect(stopped.shareSince == widen && stopped.endedAt == stop)
            let decided: [UTCTimestamp] = try conn.query("""
                SELECT decided_at FROM rollout_decisions WHERE app_id = \(app) AND rollout_id = \(started.id)
                ORDER BY decided_at
                """).map { try $0.decode(column: "decided_at") }
            #expect(decided == [start, widen, stop])
            // Stopping rejects the proposal, then.
            let rejected = try #require(try ProposalStore().proposal(id: id, on: conn))
            #expect(rejected.status == .rejected && rejected.decidedAt == stop)
        }
    }
}
