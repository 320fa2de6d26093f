import CivilTime
public import Postgres
public import Ranking

/// One element type of an app's usage overview: what the dashboard lists per element type, with
/// the figures `Ranker` gives it but none of its commands.
public struct ElementTypeOverview: Sendable, Hashable {
    /// The element type's use without its commands (`commands` is empty).
    public var usage: ElementTypeUsage
    /// Selections and dismissals on each day of the window (index 0 is its first day).
    public var dailySelections: [Int]
    public var dailyDismissals: [Int]
    /// The window's selections of commands the manifest does not declare, and those commands
    /// (most selected first, as the ranking orders them); nil without a manifest.
    public var undeclared: Undeclared?

    public struct Undeclared: Sendable, Hashable {
        public var selections: Int
        public var commands: [String]
    }
}

extension RankingQuery {
    /// The overview of the element types (`elementTypes`, or all of them): per element type its
    /// selections, dismissals and distinct users in the window, its selections in the previous
    /// window, its daily selections and dismissals, and the selections of commands outside
    /// `declared`. Equal to those members of `activities` ranked by `Ranker` (no decay), read
    /// without reading or ranking any command:
    ///
    /// - the counts are the element type rollups' day rows of both windows (`daily_element_usage`,
    ///   or with `segments` those segments' `segment_element_usage` rows), a few thousand narrow
    ///   rows read in binary and summed here; an element type's selections are its commands'
    ///   selections summed, as the rollup counts them from the same events;
    /// - the distinct users are the union of the window's element type sketches through the stored
    ///   blocks, as `activities` reads them (`elementTotals`);
    /// - the undeclared selections read the command rollups of the undeclared commands only,
    ///   none when the manifest declares every command the app has sent.
    ///
    /// Read in one REPEATABLE READ snapshot (or the caller's transaction). Ignores `includePrevious`
    /// (the trend needs the previous window) and needs a window without decay.
    /// - Throws: `StorageError`.
    public func overview(declared: Set<String>?, on connection: PostgresConnection) throws(StorageError)
        -> [ElementTypeOverview]
    {
        guard window.halfLife == nil else {
            throw StorageError(.invalidArgument, "the usage overview counts raw selections: a window without decay")
        }
        return try StorageError.mapping {
            try snapshot(connection) { connection in
                let elementNames = try names(table: "element_types", id: "element_type_id", on: connection)
                var wanted: [Int32]?
                if let elementTypes {
                    wanted = elementNames.filter { elementTypes.contains($0.value) }.map { $0.key }.sorted()
                    if wanted!.isEmpty { return [] }
                }
                let counts = try dayCounts(ids: wanted, on: connection)
                var query = self
                query.includePrevious = false
                let users = try query.elementTotals(query.spans(on: connection), on: connection, ids: wanted, share: .all,
                                                    workers: Self.cores)
                let undeclared = try undeclaredSelections(declared: declared, ids: wanted, on: connection)
                let usersByID = Dictionary(users.map { ($0.elementID, $0.users) }, uniquingKeysWith: +)
                var out: [ElementTypeOverview] = []
                for (id, count) in counts where count.inWindow || count.previous > 0 {
                    let name = elementNames[id] ?? "#\(id)"
                    let usage = ElementTypeUsage(summaryOf: name, window: window, selections: count.selections.reduce(0, +),
                                                 previousSelections: count.previous,
                                                 dismissals: count.dismissals.reduce(0, +),
                                                 users: usersByID[id] ?? 0)
                    out.append(ElementTypeOverview(
                        usage: usage, dailySelections: count.selections, dailyDismissals: count.dismissals,
                        undeclared: declared == nil ? nil : undeclared[id] ?? ElementTypeOverview.Undeclared(selections: 0, commands: [])))
                }
                return out.sorted { $0.usage.elementType < $1.usage.elementType }
            }
        }
    }

    /// Per element type: its selections and dismissals on each day of the window, its selections
    /// in the previous window, and whether the window has a row of it.
    private struct DayCounts {
        var selections: [Int]
        var dismissals: [Int]
        var previous = 0
        var inWindow = false
    }

    /// The element type rollups' rows of both windows, summed per element type and day (with
    /// segments, several rows a day).
    private func dayCounts(ids: [Int32]?, on connection: PostgresConnection) throws -> [Int32: DayCounts] {
        let first = window.previous.firstDay
        var sql: PostgresQuery = """
            SELECT element_type_id, (day - DATE '1970-01-01')::int4, selections, dismissals
            FROM \(identifier: segments == nil ? "daily_element_usage" : "segment_element_usage")
            WHERE app_id = \(appID) AND day BETWEEN \(first) AND \(window.asOf)
            """
        if let segments { sql.append(" AND segment_id = ANY(\(segments))") }
        if let ids { sql.append(" AND element_type_id = ANY(\(ids))") }
        let empty = DayCounts(selections: Array(repeating: 0, count: window.length),
                              dismissals: Array(repeating: 0, count: window.length))
        var out: [Int32: DayCounts] = [:]
        _ = try connection.queryBinary(sql) { row in
            let id = try Self.field(row.int32(0), row)
            let day = Int(try Self.field(row.int32(1), row))
            let selections = Int(try Self.field(row.int64(2), row))
            let dismissals = Int(try Self.field(row.int64(3), row))
            let index = day - window.firstDay.dayNumber
            if index >= 0 {
                guard index < window.length else { return }
                out[id, default: empty].selections[index] += selections
                out[id, default: empty].dismissals[index] += dismissals
                out[id, default: empty].inWindow = true
            } else if selections > 0 {
                out[id, default: empty].previous += selections
            }
        }
        return out
    }

    /// Per element type id, the window's selections of the commands outside `declared` (empty
    /// without a manifest or when every command the app has sent is declared).
    private func undeclaredSelections(declared: Set<String>?, ids: [Int32]?, on connection: PostgresConnection) throws
        -> [Int32: ElementTypeOverview.Undeclared]
    {
        guard let declared else { return [:] }
        let commandNames = try names(table: "commands", id: "command_id", on: connection)
        let outside = commandNames.filter { !declared.contains($0.value) }.map { $0.key }.sorted()
        guard !outside.isEmpty else { return [:] }
        var query = self
        query.includePrevious = false
        let spans = try query.spans(on: connection)
        let parts = RollupSpan.rows(.commands, columns: ["element_type_id", "command_id", "selections"], appID: appID,
                                    spans: [spans.current], elementIDs: ids, segments: segments)
        var sums: [Int32: [Int32: Int]] = [:]
        _ = try connection.queryBinary("""
            SELECT element_type_id, command_id, selections FROM (\(parts)) AS p WHERE command_id = ANY(\(outside))
            """) { row in
            let element = try Self.field(row.int32(0), row)
            let command = try Self.field(row.int32(1), row)
            sums[element, default: [:]][command, default: 0] += Int(try Self.field(row.int64(2), row))
        }
        return sums.mapValues { commands in
            let used = commands.filter { $0.value > 0 }.map { (name: commandNames[$0.key] ?? "#\($0.key)", selections: $0.value) }
                .sorted { $0.selections != $1.selections ? $0.selections > $1.selections : $0.name < $1.name }
            return ElementTypeOverview.Undeclared(selections: used.reduce(0) { $0 + $1.selections }, commands: used.map { $0.name })
        }
    }
}
