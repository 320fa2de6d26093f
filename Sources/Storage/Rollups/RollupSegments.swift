import CivilTime
import Postgres

/// The segments of an app's events as the rollups keep them (`segments`, sql/0014): the distinct
/// (is_test, platform name, app version) of its contexts, and the SQL that ranks them in the
/// order that user-days are attributed in (`RollupDay` maps each event to its segment).
///
/// Why an order: a person picking a command in two segments on one day (an upgrade mid-day, an
/// iPhone and an iPad) is one user-day, not two. Each segment row counts the day's people whose
/// first segment it is (for that command): non-test first, then the highest app version
/// (`version_key`, numbers compared as numbers), then platform name and version text. Summed over
/// any set of segments that is at most the exact count, and exactly it for the default (every
/// non-test segment), for every segment, and for the non-test segments of a version and above.
enum RollupSegments {
    /// A platform's name in SQL, as `SegmentFilter.platformName` computes it in Swift.
    static func platformName(_ column: String) -> String {
        "lower(substring(ltrim(\(column)) from '^[A-Za-z]*'))"
    }

    /// Adds the segments of the app's contexts that are not stored yet (and the segment of events
    /// without a context), with ids counted on from the app's highest. Runs under the app's rollup
    /// lock, which serialises the writers of an app's segments; after the rollup has taken its
    /// queue, so every event it must count has its context committed and thus its segment.
    static func ensure(appID: Int32, on connection: PostgresConnection) throws {
        try connection.execute("""
            INSERT INTO segments (app_id, segment_id, is_test, platform, app_version)
            SELECT \(appID), top.id + row_number() OVER (ORDER BY w.is_test, w.platform, w.app_version), w.is_test, w.platform,
                   w.app_version
            FROM (SELECT is_test, \(unsafeRaw: platformName("platform")) AS platform, app_version
                  FROM contexts WHERE app_id = \(appID)
                  UNION
                  SELECT false, '', '') AS w
            CROSS JOIN (SELECT COALESCE(max(segment_id), 0) AS id FROM segments WHERE app_id = \(appID)) AS top
            WHERE NOT EXISTS (SELECT 1 FROM segments s
                              WHERE s.app_id = \(appID) AND s.is_test = w.is_test AND s.platform = w.platform
                                AND s.app_version = w.app_version)
            """)
    }

    /// The CTE `segs (segment_id, is_test, platform, app_version, priority)`: the app's segments
    /// with their place in the attribution order (1 first).
    static func ranked(appID: Int32) -> PostgresQuery {
        """
        segs AS (
            SELECT segment_id, is_test, platform, app_version,
                   row_number() OVER (ORDER BY is_test, version_key DESC NULLS LAST, platform, app_version)::int4 AS priority
            FROM segments WHERE app_id = \(appID)
        )
        """
    }
}
