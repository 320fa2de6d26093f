public import Postgres
public import Ranking

extension RankingQuery {
    /// The daily rows of the window (selections and user-days per command and day) of a few element
    /// types, by element type name: what the day-bootstrap stability resamples. Read only for the
    /// proposals that would be filed, so a night that changes little reads little (one index range
    /// per element type on `daily_command_usage`).
    /// - Throws: `StorageError`.
    public func days(of elementTypes: Set<String>, on connection: PostgresConnection) throws(StorageError) -> [String: [CommandDay]] {
        return try StorageError.mapping {
            guard !elementTypes.isEmpty else { return [:] }
            let names = Array(elementTypes).sorted()
            var out: [String: [CommandDay]] = [:]
            for row in try connection.query("""
                SELECT e.name, c.name, (d.day - DATE '1970-01-01')::int4, d.selections, d.user_days
                FROM element_types e
                JOIN daily_command_usage d ON d.app_id = e.app_id AND d.element_type_id = e.element_type_id
                JOIN commands c ON c.app_id = d.app_id AND c.command_id = d.command_id
                WHERE e.app_id = \(appID) AND e.name = ANY(\(names))
                  AND d.day BETWEEN \(RankingDay.text(window.firstDay))::date AND \(RankingDay.text(window.asOf))::date
                ORDER BY e.name, 3, c.name
                """)
            {
                out[try row.decode(String.self, at: 0), default: []].append(CommandDay(
                    day: Int(try row.decode(Int32.self, at: 2)), command: try row.decode(at: 1),
                    selections: try row.decode(at: 3), userDays: try row.decode(at: 4)))
            }
            return out
        }
    }
}
