import Outcomes
import Postgres
import Storage
import Testing
import TestSupport

/// The rollup (events counted outside the executor, `RollupDay`) against an oracle: plain SQL
/// `GROUP BY`s over the same events, written from the definitions (sql/0009, 0011, 0014), row for
/// row and sketch by bytes, for every table a day's rollup writes. Generated days with several
/// segments (platforms, versions, testers, events without a context), dismissals, events without
/// a user, several menu versions, positions and latencies (some missing), groups small and large.
@Suite(TestDatabase.enabled) struct DayRollupOracleTests {
    /// Each event with its person, segment (id, place in the attribution order, test flag) and
    /// menu version, as a FROM item named `ev`.
    static func events(app: Int32) -> String {
        """
        (SELECT e.day, e.element_type_id, e.command_id, e.position, e.latency_ms,
                COALESCE(e.user_hash, ('x' || translate(left(e.event_id::text, 18), '-', ''))::bit(64)::bigint) AS person,
                s.segment_id, s.priority, s.is_test, COALESCE(c.menu_version, '') AS menu_version
         FROM events e
         LEFT JOIN contexts c ON c.app_id = e.app_id AND c.context_id = e.context_id
         JOIN (SELECT segment_id, is_test, platform, app_version,
                      row_number() OVER (ORDER BY is_test, version_key DESC NULLS LAST, platform, app_version) AS priority
               FROM segments WHERE app_id = \(app)) s
           ON s.is_test = COALESCE(c.is_test, false) AND s.app_version = COALESCE(c.app_version, '')
          AND s.platform = COALESCE(lower(substring(ltrim(c.platform) from '^[A-Za-z]*')), '')
         WHERE e.app_id = \(app)) AS ev
        """
    }

    /// Inserts `count` events of one element type in one context, with people drawn from `users`
    /// (every `withoutUser`-th without a user), every `dismissEvery`-th a dismissal, and positions
    /// and latencies, some missing.
    static func insert(app: Int32, day: String, elementType: Int32, commands: [Int32], context: Int32?, count: Int,
                       users: Int, seed: Int, withoutUser: Int = 9, dismissEvery: Int = 11, on conn: PostgresConnection) throws
    {
        try TestDatabase.ensureEventPartitions(through: day, on: conn)
        try conn.execute("""
            INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id, context_id, position,
                                latency_ms)
            SELECT \(app), \(day)::date, \(day)::date + interval '9 hours',
                   CASE WHEN g % \(withoutUser) <> 0 THEN (g * 7919 + \(seed)) % \(users) - \(users / 2) END,
                   gen_random_uuid(), \(elementType),
                   CASE WHEN g % \(dismissEvery) <> 0 THEN (\(commands)::int4[])[1 + (g * 31 + \(seed)) % \(commands.count)] END,
                   \(context), CASE WHEN g % 5 <> 0 THEN (g % 13)::int2 END,
                   CASE WHEN g % 6 <> 0 THEN ((g * 7877 + \(seed)) % 40000)::int4 - 5 END
            FROM generate_series(1, \(count)) g
            """)
        try conn.execute("INSERT INTO rollup_queue (app_id, day) VALUES (\(app), \(day)::date)")
    }

    /// Read in one COPY, and (`halves`) in two halves at once on two connections in one snapshot,
    /// even days this small (`splitFromPages: 1`); on Citus always in one (its workers do not know
    /// the coordinator's snapshots).
    @Test(arguments: [false, true]) func everyTableEqualsTheOracle(halves: Bool) throws {
        try TestDatabase.withSchema(prefix: "oracle") { schema in
            let conn = try schema.connect()
            try LayoutFixtures.migrate(conn)
            let app = try LayoutFixtures.createApp("mail", on: conn)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            let folder = try LayoutFixtures.id("mail.folder", in: "element_types", app: app, on: conn)
            let commands = try ["reply", "forward", "archive", "delete", "flag"].map {
                try LayoutFixtures.id($0, in: "commands", app: app, on: conn)
            }
            let ios49 = try LayoutFixtures.context(app: app, platform: "iOS 18.1", appVersion: "4.9", menuVersion: "1", on: conn)
            let ios410 = try LayoutFixtures.context(app: app, platform: "iOS 18.2", appVersion: "4.10", menuVersion: "2", on: conn)
            let ios410old = try LayoutFixtures.context(app: app, platform: "iOS 18.2", appVersion: "4.10", menuVersion: "1",
                                                       on: conn)
            let android = try LayoutFixtures.context(app: app, platform: "Android 14", appVersion: "4.10", menuVersion: "2",
                                                     on: conn)
            let tester = try LayoutFixtures.context(app: app, isTest: true, platform: "iOS 18.2", appVersion: "5.0",
                                                    menuVersion: "2", on: conn)
            for (offset, day) in ["2026-11-28", "2026-11-29"].enumerated() {
                let s = offset * 1000
                try Self.insert(app: app, day: day, elementType: message, commands: commands, context: ios49, count: 9_000,
                                users: 4_000, seed: s + 1, on: conn)
                try Self.insert(app: app, day: day, elementType: message, commands: commands, context: ios410, count: 3_000,
                                users: 900, seed: s + 2, on: conn)
                try Self.insert(app: app, day: day, elementType: message, commands: Array(commands[0..<2]), context: ios410old,
                                count: 400, users: 300, seed: s + 3, on: conn)
                try Self.insert(app: app, day: day, elementType: message, commands: commands, context: android, count: 700,
                                users: 150, seed: s + 4, withoutUser: 4, on: conn)
                try Self.insert(app: app, day: day, elementType: message, commands: commands, context: tester, count: 500,
                                users: 600, seed: s + 5, dismissEvery: 3, on: conn)
                try Self.insert(app: app, day: day, elementType: message, commands: [commands[4]], context: nil, count: 60,
                                users: 40, seed: s + 6, on: conn)
                try Self.insert(app: app, day: day, elementType: folder, commands: [commands[2]], context: tester, count: 30,
                                users: 20, seed: s + 7, on: conn)
                try Self.insert(app: app, day: day, elementType: folder, commands: [commands[3]], context: ios49, count: 170,
                                users: 165, seed: s + 8, withoutUser: 1_000, dismissEvery: 1_000, on: conn)
            }
            let helper = halves ? try schema.connect() : nil
            let outcome = try RollupStore(splitFromPages: 1).rollUp(appID: app, on: conn, alongside: helper)
            #expect(outcome.days.count == 2)
            #expect(outcome.daysReadInHalves == (halves && !TestDatabase.distributed ? 2 : 0))
            try Self.compare(app: app, on: conn)
        }
    }

    /// Every table of the app's rolled-up days against the oracle.
    static func compare(app: Int32, on conn: PostgresConnection) throws {
        let ev = events(app: app)
        func rows(_ sql: String) throws -> [String] {
            try conn.query(PostgresQuery(unsafeSQL: sql)).map { row in
                try (0..<row.columns.count).map { try row.decode(String?.self, at: $0) ?? "NULL" }.joined(separator: " | ")
            }
        }
        func check(_ table: String, expected: String, actual: String) throws {
            let want = try rows(expected)
            let got = try rows(actual)
            #expect(!want.isEmpty, "\(table): the oracle has rows")
            #expect(want.count == got.count, "\(table): \(got.count) rows, expected \(want.count)")
            for (w, g) in zip(want, got) where w != g {
                Issue.record("\(table): \(g)\n expected \(w)")
                break
            }
        }
        let sketch = "hll_add_agg(hll_hash_bigint(person))::text"
        try check("segment_command_usage", expected: """
            SELECT ev.day::text, ev.segment_id::text, ev.element_type_id::text, ev.command_id::text, count(*)::text,
                   (SELECT count(*) FROM (SELECT person, min(priority) AS first FROM \(ev.replacingOccurrences(of: ") AS ev", with: ") AS f"))
                                          WHERE f.day = ev.day AND f.element_type_id = ev.element_type_id
                                            AND f.command_id = ev.command_id GROUP BY person) AS p
                    WHERE p.first = ev.priority)::text, \(sketch)
            FROM \(ev) WHERE ev.command_id IS NOT NULL
            GROUP BY ev.day, ev.segment_id, ev.priority, ev.element_type_id, ev.command_id ORDER BY 1, 2, 3, 4
            """, actual: """
            SELECT day::text, segment_id::text, element_type_id::text, command_id::text, selections::text, user_days::text,
                   users::text
            FROM segment_command_usage WHERE app_id = \(app) ORDER BY 1, 2, 3, 4
            """)
        try check("daily_command_usage", expected: """
            SELECT day::text, element_type_id::text, command_id::text, count(*)::text, count(DISTINCT person)::text, \(sketch)
            FROM \(ev) WHERE command_id IS NOT NULL AND NOT is_test GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            """, actual: """
            SELECT day::text, element_type_id::text, command_id::text, selections::text, user_days::text, users::text
            FROM daily_command_usage WHERE app_id = \(app) ORDER BY 1, 2, 3
            """)
        try check("segment_element_usage", expected: """
            SELECT day::text, segment_id::text, element_type_id::text, count(command_id)::text,
                   (count(*) - count(command_id))::text, \(sketch)
            FROM \(ev) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            """, actual: """
            SELECT day::text, segment_id::text, element_type_id::text, selections::text, dismissals::text, users::text
            FROM segment_element_usage WHERE app_id = \(app) ORDER BY 1, 2, 3
            """)
        try check("daily_element_usage", expected: """
            SELECT day::text, element_type_id::text, count(command_id)::text, (count(*) - count(command_id))::text, \(sketch)
            FROM \(ev) WHERE NOT is_test GROUP BY 1, 2 ORDER BY 1, 2
            """, actual: """
            SELECT day::text, element_type_id::text, selections::text, dismissals::text, users::text
            FROM daily_element_usage WHERE app_id = \(app) ORDER BY 1, 2
            """)
        try check("daily_outcomes", expected: """
            SELECT day::text, segment_id::text, element_type_id::text, menu_version, count(*)::text,
                   count(*) FILTER (WHERE command_id IS NULL)::text
            FROM \(ev) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
            """, actual: """
            SELECT day::text, segment_id::text, element_type_id::text, menu_version, opens::text, dismissals::text
            FROM daily_outcomes WHERE app_id = \(app) ORDER BY 1, 2, 3, 4
            """)
        try check("daily_outcomes positions", expected: """
            SELECT day::text, segment_id::text, element_type_id::text, menu_version, position::text, count(*)::text
            FROM \(ev) WHERE command_id IS NOT NULL AND position IS NOT NULL GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
            """, actual: """
            SELECT day::text, segment_id::text, element_type_id::text, menu_version, p::text, n::text
            FROM daily_outcomes, unnest(positions, position_counts) AS h(p, n)
            WHERE app_id = \(app) ORDER BY 1, 2, 3, 4, 5
            """)
        let thresholds = "'{" + LatencyHistogram.sqlThresholds.map(String.init).joined(separator: ",") + "}'::int4[]"
        try check("daily_outcomes latencies", expected: """
            SELECT day::text, segment_id::text, element_type_id::text, menu_version, width_bucket(latency_ms, \(thresholds))::text,
                   count(*)::text
            FROM \(ev) WHERE command_id IS NOT NULL AND latency_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
            """, actual: """
            SELECT day::text, segment_id::text, element_type_id::text, menu_version, b::text, n::text
            FROM daily_outcomes, unnest(latency_buckets, latency_counts) AS h(b, n)
            WHERE app_id = \(app) ORDER BY 1, 2, 3, 4, 5
            """)
        // Histogram arrays are stored ascending, with no empty entries.
        #expect(try rows("""
            SELECT 1 FROM daily_outcomes WHERE app_id = \(app)
              AND (positions <> ARRAY(SELECT unnest(positions) ORDER BY 1) OR latency_buckets <> ARRAY(SELECT unnest(latency_buckets) ORDER BY 1)
                   OR 0 = ANY(position_counts) OR 0 = ANY(latency_counts))
            """).isEmpty)
    }
}
