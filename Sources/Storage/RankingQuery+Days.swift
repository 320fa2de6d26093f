import CivilTime
public import Postgres
public import Ranking

extension RankingQuery {
    /// The daily rows of the window (selections and user-days per command and day) of a few element
    /// types, by element type name: what the day-bootstrap stability resamples. Read only for the
    /// proposals that would be filed, so a night that changes little reads little (one index range
    /// per element type on `daily_command_usage`).
    /// - Throws: `StorageError`.
    public func days(of elementTypes: Set<String>, on connection: PostgresConnection) throws(StorageError) -> [String: [CommandDay]] {
        try days(of: elementTypes, on: connection, replacing: nil)
    }

    /// `days(of:on:)` as they will read once the rollup that handed `preview` has committed, read
    /// while it writes: the stored rows of the days it does not recompute and the preview's rows
    /// of those it does (see `RollupPreview`). `preview` must be one the query `accepts`.
    /// - Throws: `StorageError`.
    public func days(of elementTypes: Set<String>, on connection: PostgresConnection,
                     replacing preview: RollupPreview?) throws(StorageError) -> [String: [CommandDay]]
    {
        return try StorageError.mapping {
            guard !elementTypes.isEmpty else { return [:] }
            if let preview, !accepts(preview) {
                throw StorageError(.database, "the rollup's preview does not cover the window \(window.firstDay)...\(window.asOf)")
            }
            let names = Array(elementTypes).sorted()
            var excluded = PostgresQuery(unsafeSQL: "")
            if let preview {
                excluded = " WHERE d.day <> ALL(\(preview.days.map { CivilDate(dayNumber: $0) })::date[])"
            }
            var out: [String: [CommandDay]] = [:]
            for row in try connection.query("""
                SELECT e.name, c.name, (d.day - DATE '1970-01-01')::int4, sum(d.selections)::bigint, sum(d.user_days)::bigint
                FROM \(segmentDays(from: window.firstDay))
                JOIN element_types e ON e.app_id = d.app_id AND e.element_type_id = d.element_type_id
                  AND e.app_id = \(appID) AND e.name = ANY(\(names))
                JOIN commands c ON c.app_id = d.app_id AND c.command_id = d.command_id\(excluded)
                GROUP BY e.name, c.name, d.day
                ORDER BY e.name, 3, c.name
                """)
            {
                out[try row.decode(String.self, at: 0), default: []].append(CommandDay(
                    day: Int(try row.decode(Int32.self, at: 2)), command: try row.decode(at: 1),
                    selections: try row.decode(at: 3), userDays: try row.decode(at: 4)))
            }
            guard let preview else { return out }
            var elementNames: [Int32: String] = [:]
            for row in try connection.query("""
                SELECT element_type_id, name FROM element_types WHERE app_id = \(appID) AND name = ANY(\(names))
                """)
            {
                elementNames[try row.decode(at: 0)] = try row.decode(at: 1)
            }
            var commandNames: [Int32: String] = [:]
            for row in try connection.query("SELECT command_id, name FROM commands WHERE app_id = \(appID)") {
                commandNames[try row.decode(at: 0)] = try row.decode(at: 1)
            }
            for day in window.days {
                for row in preview.commands[day] ?? [] {
                    guard let element = elementNames[row.elementTypeID] else { continue }
                    guard let command = commandNames[row.commandID] else {
                        throw StorageError(.database, "a rolled-up command (\(row.commandID)) is not in the dictionary")
                    }
                    out[element, default: []].append(CommandDay(day: day, command: command, selections: Int(row.selections),
                                                                userDays: Int(row.userDays)))
                }
            }
            return out.mapValues { rows in rows.sorted { ($0.day, $0.command) < ($1.day, $1.command) } }
        }
    }
}
