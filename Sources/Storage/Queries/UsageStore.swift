import CivilTime
public import Postgres
public import Ranking

/// What the admin API's usage dashboard reads from the rollups of one app (`GET /v1/admin/usage`):
/// the activities `Ranker` ranks (read by `RankingQuery`, exactly as `menurank rank` reads them),
/// each element type's selections and dismissals day by day, the commands the manifest declares,
/// the app's segments (for the filters) and the rollup backlog.
public struct UsageRead: Sendable {
    /// One per element type with use in the window or the previous one, by name.
    public var activities: [ElementTypeActivity]
    /// Per element type, its selections and dismissals on each day of the window (index 0 is the
    /// window's first day).
    public var daily: [String: (selections: [Int], dismissals: [Int])]
    /// The commands the app's newest manifest declares; nil when none was imported.
    public var declared: Set<String>?
    /// The app's segments (test flag, platform, app version), what the filters can pick from.
    public var segments: [SegmentStore.Segment]
    /// What the rollups did not count yet when the figures were read (empty once folded).
    public var backlog: RollupBacklog
    /// Events the reading counted by rolling up first.
    public var folded: Int
}

/// What the dashboard's overview of one app reads (`GET /v1/admin/usage?commands=false`): per
/// element type the figures the ranking gives it, without its commands (`RankingQuery.overview`),
/// plus what `UsageRead` carries beside its activities.
public struct UsageOverview: Sendable {
    /// One per element type with use in the window or the previous one, by name.
    public var elementTypes: [ElementTypeOverview]
    /// The commands the app's newest manifest declares; nil when none was imported.
    public var declared: Set<String>?
    /// The app's segments (test flag, platform, app version), what the filters can pick from.
    public var segments: [SegmentStore.Segment]
    /// What the rollups did not count yet when the figures were read (empty once folded).
    public var backlog: RollupBacklog
    /// Events the reading counted by rolling up first.
    public var folded: Int
}

/// Reads `UsageRead` and `UsageOverview` over a pool. Before reading, the app's rollup backlog is folded in (a rollup
/// of the queued days, as `recommend` does) when the queued days hold at most `foldLimit` stored
/// events, which bounds what a page waits for; a larger backlog is left to the nightly run and
/// reported instead (`UsageRead.backlog`).
public final class UsageStore: Sendable {
    private let pool: PostgresPool
    public let foldLimit: Int

    /// Fold a backlog whose days hold up to this many stored events (a rollup reads them all).
    public static let defaultFoldLimit = 200_000

    public init(pool: PostgresPool, foldLimit: Int = defaultFoldLimit) {
        self.pool = pool
        self.foldLimit = foldLimit
    }

    /// The usage of `appID` in `window` under `filter`, of `elementTypes` only when given.
    /// - Throws: `StorageError`.
    public func read(appID: Int32, window: RankingWindow, elementTypes: Set<String>? = nil,
                     filter: SegmentFilter = .default) throws(StorageError) -> UsageRead
    {
        let (read, backlog, folded) = try folded(appID: appID, filter: filter) { connection, segments, ids in
            let query = RankingQuery(appID: appID, window: window, elementTypes: elementTypes, includePrevious: true,
                                     segments: ids)
            return UsageRead(activities: try query.activities(on: connection),
                             daily: try Self.daily(query, on: connection),
                             declared: try Self.declaredCommands(appID: appID, on: connection),
                             segments: segments, backlog: .none, folded: 0)
        }
        var out = read
        out.backlog = backlog
        out.folded = folded
        return out
    }

    /// The overview of `appID`'s element types (`elementTypes` only, when given) in `window` under
    /// `filter`: per element type the figures the ranking gives it, without its commands
    /// (`RankingQuery.overview`), what the dashboard lists. Folds the backlog as `read` does.
    /// - Throws: `StorageError`.
    public func overview(appID: Int32, window: RankingWindow, elementTypes: Set<String>? = nil,
                         filter: SegmentFilter = .default) throws(StorageError) -> UsageOverview
    {
        let (read, backlog, folded) = try folded(appID: appID, filter: filter) { connection, segments, ids in
            let query = RankingQuery(appID: appID, window: window, elementTypes: elementTypes, segments: ids)
            let declared = try Self.declaredCommands(appID: appID, on: connection)
            return UsageOverview(elementTypes: try query.overview(declared: declared, on: connection), declared: declared,
                                 segments: segments, backlog: .none, folded: 0)
        }
        var out = read
        out.backlog = backlog
        out.folded = folded
        return out
    }

    /// Folds the app's backlog when it is small enough (see the type), for a reader of the rollups
    /// as they are (`GET /v1/admin/outcomes`). Returns the backlog left and the events folded.
    /// - Throws: `StorageError`.
    public func fold(appID: Int32) throws(StorageError) -> (backlog: RollupBacklog, folded: Int) {
        try StorageError.mapping { try pool.withConnection { try fold(appID: appID, on: $0) } }
    }

    /// The app's backlog and last rollup time as they are, folding nothing (a proposal's page:
    /// its figures are those of its night whatever is pending).
    /// - Throws: `StorageError`.
    public func backlog(appID: Int32) throws(StorageError) -> RollupBacklog {
        try StorageError.mapping { try pool.withConnection { try RollupBacklog.read(appID: appID, on: $0) } }
    }

    private func fold(appID: Int32, on connection: PostgresConnection) throws -> (backlog: RollupBacklog, folded: Int) {
        var backlog = try RollupBacklog.read(appID: appID, on: connection)
        var folded = 0
        if !backlog.isEmpty, backlog.storedEvents <= foldLimit {
            _ = try RollupStore().rollUp(appID: appID, on: connection)
            folded = backlog.uncountedEvents
            backlog = try RollupBacklog.read(appID: appID, on: connection)
        }
        return (backlog, folded)
    }

    /// Folds the app's backlog when it is small enough (see the type), then runs `body` in one
    /// REPEATABLE READ, READ ONLY transaction with the app's segments and the ids of those
    /// `filter` picks (nil for the default rollups). Returns its result, the backlog left and the
    /// events folded.
    private func folded<T>(appID: Int32, filter: SegmentFilter,
                           _ body: (PostgresConnection, [SegmentStore.Segment], [Int32]?) throws -> T) throws(StorageError)
        -> (T, RollupBacklog, Int)
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                let (backlog, folded) = try fold(appID: appID, on: connection)
                let result = try connection.withTransaction { connection in
                    try connection.execute(unsafeSQL: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    let segments = try SegmentStore().segments(appID: appID, on: connection)
                    let ids: [Int32]? = filter.isDefault ? nil : segments
                        .filter { filter.matches(isTest: $0.isTest, platform: $0.platform, appVersion: $0.appVersion) }
                        .map { $0.id }
                    return try body(connection, segments, ids)
                }
                return (result, backlog, folded)
            }
        }
    }

    /// Each element type's selections and dismissals per day of the window, from the element type
    /// rollups (`daily_element_usage`, or the chosen segments' rows summed); of the query's element
    /// types only when it names some (an element type's page reads its own rows, not the app's).
    static func daily(_ query: RankingQuery, on connection: PostgresConnection) throws
        -> [String: (selections: [Int], dismissals: [Int])]
    {
        let window = query.window
        let from = window.firstDay, to = window.asOf
        let names = try query.names(table: "element_types", id: "element_type_id", on: connection)
        var only = PostgresQuery(unsafeSQL: "")
        if let wanted = query.elementTypes {
            let ids = names.filter { wanted.contains($0.value) }.map { $0.key }.sorted()
            guard !ids.isEmpty else { return [:] }
            only = " AND element_type_id = ANY(\(ids))"
        }
        var sql: PostgresQuery
        if let segments = query.segments {
            sql = """
                SELECT element_type_id, (day - DATE '1970-01-01')::int4 AS day_number, sum(selections)::bigint AS selections,
                       sum(dismissals)::bigint AS dismissals
                FROM segment_element_usage
                WHERE app_id = \(query.appID) AND day BETWEEN \(from) AND \(to) AND segment_id = ANY(\(segments))\(only)
                GROUP BY 1, 2
                """
        } else {
            sql = """
                SELECT element_type_id, (day - DATE '1970-01-01')::int4 AS day_number, selections, dismissals
                FROM daily_element_usage WHERE app_id = \(query.appID) AND day BETWEEN \(from) AND \(to)\(only)
                """
        }
        var out: [String: (selections: [Int], dismissals: [Int])] = [:]
        let empty = [Int](repeating: 0, count: window.length)
        for row in try connection.query(sql) {
            guard let name = names[try row.decode(Int32.self, column: "element_type_id")] else { continue }
            let index = Int(try row.decode(Int32.self, column: "day_number")) - from.dayNumber
            guard (0..<window.length).contains(index) else { continue }
            out[name, default: (empty, empty)].selections[index] += try row.decode(Int.self, column: "selections")
            out[name, default: (empty, empty)].dismissals[index] += try row.decode(Int.self, column: "dismissals")
        }
        return out
    }

    /// The commands the app's newest manifest declares (`menu_commands`); nil without a manifest.
    /// - Throws: `StorageError`.
    public static func declaredCommands(appID: Int32, on connection: PostgresConnection) throws(StorageError) -> Set<String>? {
        try StorageError.mapping { try declared(appID: appID, on: connection) }
    }

    private static func declared(appID: Int32, on connection: PostgresConnection) throws -> Set<String>? {
        let commands = try connection.query("SELECT command FROM menu_commands WHERE app_id = \(appID)")
            .map { try $0.decode(String.self, column: "command") }
        if !commands.isEmpty { return Set(commands) }
        let manifests: Int = try connection.query("SELECT count(*) AS manifests FROM manifests WHERE app_id = \(appID)")[0]
            .decode(column: "manifests")
        return manifests == 0 ? nil : []
    }
}
