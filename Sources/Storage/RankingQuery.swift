public import Postgres
public import Ranking

/// Reads what `Ranker` needs from the daily rollups of one app: per element type and command the
/// selections of the window (and of the previous window, for trends), distinct users as the union
/// of the days' `hll` sketches, and per element type its dismissals and users.
///
/// Without decay the window's days are summed in SQL and handed over as one row on the window's
/// last day (and the previous window's as one row on its last day), which ranks exactly like the
/// daily rows and moves a few rows per command instead of one per command and day. With a
/// half-life the daily rows of the window are read as they are, since each day has its own weight.
public struct RankingQuery: Sendable {
    public var appID: Int32
    public var window: RankingWindow
    /// Only these element types (by name); nil for all of them.
    public var elementTypes: Set<String>?
    /// Whether to read the previous window too (trends). `recommend` does not need it.
    public var includePrevious: Bool

    public init(appID: Int32, window: RankingWindow, elementTypes: Set<String>? = nil, includePrevious: Bool = true) {
        self.appID = appID
        self.window = window
        self.elementTypes = elementTypes
        self.includePrevious = includePrevious
    }

    /// One activity per element type with selections, dismissals or users in the window (or
    /// selections in the previous one), sorted by element type name.
    /// - Throws: `PostgresError`.
    public func activities(on connection: PostgresConnection) throws -> [ElementTypeActivity] {
        let elementNames = try names(table: "element_types", id: "element_type_id", on: connection)
        let commandNames = try names(table: "commands", id: "command_id", on: connection)
        var wantedIDs: [Int32]?
        if let elementTypes {
            wantedIDs = elementNames.filter { elementTypes.contains($0.value) }.map(\.key).sorted()
            if wantedIDs!.isEmpty { return [] }
        }
        let from = RankingDay.text(window.firstDay)
        let to = RankingDay.text(window.asOf)
        let lowest = RankingDay.text(includePrevious ? window.previous.firstDay : window.firstDay)
        let previousDay = window.asOf - window.length
        var filter = PostgresQuery(unsafeSQL: "")
        if let wantedIDs { filter = " AND element_type_id = ANY(\(wantedIDs))" }

        var activities: [Int32: ElementTypeActivity] = [:]
        func activity(_ id: Int32) -> ElementTypeActivity {
            activities[id] ?? ElementTypeActivity(elementType: elementNames[id] ?? "#\(id)", days: [])
        }

        let commandRows = try connection.query("""
            SELECT element_type_id, command_id,
                   COALESCE(sum(selections) FILTER (WHERE day >= \(from)::date), 0)::bigint,
                   COALESCE(sum(selections) FILTER (WHERE day < \(from)::date), 0)::bigint,
                   COALESCE(hll_cardinality(hll_union_agg(users) FILTER (WHERE day >= \(from)::date)), 0)
            FROM daily_command_usage
            WHERE app_id = \(appID) AND day BETWEEN \(lowest)::date AND \(to)::date\(filter)
            GROUP BY element_type_id, command_id
            """)
        for row in commandRows {
            let elementID: Int32 = try row.decode(at: 0)
            let commandID: Int32 = try row.decode(at: 1)
            let command = commandNames[commandID] ?? "#\(commandID)"
            let current: Int = try row.decode(at: 2)
            let previous: Int = try row.decode(at: 3)
            let users = Int(try row.decode(Double.self, at: 4).rounded())
            var entry = activity(elementID)
            if window.halfLife == nil, current > 0 {
                entry.days.append(CommandDay(day: window.asOf, command: command, selections: current))
            }
            if previous > 0 {
                entry.days.append(CommandDay(day: previousDay, command: command, selections: previous))
            }
            if users > 0 { entry.commandUsers[command] = users }
            activities[elementID] = entry
        }

        if window.halfLife != nil {
            let daily = try connection.query("""
                SELECT element_type_id, command_id, (day - DATE '1970-01-01')::int4, selections
                FROM daily_command_usage
                WHERE app_id = \(appID) AND day BETWEEN \(from)::date AND \(to)::date\(filter)
                ORDER BY element_type_id, command_id, day
                """)
            for row in daily {
                let elementID: Int32 = try row.decode(at: 0)
                let commandID: Int32 = try row.decode(at: 1)
                var entry = activity(elementID)
                entry.days.append(CommandDay(day: Int(try row.decode(Int32.self, at: 2)),
                                             command: commandNames[commandID] ?? "#\(commandID)",
                                             selections: try row.decode(at: 3)))
                activities[elementID] = entry
            }
        }

        let elementRows = try connection.query("""
            SELECT element_type_id,
                   COALESCE(sum(dismissals), 0)::bigint,
                   COALESCE(hll_cardinality(hll_union_agg(users)), 0)
            FROM daily_element_usage
            WHERE app_id = \(appID) AND day BETWEEN \(from)::date AND \(to)::date\(filter)
            GROUP BY element_type_id
            """)
        for row in elementRows {
            let elementID: Int32 = try row.decode(at: 0)
            var entry = activity(elementID)
            let dismissals: Int = try row.decode(at: 1)
            if dismissals > 0 { entry.dismissals[window.asOf] = dismissals }
            entry.users = Int(try row.decode(Double.self, at: 2).rounded())
            activities[elementID] = entry
        }

        return activities.values
            .map { entry in
                var sorted = entry
                sorted.days.sort { ($0.day, $0.command) < ($1.day, $1.command) }
                return sorted
            }
            .sorted { $0.elementType < $1.elementType }
    }

    /// Id to name of a dictionary table of the app.
    private func names(table: String, id: String, on connection: PostgresConnection) throws -> [Int32: String] {
        var out: [Int32: String] = [:]
        for row in try connection.query("SELECT \(identifier: id), name FROM \(identifier: table) WHERE app_id = \(appID)") {
            out[try row.decode(at: 0)] = try row.decode(at: 1)
        }
        return out
    }
}
