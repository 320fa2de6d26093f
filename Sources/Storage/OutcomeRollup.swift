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
        return try StorageError.mapping {
            try connection.execute("DELETE FROM daily_outcomes WHERE app_id = \(appID) AND day = \(day)::date")
            // One scan of the day's partition, each event with its segment, materialised once and
            // grouped three ways.
            let extra: PostgresQuery = """
                , m.menu_version, e.position::int4 AS position,
                width_bucket(e.latency_ms, \(LatencyHistogram.sqlThresholds)::int4[]) AS bucket
                """
            let rows = try connection.query("""
                WITH \(RollupSegments.events(appID: appID, day: day, extra: extra)), base AS MATERIALIZED (
                    SELECT s.segment_id, b.element_type_id, COALESCE(b.menu_version, '') AS menu_version,
                           b.command_id IS NULL AS dismissed, b.position, b.bucket
                    FROM event_segments b JOIN segs s ON s.priority = b.priority
                ), totals AS (
                    SELECT segment_id, element_type_id, menu_version, count(*) AS opens, count(*) FILTER (WHERE dismissed) AS dismissals
                    FROM base GROUP BY segment_id, element_type_id, menu_version
                ), positions AS (
                    SELECT segment_id, element_type_id, menu_version, array_agg(position ORDER BY position) AS positions,
                           array_agg(n ORDER BY position) AS counts
                    FROM (SELECT segment_id, element_type_id, menu_version, position, count(*) AS n FROM base
                          WHERE NOT dismissed AND position IS NOT NULL
                          GROUP BY segment_id, element_type_id, menu_version, position) AS p
                    GROUP BY segment_id, element_type_id, menu_version
                ), latencies AS (
                    SELECT segment_id, element_type_id, menu_version, array_agg(bucket ORDER BY bucket) AS buckets,
                           array_agg(n ORDER BY bucket) AS counts
                    FROM (SELECT segment_id, element_type_id, menu_version, bucket, count(*) AS n FROM base
                          WHERE NOT dismissed AND bucket IS NOT NULL
                          GROUP BY segment_id, element_type_id, menu_version, bucket) AS l
                    GROUP BY segment_id, element_type_id, menu_version
                ), written AS (
                    INSERT INTO daily_outcomes (app_id, day, segment_id, element_type_id, menu_version, opens, dismissals,
                                                positions, position_counts, latency_buckets, latency_counts)
                    SELECT \(appID), \(day)::date, t.segment_id, t.element_type_id, t.menu_version, t.opens, t.dismissals,
                           COALESCE(p.positions, '{}'), COALESCE(p.counts, '{}'),
                           COALESCE(l.buckets, '{}'), COALESCE(l.counts, '{}')
                    FROM totals t
                    LEFT JOIN positions p ON p.segment_id = t.segment_id AND p.element_type_id = t.element_type_id AND p.menu_version = t.menu_version
                    LEFT JOIN latencies l ON l.segment_id = t.segment_id AND l.element_type_id = t.element_type_id AND l.menu_version = t.menu_version
                    RETURNING 1
                )
                SELECT count(*) FROM written
                """)
            return try rows[0].decode(Int.self, at: 0)
        }
    }
}
