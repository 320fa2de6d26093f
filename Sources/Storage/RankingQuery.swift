public import Postgres
public import Ranking

/// Reads what `Ranker` needs from the rollups of one app: per element type and command the
/// selections of the window (and of the previous window, for trends), distinct users as the union
/// of the window's `hll` sketches, and per element type its dismissals and users.
///
/// The window is read as a `RollupSpan`: the stored aligned blocks that fit in it (two to sixteen
/// days each, `block_command_usage`, `block_element_usage`) and single days elsewhere, so a 28-day
/// window unites about five sketches per command instead of 28. The parts do not overlap, so the
/// sums and unions are exactly those of the daily rows. Everything is read in one REPEATABLE READ
/// snapshot (unless the caller already has a transaction open), so a rollup committing meanwhile
/// cannot pair a block list with block rows of another moment.
///
/// Without decay the window's selections are summed in SQL and handed over as one row on the
/// window's last day (and the previous window's as one row on its last day), which ranks exactly
/// like the daily rows. With a half-life the daily rows of the window are read as they are, since
/// each day has its own weight.
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
        if connection.isInTransaction { return try read(on: connection) }
        return try connection.withTransaction { connection in
            try connection.execute(unsafeSQL: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try read(on: connection)
        }
    }

    private func read(on connection: PostgresConnection) throws -> [ElementTypeActivity] {
        let elementNames = try names(table: "element_types", id: "element_type_id", on: connection)
        let commandNames = try names(table: "commands", id: "command_id", on: connection)
        var wantedIDs: [Int32]?
        if let elementTypes {
            wantedIDs = elementNames.filter { elementTypes.contains($0.value) }.map(\.key).sorted()
            if wantedIDs!.isEmpty { return [] }
        }
        let from = window.firstDay
        let to = window.asOf
        let lowest = includePrevious ? window.previous.firstDay : from
        let previousDay = window.asOf - window.length
        let available = try RollupSpan.availableBlocks(appID: appID, from: lowest, to: to, on: connection)
        let current = RollupSpan.covering(from: from, to: to, available: available)
        let previous = RollupSpan.covering(from: lowest, to: from - 1, available: available)

        var activities: [Int32: ElementTypeActivity] = [:]
        func activity(_ id: Int32) -> ElementTypeActivity {
            activities[id] ?? ElementTypeActivity(elementType: elementNames[id] ?? "#\(id)", days: [])
        }
        var commandCache: [Int32: String] = [:]
        func commandName(_ id: Int32) -> String {
            if let name = commandCache[id] { return name }
            let name = commandNames[id] ?? "#\(id)"
            commandCache[id] = name
            return name
        }

        // part 0: the window, part 1: the previous window.
        let commandParts = RollupSpan.rows(.commands, columns: ["element_type_id", "command_id", "selections", "users"],
                                           appID: appID, spans: [current, previous], elementIDs: wantedIDs)
        let commandRows = try connection.query("""
            SELECT element_type_id, command_id,
                   COALESCE(sum(selections) FILTER (WHERE part = 0), 0)::bigint,
                   COALESCE(sum(selections) FILTER (WHERE part = 1), 0)::bigint,
                   COALESCE(rollup_union_cardinality(users) FILTER (WHERE part = 0), 0)
            FROM (\(commandParts)) AS x
            GROUP BY element_type_id, command_id
            """)
        for row in commandRows {
            let elementID: Int32 = try row.decode(at: 0)
            let command = commandName(try row.decode(at: 1))
            let currentSelections: Int = try row.decode(at: 2)
            let previousSelections: Int = try row.decode(at: 3)
            let users = Int(try row.decode(Double.self, at: 4).rounded())
            var entry = activity(elementID)
            if window.halfLife == nil, currentSelections > 0 {
                entry.days.append(CommandDay(day: window.asOf, command: command, selections: currentSelections))
            }
            if previousSelections > 0 {
                entry.days.append(CommandDay(day: previousDay, command: command, selections: previousSelections))
            }
            if users > 0 { entry.commandUsers[command] = users }
            activities[elementID] = entry
        }

        if window.halfLife != nil {
            var filter = PostgresQuery(unsafeSQL: "")
            if let wantedIDs { filter = " AND element_type_id = ANY(\(wantedIDs))" }
            let daily = try connection.query("""
                SELECT element_type_id, command_id, (day - DATE '1970-01-01')::int4, selections
                FROM daily_command_usage
                WHERE app_id = \(appID) AND day BETWEEN \(RankingDay.text(from))::date AND \(RankingDay.text(to))::date\(filter)
                ORDER BY element_type_id, command_id, day
                """)
            for row in daily {
                let elementID: Int32 = try row.decode(at: 0)
                var entry = activity(elementID)
                entry.days.append(CommandDay(day: Int(try row.decode(Int32.self, at: 2)),
                                             command: commandName(try row.decode(at: 1)),
                                             selections: try row.decode(at: 3)))
                activities[elementID] = entry
            }
        }

        let elementParts = RollupSpan.rows(.elements, columns: ["element_type_id", "dismissals", "users"],
                                           appID: appID, spans: [current], elementIDs: wantedIDs)
        let elementRows = try connection.query("""
            SELECT element_type_id,
                   COALESCE(sum(dismissals), 0)::bigint,
                   COALESCE(rollup_union_cardinality(users), 0)
            FROM (\(elementParts)) AS x
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
