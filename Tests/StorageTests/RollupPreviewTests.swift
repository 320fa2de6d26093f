import CivilTime
import Foundation
import Locking
import Postgres
import Ranking
import Storage
import Testing
import TestSupport

/// The window read while a rollup writes (`RollupPreview`): the stored rows of the days the rollup
/// does not recompute plus its new rows of those it does must read exactly as the window reads
/// once the rollup has committed, whichever days are queued and whichever blocks they fall in.
@Suite(TestDatabase.enabled) struct RollupPreviewTests {
    /// What `meanwhile` read on the helper: the activities, as the night reads them.
    struct Read: Sendable, Equatable {
        var activities: [ElementTypeActivity]
    }

    static func read(_ query: RankingQuery, on connection: PostgresConnection) throws -> Read {
        Read(activities: try query.activities(on: connection))
    }

    @Test(arguments: [256, 1])
    func previewReadsAsTheCommittedWindow(splitFromPages: Int) throws {
        try TestDatabase.withSchema(prefix: "rolluppreview") { schema in
            let conn = try schema.connect()
            let helper = try schema.connect()
            let mail = try LayoutFixtures.mail(on: conn)
            let (app, message, mailbox, reply, forward) = (mail.app, mail.message, mail.mailbox, mail.reply, mail.forward)
            let thread = try LayoutFixtures.id("mail.thread", in: "element_types", app: app, on: conn)
            let archive = try LayoutFixtures.id("archive", in: "commands", app: app, on: conn)
            let first = try #require(CivilDate(parsing: "2026-10-20")?.dayNumber)
            func day(_ offset: Int) -> String { CivilDate(dayNumber: first + offset).description }
            for offset in 0..<40 {
                try LayoutFixtures.insertEvents(app: app, day: day(offset), elementType: message, command: reply,
                                                count: 5 + offset % 7, users: (offset % 9)...(offset % 9 + 6),
                                                withoutUser: offset % 3, on: conn)
                if offset % 3 == 0 {
                    try LayoutFixtures.insertEvents(app: app, day: day(offset), elementType: message, command: forward,
                                                    count: 2, users: 20...(21 + offset % 4), on: conn)
                }
                if offset % 5 == 1 {
                    try LayoutFixtures.insertEvents(app: app, day: day(offset), elementType: mailbox, command: nil,
                                                    count: 3, users: 30...32, on: conn)
                }
            }
            let store = RollupStore(splitFromPages: splitFromPages)
            _ = try store.rollUp(appID: app, on: conn)

            // Nights with different queued days: the new day alone; the new day with a late day in
            // the window (its blocks recomputed); with a day after the window (today, say); a new
            // element type and command; a day whose events are all gone.
            let nights: [(asOf: Int, length: Int, add: [(Int, Int32, Int32?)])] = [
                (40, 28, [(40, message, reply), (40, mailbox, nil)]),
                (41, 28, [(41, message, forward), (30, message, reply), (22, mailbox, nil)]),
                (42, 28, [(42, message, reply), (43, message, forward)]),
                (43, 14, [(43, thread, archive), (39, thread, archive)]),
                (44, 60, [(44, message, reply), (5, message, forward)]),
            ]
            for (index, night) in nights.enumerated() {
                for (offset, element, command) in night.add {
                    try LayoutFixtures.insertEvents(app: app, day: day(offset), elementType: element, command: command,
                                                    count: 3 + index, users: (index * 3)...(index * 3 + 4 + offset % 5),
                                                    withoutUser: index % 2, on: conn)
                }
                let window = RankingWindow(asOf: CivilDate(dayNumber: first + night.asOf), length: night.length)
                let query = RankingQuery(appID: app, window: window, includePrevious: false)
                let (outcome, during) = try store.rollUp(appID: app, on: conn, alongside: helper,
                                                         previewing: window.days) { preview in
                    #expect(query.accepts(preview))
                    return Read(activities: try query.activities(on: helper, replacing: preview))
                }
                #expect(outcome.days.map(\.dayNumber) == Set(night.add.map { first + $0.0 }).sorted())
                let after = try Self.read(query, on: conn)
                #expect(!after.activities.isEmpty)
                #expect(try #require(during).get() == after, "night \(index)")
            }

            // A day whose events were all forgotten: its rows go, and the preview has none for it.
            try conn.execute("DELETE FROM events WHERE app_id = \(app) AND day = \(day(44))::date")
            try conn.execute("INSERT INTO rollup_queue (app_id, day) VALUES (\(app), \(day(44))::date)")
            let window = RankingWindow(asOf: CivilDate(dayNumber: first + 44), length: 28)
            let query = RankingQuery(appID: app, window: window, includePrevious: false)
            let (_, during) = try store.rollUp(appID: app, on: conn, alongside: helper, previewing: window.days) { preview in
                try Self.read(query, replacing: preview, on: helper)
            }
            #expect(try #require(during).get() == Self.read(query, on: conn))
        }
    }

    static func read(_ query: RankingQuery, replacing preview: RollupPreview, on connection: PostgresConnection) throws -> Read {
        Read(activities: try query.activities(on: connection, replacing: preview))
    }

    /// A backfill (more queued days in the range than `maxPreviewDays`) is not previewed; a
    /// failing `meanwhile` does not stop the rollup; a preview that does not cover the window, or
    /// a reading it cannot replace (decay, the previous window), is refused.
    @Test func backfillsFailuresAndWindowsThePreviewDoesNotCover() throws {
        try TestDatabase.withSchema(prefix: "rolluppreview") { schema in
            let conn = try schema.connect()
            let helper = try schema.connect()
            try LayoutFixtures.migrate(conn)
            let app = try LayoutFixtures.createApp("mail", on: conn)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: conn)
            let first = try #require(CivilDate(parsing: "2026-10-20")?.dayNumber)
            for offset in 0..<6 {
                try LayoutFixtures.insertEvents(app: app, day: CivilDate(dayNumber: first + offset).description,
                                                elementType: message, command: reply, count: 4, users: 1...3, on: conn)
            }
            let store = RollupStore()
            let called = Locked(false)
            let (backfill, none) = try store.rollUp(appID: app, on: conn, alongside: helper,
                                                    previewing: CivilDate(dayNumber: first)...CivilDate(dayNumber: first + 5), maxPreviewDays: 4) { _ in
                called.withLock { $0 = true }
            }
            #expect(backfill.days.count == 6 && none == nil && !called.withLock { $0 })

            struct Refused: Error {}
            try LayoutFixtures.insertEvents(app: app, day: CivilDate(dayNumber: first + 6).description,
                                            elementType: message, command: reply, count: 4, users: 1...3, on: conn)
            let (failed, result) = try store.rollUp(appID: app, on: conn, alongside: helper,
                                                    previewing: CivilDate(dayNumber: first)...CivilDate(dayNumber: first + 6)) { _ -> Int in throw Refused() }
            #expect(failed.days == [CivilDate(dayNumber: first + 6)])
            #expect(throws: Refused.self) { try #require(result).get() }
            let stored: Int = try conn.query("""
                SELECT count(*)::int8 FROM daily_command_usage WHERE app_id = \(app) AND day = \(CivilDate(dayNumber: first + 6))::date
                """)[0].decode(at: 0)
            #expect(stored == 1)

            try LayoutFixtures.insertEvents(app: app, day: CivilDate(dayNumber: first + 7).description,
                                            elementType: message, command: reply, count: 4, users: 1...3, on: conn)
            let window = RankingWindow(asOf: CivilDate(dayNumber: first + 7), length: 7)
            _ = try store.rollUp(appID: app, on: conn, alongside: helper, previewing: CivilDate(dayNumber: first + 2)...CivilDate(dayNumber: first + 7)) { preview in
                #expect(!RankingQuery(appID: app, window: window, includePrevious: false).accepts(preview))
                #expect(!RankingQuery(appID: app, window: RankingWindow(asOf: CivilDate(dayNumber: first + 7), length: 3, halfLife: 7),
                                      includePrevious: false).accepts(preview))
                #expect(!RankingQuery(appID: app, window: RankingWindow(asOf: CivilDate(dayNumber: first + 7), length: 3)).accepts(preview))
                #expect(RankingQuery(appID: app, window: RankingWindow(asOf: CivilDate(dayNumber: first + 7), length: 3),
                                     includePrevious: false).accepts(preview))
                #expect(throws: StorageError.self) {
                    try RankingQuery(appID: app, window: window, includePrevious: false).activities(on: helper, replacing: preview)
                }
            }
        }
    }
}
