public import CivilTime
public import Postgres

/// What the rollups of an app do not count yet: the days queued in `rollup_queue` and how many of
/// their stored events the rollups are missing (the day's stored events minus those its rollup
/// rows count, over every segment, test events included).
///
/// Readers that answer from the rollups either fold the backlog first (`RollupStore.rollUp`, as
/// `recommend`, `rank`, `outcomes` and `report` do) or say how much of it there is, so no figure
/// is stale without a word and nothing reports "no use" while use is stored.
public struct RollupBacklog: Sendable, Hashable {
    /// The queued days, ascending.
    public var days: [CivilDate]
    /// Events stored on the queued days (what a rollup of them would read).
    public var storedEvents: Int
    /// Events stored on the queued days that the rollups do not count yet.
    public var uncountedEvents: Int
    /// When the app's last rollup took its queued days (sql/0023 `rollup_times`): the rollups
    /// count every event stored before it. Nil when the app was never rolled up (since 0023).
    public var rolledUpAt: UTCTimestamp?

    public init(days: [CivilDate], storedEvents: Int, uncountedEvents: Int, rolledUpAt: UTCTimestamp? = nil) {
        self.days = days
        self.storedEvents = storedEvents
        self.uncountedEvents = uncountedEvents
        self.rolledUpAt = rolledUpAt
    }

    public static let none = RollupBacklog(days: [], storedEvents: 0, uncountedEvents: 0)

    public var isEmpty: Bool { days.isEmpty }

    /// The backlog of one app now. A queued day costs one count of its stored events and one sum
    /// of its rollup rows; with nothing queued, one look at the queue.
    /// - Throws: `StorageError`.
    public static func read(appID: Int32, on connection: PostgresConnection) throws(StorageError) -> RollupBacklog {
        try StorageError.mapping {
            let rolledUpAt: UTCTimestamp? = try connection.query("""
                SELECT rolled_up_at FROM rollup_times WHERE app_id = \(appID)
                """).first.map { try $0.decode(column: "rolled_up_at") }
            let days = try connection.query("""
                SELECT DISTINCT day FROM rollup_queue WHERE app_id = \(appID) ORDER BY 1
                """).map { try $0.decode(CivilDate.self, column: "day") }
            guard !days.isEmpty else { return RollupBacklog(days: [], storedEvents: 0, uncountedEvents: 0, rolledUpAt: rolledUpAt) }
            let stored: Int = try connection.query("""
                SELECT count(*) AS stored FROM events WHERE app_id = \(appID) AND day = ANY(\(days)::date[])
                """)[0].decode(column: "stored")
            let counted: Int = try connection.query("""
                SELECT coalesce(sum(selections + dismissals), 0)::bigint AS counted FROM segment_element_usage
                WHERE app_id = \(appID) AND day = ANY(\(days)::date[])
                """)[0].decode(column: "counted")
            return RollupBacklog(days: days, storedEvents: stored, uncountedEvents: max(0, stored - counted), rolledUpAt: rolledUpAt)
        }
    }
}
