import CivilTime
import Foundation
import Postgres
import Ranking
import Storage
import Testing
import TestSupport

/// The upgrade to sql/0014 on a schema at sql/0013 with data in it: rollups written the old way
/// (test events counted), one day whose events are still kept and one whose partition retention
/// dropped. The kept day is queued and recomputed without its test events; the dropped day's rows
/// stay as they were and are found under the segment of events without a context.
@Suite(TestDatabase.enabled) struct SegmentMigrationTests {
    @Test func upgradeFrom0013KeepsEveryDayAndRecomputesTheKeptOnes() throws {
        let sql = try RepositoryPaths.root().appendingPathComponent("sql")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-0013-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try FileManager.default.contentsOfDirectory(atPath: sql.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files.contains("0014_segments.sql"))
        for file in files where file < "0014" {
            try FileManager.default.copyItem(at: sql.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }

        try TestDatabase.withSchema(prefix: "upgrade14") { schema in
            let conn = try schema.connect()
            _ = try Migrator(directory: folder).migrate(on: conn, distribute: TestDatabase.distributed)
            #expect(try conn.query("SELECT max(version) FROM schema_migrations")[0].decode(Int.self, at: 0) == 13)
            let app = try LayoutFixtures.createApp("mail", on: conn)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: conn)
            let user = try LayoutFixtures.context(app: app, platform: "iOS 18.1", appVersion: "4.9", menuVersion: "1", on: conn)
            let tester = try LayoutFixtures.context(app: app, isTest: true, platform: "iOS 18.2", appVersion: "4.10",
                                                    menuVersion: "1", on: conn)
            // The kept day: 5 picks by people 1-5, 3 by testers 6-8; rolled up the old way.
            try LayoutFixtures.insertEvents(app: app, day: "2026-11-28", elementType: message, command: reply, count: 5,
                                            users: 1...5, context: user, on: conn)
            try LayoutFixtures.insertEvents(app: app, day: "2026-11-28", elementType: message, command: reply, count: 3,
                                            users: 6...8, context: tester, on: conn)
            try conn.execute("DELETE FROM rollup_queue")
            // The old rollups (every event counted) of the kept day and of a day long gone.
            try conn.execute("""
                INSERT INTO daily_command_usage (app_id, day, element_type_id, command_id, selections, users, user_days)
                SELECT \(app), d::date, \(message), \(reply), n, (SELECT hll_add_agg(hll_hash_bigint(g)) FROM generate_series(1, p) g), p
                FROM (VALUES ('2026-11-28', 8, 8), ('2026-10-01', 100, 40)) AS v(d, n, p)
                """)
            try conn.execute("""
                INSERT INTO daily_element_usage (app_id, day, element_type_id, selections, dismissals, users)
                SELECT \(app), d::date, \(message), n, 2, (SELECT hll_add_agg(hll_hash_bigint(g)) FROM generate_series(1, p) g)
                FROM (VALUES ('2026-11-28', 8, 8), ('2026-10-01', 100, 40)) AS v(d, n, p)
                """)
            try conn.execute("""
                INSERT INTO daily_outcomes (app_id, day, element_type_id, menu_version, opens, dismissals, positions,
                                            position_counts, latency_buckets, latency_counts)
                VALUES (\(app), '2026-11-28', \(message), '1', 8, 0, '{}', '{}', '{}', '{}'),
                       (\(app), '2026-10-01', \(message), '1', 102, 2, '{0}', '{100}', '{}', '{}')
                """)

            try FileManager.default.copyItem(at: sql.appendingPathComponent("0014_segments.sql"),
                                             to: folder.appendingPathComponent("0014_segments.sql"))
            let applied = try Migrator(directory: folder).migrate(on: conn, distribute: TestDatabase.distributed)
            #expect(applied.applied.map(\.version) == [14])

            // The app's segments: its two contexts and the one of events without a context.
            let segments = try SegmentStore().segments(appID: app, on: conn)
            #expect(Set(segments.map { "\($0.isTest) \($0.platform) \($0.appVersion)" })
                == ["false  ", "false ios 4.9", "true ios 4.10"])
            let none = try #require(segments.first { !$0.isTest && $0.platform.isEmpty }).id
            // Both days under that segment until the rollup; only the kept day queued.
            let copied = try conn.query("""
                SELECT day::text, segment_id, selections, user_days FROM segment_command_usage ORDER BY day
                """).map { "\(try $0.decode(String.self, at: 0)) \(try $0.decode(Int32.self, at: 1)) \(try $0.decode(Int.self, at: 2)) \(try $0.decode(Int.self, at: 3))" }
            #expect(copied == ["2026-10-01 \(none) 100 40", "2026-11-28 \(none) 8 8"])
            #expect(try conn.query("SELECT count(*) FROM segment_element_usage")[0].decode(Int.self, at: 0) == 2)
            #expect(try conn.query("SELECT count(*) FROM daily_outcomes WHERE segment_id = \(none)")[0].decode(Int.self, at: 0) == 2)
            #expect(try conn.query("SELECT day::text FROM rollup_queue").map { try $0.decode(String.self, at: 0) } == ["2026-11-28"])

            // Today's rollup needs today's schema: the later migrations first (sql/0020 queues the
            // kept day again, which is queued already).
            _ = try Migrator(directory: sql).migrate(on: conn, distribute: TestDatabase.distributed)
            let outcome = try RollupStore().rollUp(appID: app, on: conn)
            #expect(outcome.days.map(\.description) == ["2026-11-28"])
            try SegmentRollupTests.compareSegmentsWithEvents(app: app, on: conn, from: "2026-11-01")
            // The kept day without its test events by default; every event with --include-test.
            let kept = try SegmentRollupTests.totals(app: app, filter: .default, asOf: "2026-11-28", on: conn)
            #expect(kept.selections == 5 && kept.userDays == 5 && kept.users == 5)
            let everything = try SegmentRollupTests.totals(app: app, filter: SegmentFilter(includeTest: true),
                                                           asOf: "2026-11-28", on: conn)
            #expect(everything.selections == 8 && everything.userDays == 8 && everything.users == 8)
            // The day long gone: as it was, by default and with every event, and no platform matches it.
            let gone = try SegmentRollupTests.totals(app: app, filter: .default, asOf: "2026-10-01", on: conn)
            #expect(gone.selections == 100 && gone.userDays == 40 && gone.users == 40 && gone.dismissals == 2)
            let goneAll = try SegmentRollupTests.totals(app: app, filter: SegmentFilter(includeTest: true), asOf: "2026-10-01",
                                                        on: conn)
            #expect(goneAll.selections == 100 && goneAll.userDays == 40 && goneAll.users == 40 && goneAll.dismissals == 2)
            let goneIOS = try SegmentRollupTests.totals(app: app, filter: SegmentFilter(platforms: ["ios"]), asOf: "2026-10-01",
                                                        on: conn)
            #expect(goneIOS.selections == 0)
            // Outcomes: the gone day as it was; the kept day recomputed per segment, the default
            // without the testers' opens.
            let rows = try OutcomeQuery().rows(appID: app, from: CivilDate(dayNumber: 0), to: CivilDate(dayNumber: 40_000), on: conn)
            #expect(rows.map(\.tally.opens) == [102, 5])
            let all = try OutcomeQuery().rows(appID: app, from: CivilDate(dayNumber: 0), to: CivilDate(dayNumber: 40_000), filter: SegmentFilter(includeTest: true), on: conn)
            #expect(all.map(\.tally.opens) == [102, 8])
        }
    }
}
