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
                SELECT e.name, c.name, (d.day - DATE '1970-01-01')::int4, sum(d.selections)::bigint, sum(d.user_days)::bigint
                FROM \(segmentDays(from: window.firstDay))
                JOIN element_types e ON e.app_id = d.app_id AND e.element_type_id = d.element_type_id
                  AND e.app_id = \(appID) AND e.name = ANY(\(names))
                JOIN commands c ON c.app_id = d.app_id AND c.command_id = d.command_id
                GROUP BY e.name, c.name, d.day
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
