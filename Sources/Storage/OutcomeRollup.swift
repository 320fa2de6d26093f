import CivilTime
public import Outcomes
public import Postgres

/// Maintains the daily outcome rollups (`daily_outcomes`, sql/0011) from `events`: per app, day,
/// element type, menu version as the events sent it and segment (test flag, platform name, app
/// version; sql/0014, `RollupSegments`), the opens, dismissals, selections by position and the
/// selection latency histogram (`LatencyHistogram`). All of them add up across segments, so a
/// reading sums the segments its filter picks (`OutcomeQuery`).
///
/// It runs inside `RollupStore.rollUp`, in the same transaction and for the same queued days as the
/// usage rollups, so the argument that makes those exact under concurrent ingestion holds here word
/// for word (a day is recomputed wholly from its events; an event committed after the queue was
/// read leaves its queue row behind, so its day is recomputed again by the next rollup), a late
/// event re-queues its own day, and one `rollup` pass does both at a cost that follows the new days.
///
/// An event's menu version is its context's (`contexts.menu_version`, '' when it sent none); it is
/// kept as text and matched to the layouts when read (`OutcomeQuery`), so a version unknown today
/// is still counted and becomes known if a layout with that version is stored later.
public struct OutcomeRollup: Sendable {
    public init() {}

    /// Replaces the outcome rows of one day (`YYYY-MM-DD`) by a fresh count of its events; returns
    /// the rows written. Call it inside the rollup's transaction.
    public func recompute(appID: Int32, day: String, on connection: PostgresConnection) throws(StorageError) -> Int {
        guard CivilDate(parsing: day) != nil else { throw StorageError(.invalidArgument, "not a day (YYYY-MM-DD): \(day)") }
        return try StorageError.mapping {
            try connection.execute("DELETE FROM daily_outcomes WHERE app_id = \(appID) AND day = \(day)::date")
            return try insert(appID: appID, day: day, on: connection)
        }
    }

    /// `recompute` without its DELETE: writes the day's outcome rows, which the caller has deleted
    /// (`RollupStore` deletes all of a day's rollup rows in one round trip).
    func insert(appID: Int32, day: String, on connection: PostgresConnection) throws(StorageError) -> Int {
        guard CivilDate(parsing: day) != nil else { throw StorageError(.invalidArgument, "not a day (YYYY-MM-DD): \(day)") }
        return try StorageError.mapping {
            // One scan of the day's partition, grouped once on integer keys: each event's context
            // maps (by a hash join with the app's few contexts) to the integer `key` of its segment
            // and menu version, and the events are grouped by key and element type, keeping the
            // positions and latencies of the selections as arrays. Each group's histograms are then
            // counted from its own arrays (a few hundred values), so no step after the scan sorts
            // or hashes the day's events on text. Before: the events were joined to their segment
            // and menu version row by row, materialised with the text, and grouped three ways
            // (by position and by latency bucket with sorts on the text key), about 1.6 times the
            // CPU time for the same rows.
            let rows = try connection.query("""
                WITH \(RollupSegments.ranked(appID: appID)), context_keys AS MATERIALIZED (
                    SELECT context_id, segment_id, menu_version,
                           CASE WHEN segment_id IS NOT NULL
                                THEN dense_rank() OVER (ORDER BY segment_id, menu_version)::int4 END AS key
                    FROM (SELECT c.context_id, s.segment_id, c.menu_version
                          FROM contexts c
                          LEFT JOIN segs s ON s.is_test = c.is_test AND s.platform = \(unsafeRaw: RollupSegments.platformName("c.platform"))
                                          AND s.app_version = c.app_version
                          WHERE c.app_id = \(appID)
                          UNION ALL
                          SELECT NULL, segment_id, '' FROM segs WHERE NOT is_test AND platform = '' AND app_version = '') AS k
                ), grouped AS (
                    SELECT x.key, x.element_type_id, count(*) AS opens, count(*) FILTER (WHERE x.dismissed) AS dismissals,
                           array_agg(x.position) FILTER (WHERE NOT x.dismissed AND x.position IS NOT NULL) AS positions,
                           array_agg(x.latency_ms) FILTER (WHERE NOT x.dismissed AND x.latency_ms IS NOT NULL) AS latencies
                    FROM (SELECT CASE WHEN k.context_id IS NULL THEN (SELECT key FROM context_keys WHERE context_id IS NULL)
                                      ELSE k.key END AS key,
                                 e.element_type_id, e.command_id IS NULL AS dismissed, e.position::int4 AS position, e.latency_ms
                          FROM events e
                          LEFT JOIN context_keys k ON k.context_id = e.context_id
                          WHERE e.app_id = \(appID) AND e.day = \(RollupSegments.partitionDay(day))) AS x
                    WHERE x.key IS NOT NULL
                    GROUP BY x.key, x.element_type_id
                ), written AS (
                    INSERT INTO daily_outcomes (app_id, day, segment_id, element_type_id, menu_version, opens, dismissals,
                                                positions, position_counts, latency_buckets, latency_counts)
                    SELECT \(appID), \(day)::date, k.segment_id, g.element_type_id, k.menu_version, g.opens, g.dismissals,
                           COALESCE(p.positions, '{}'), COALESCE(p.counts, '{}'), COALESCE(l.buckets, '{}'), COALESCE(l.counts, '{}')
                    FROM grouped g
                    JOIN (SELECT DISTINCT key, segment_id, menu_version FROM context_keys WHERE key IS NOT NULL) k ON k.key = g.key
                    CROSS JOIN LATERAL (
                        SELECT array_agg(position ORDER BY position) AS positions, array_agg(n ORDER BY position) AS counts
                        FROM (SELECT position, count(*) AS n FROM unnest(g.positions) AS position GROUP BY position) AS h
                    ) AS p
                    CROSS JOIN LATERAL (
                        SELECT array_agg(bucket ORDER BY bucket) AS buckets, array_agg(n ORDER BY bucket) AS counts
                        FROM (SELECT width_bucket(latency, \(LatencyHistogram.sqlThresholds)::int4[]) AS bucket, count(*) AS n
                              FROM unnest(g.latencies) AS latency GROUP BY 1) AS h
                    ) AS l
                    RETURNING 1
                )
                SELECT count(*) FROM written
                """)
            return try rows[0].decode(Int.self, at: 0)
        }
    }
}
