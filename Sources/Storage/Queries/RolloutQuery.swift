public import CivilTime
public import Experiments
import Outcomes
public import Postgres

/// Reads what a rollout's comparison needs: per person, day and arm, what the events of the
/// rollout's element type with either arm's `menu_version` add up to (`PersonTally`), from the
/// events themselves, over the time the current share has held.
///
/// Why the events and not the outcome rollups: the rollups sum each day's events per menu version,
/// so they can say how many events each arm had, not how they spread over people; and people, not
/// events, are what a rollout randomizes, so every variance of the comparison is over people. The
/// read is one grouped scan of the rollout's days (its element type and two menu versions, test
/// events left out), a cost that follows the rollout's traffic and runs once a night per running
/// rollout. Events without a `user` count as one person each, as everywhere in menurank.
public struct RolloutQuery: Sendable {
    /// Where "now" comes from: the end of a running rollout's comparison.
    let clock: WallClock

    public init(clock: WallClock = .system) {
        self.clock = clock
    }

    /// The observations of `rollout` from its `share_since` to its end (or `until`, now by `clock`
    /// when nil).
    public func observations(of rollout: RolloutRecord, until: UTCTimestamp? = nil, on connection: PostgresConnection)
        throws(StorageError) -> [ExperimentObservation]
    {
        let from = rollout.shareSince
        let to = rollout.endedAt ?? until ?? clock.now()
        guard to > from else { return [] }
        return try StorageError.mapping {
            var out: [ExperimentObservation] = []
            for row in try connection.query("""
                SELECT e.day::text AS day, c.menu_version AS menu_version,
                       COALESCE(e.user_hash, hashtextextended(e.event_id::text, 0)) AS person,
                       count(*) AS opens, count(*) FILTER (WHERE e.command_id IS NULL) AS dismissals,
                       count(e.position) FILTER (WHERE e.command_id IS NOT NULL) AS positioned,
                       COALESCE(sum(e.position + 1) FILTER (WHERE e.command_id IS NOT NULL), 0) AS depth_sum,
                       COALESCE(array_to_string(array_agg(e.latency_ms)
                                FILTER (WHERE e.command_id IS NOT NULL AND e.latency_ms IS NOT NULL), ','), '') AS latencies
                FROM events e
                JOIN contexts c ON c.app_id = e.app_id AND c.context_id = e.context_id
                JOIN element_types t ON t.app_id = e.app_id AND t.element_type_id = e.element_type_id
                WHERE e.app_id = \(rollout.appID) AND t.name = \(rollout.elementType)
                  AND e.day BETWEEN \(from.day) AND \(to.day)
                  AND e.time >= \(from) AND e.time < \(to)
                  AND c.menu_version IN (\(rollout.baseMenuVersion), \(rollout.menuVersion)) AND NOT c.is_test
                GROUP BY 1, 2, 3
                ORDER BY 1
                """)
            {
                let dayText: String = try row.decode(column: "day")
                guard let day = CivilDate(parsing: dayText) else {
                    throw StorageError(.database, "events hold an unreadable day \(dayText)")
                }
                let version: String = try row.decode(column: "menu_version")
                let latencies: String = try row.decode(column: "latencies")
                let tally = PersonTally(
                    opens: try row.decode(column: "opens"), dismissals: try row.decode(column: "dismissals"),
                    positioned: try row.decode(column: "positioned"), depthSum: try row.decode(column: "depth_sum"),
                    latencyBuckets: latencies.split(separator: ",").compactMap { Int($0) }
                        .map { UInt16(LatencyHistogram.bucket(of: $0)) })
                out.append(ExperimentObservation(day: day, arm: version == rollout.menuVersion ? .new : .old,
                                                 person: try row.decode(column: "person"), tally: tally))
            }
            return out
        }
    }

    /// The comparison of a rollout's arms: one look per day since its share was set
    /// (`RolloutExperiment` over `observations(of:)`).
    public func looks(of rollout: RolloutRecord, on connection: PostgresConnection) throws(StorageError) -> [ExperimentLook] {
        RolloutExperiment(share: rollout.share).looks(try observations(of: rollout, on: connection))
    }
}
