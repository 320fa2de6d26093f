import CivilTime
public import Postgres
public import Ranking

extension RankingQuery {
    /// The daily rows of the window (selections, user-days and their split by person bucket per
    /// command and day) of a few element types, by element type name: what the day-bootstrap
    /// stability resamples. Read only for the
    /// proposals that would be filed, so a night that changes little reads little: the window's days
    /// are named one by one (`day = ANY(...)`), so the primary key is searched once per day and
    /// element type; a range of days would walk every row of the window in the index, a dozen
    /// milliseconds for one element type at 1,000 of them.
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
            var elementNames: [Int32: String] = [:]
            for row in try connection.query("""
                SELECT element_type_id, name FROM element_types WHERE app_id = \(appID) AND name = ANY(\(names))
                """)
            {
                elementNames[try row.decode(at: 0)] = try row.decode(at: 1)
            }
            guard !elementNames.isEmpty else { return [:] }
            let commandNames = try self.names(table: "commands", id: "command_id", on: connection)
            func command(_ id: Int32) throws -> String {
                guard let name = commandNames[id] else {
                    throw StorageError(.database, "a rolled-up command (\(id)) is not in the dictionary")
                }
                return name
            }
            // The days read from storage: the window's, but those the preview recomputes.
            let stored = window.days.filter { preview?.recomputes($0) != true }
            var out: [String: [CommandDay]] = [:]
            for row in try dayRows(from: segmentDays(stored),
                                   where: " AND element_type_id = ANY(\(Array(elementNames.keys).sorted()))", on: connection)
            {
                // (A command missing from the dictionary is left out, as the join with it did.)
                guard let element = elementNames[row.elementID], let name = commandNames[row.commandID] else { continue }
                out[element, default: []].append(CommandDay(day: row.day, command: name, selections: row.selections,
                                                            userDays: row.userDays, people: row.people))
            }
            for day in window.days where preview?.recomputes(day) == true {
                for row in preview?.commands[day] ?? [] {
                    guard let element = elementNames[row.elementTypeID] else { continue }
                    guard let people = PeopleCounts(encoded: row.people) else {
                        throw StorageError(.database, "a recomputed row's people split is not one")
                    }
                    out[element, default: []].append(CommandDay(day: day, command: try command(row.commandID),
                                                                selections: Int(row.selections),
                                                                userDays: Int(row.userDays), people: people))
                }
            }
            return out.mapValues { rows in rows.sorted { ($0.day, $0.command) < ($1.day, $1.command) } }
        }
    }
}
