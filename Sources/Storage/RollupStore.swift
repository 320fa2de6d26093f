public import Postgres

/// Maintains the daily rollups (`daily_command_usage`, `daily_element_usage`) from `events`.
///
/// Incremental and exact, also while ingestion runs. Ingestion appends `(app_id, day)` to
/// `rollup_queue` in the same transaction as the events. A rollup of an app runs in one transaction
/// under an advisory lock of that app (rollups of one app never overlap):
///
/// 1. `DELETE FROM rollup_queue WHERE app_id = $1 RETURNING day` takes the queued days;
/// 2. each of those days is recomputed wholly from `events`: its rollup rows are deleted and
///    written again by one `INSERT … SELECT` that reads the day's partition once.
///
/// Why nothing is counted twice or missed: the queue rows step 1 sees were committed together with
/// their events, and every later statement of the transaction takes a newer snapshot (READ
/// COMMITTED), so step 2 sees at least those events. Events committed after step 1 may be counted
/// in step 2 as well, but their queue rows stay behind, so the next rollup recomputes their day
/// again, replacing the rows rather than adding to them. A late event re-queues its own day.
///
/// Distinct users are `hll` sketches (`hll_add_agg(hll_hash_bigint(user_hash))`), which a window
/// unions without reading events again; a dismissal is an event whose `command_id` is NULL.
/// Days are `date` values bound as `YYYY-MM-DD` text (UTC days, never the session time zone), and
/// no statement calls a volatile function, so the statements stay valid on Citus.
public struct RollupStore: Sendable {
    /// The first key of the advisory lock taken per app (`pg_advisory_xact_lock(key, app_id)`).
    public static let lockKey: Int32 = 0x6D72_6F6C

    public init() {}

    /// Rolls up what was queued for one app since its last rollup, in one transaction.
    /// - Throws: `PostgresError`.
    public func rollUp(appID: Int32, on connection: PostgresConnection) throws -> RollupOutcome {
        try connection.withTransaction { connection in
            try connection.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey), \(appID))")
            let queued = try connection.query("""
                WITH taken AS (DELETE FROM rollup_queue WHERE app_id = \(appID) RETURNING day)
                SELECT DISTINCT day::text FROM taken ORDER BY 1
                """)
            var outcome = RollupOutcome(appID: appID, days: [], commandRows: 0, elementRows: 0)
            for row in queued {
                let text: String = try row.decode(at: 0)
                guard let day = RankingDay.index(text) else {
                    throw PostgresError(kind: .decoding, message: "rollup_queue holds an unreadable day \(text)")
                }
                let counts = try recompute(appID: appID, day: text, on: connection)
                outcome.days.append(day)
                outcome.commandRows += counts.commands
                outcome.elementRows += counts.elements
            }
            return outcome
        }
    }

    /// Rolls up every app with queued days, one transaction per app, in app id order.
    public func rollUpAll(on connection: PostgresConnection) throws -> [RollupOutcome] {
        let apps = try connection.query("SELECT DISTINCT app_id FROM rollup_queue ORDER BY app_id")
            .map { try $0.decode(Int32.self, at: 0) }
        return try apps.map { try rollUp(appID: $0, on: connection) }
    }

    /// Replaces the rollup rows of one day by a fresh count of its events. One scan of the day's
    /// partition feeds both tables: events grouped by element type and command (the NULL command
    /// being the dismissals), then the element type rows summed from those groups.
    private func recompute(appID: Int32, day: String, on connection: PostgresConnection) throws
        -> (commands: Int, elements: Int)
    {
        try connection.execute("DELETE FROM daily_command_usage WHERE app_id = \(appID) AND day = \(day)::date")
        try connection.execute("DELETE FROM daily_element_usage WHERE app_id = \(appID) AND day = \(day)::date")
        let rows = try connection.query("""
            WITH counted AS (
                SELECT element_type_id, command_id, count(*) AS n,
                       hll_add_agg(hll_hash_bigint(user_hash)) AS users
                FROM events
                WHERE app_id = \(appID) AND day = \(day)::date
                GROUP BY element_type_id, command_id
            ), commands AS (
                INSERT INTO daily_command_usage (app_id, day, element_type_id, command_id, selections, users)
                SELECT \(appID), \(day)::date, element_type_id, command_id, n, COALESCE(users, hll_empty())
                FROM counted WHERE command_id IS NOT NULL
                RETURNING 1
            ), elements AS (
                INSERT INTO daily_element_usage (app_id, day, element_type_id, selections, dismissals, users)
                SELECT \(appID), \(day)::date, element_type_id,
                       COALESCE(sum(n) FILTER (WHERE command_id IS NOT NULL), 0)::bigint,
                       COALESCE(sum(n) FILTER (WHERE command_id IS NULL), 0)::bigint,
                       COALESCE(hll_union_agg(users), hll_empty())
                FROM counted GROUP BY element_type_id
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM commands), (SELECT count(*) FROM elements)
            """)
        return (try rows[0].decode(Int.self, at: 0), try rows[0].decode(Int.self, at: 1))
    }
}
