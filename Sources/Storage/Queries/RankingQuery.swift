import CivilTime
import Foundation
public import Postgres
public import Ranking

/// Reads what `Ranker` needs from the rollups of one app: per element type and command the
/// selections and user-days of the window (and of the previous window, for trends), distinct users as the union
/// of the window's `hll` sketches, and per element type its dismissals and users.
///
/// The window's rows are read as they are stored, in binary, and summed and united here
/// (`PartTotals`, `Sketches.HLLUnion`, whose count is `hll_cardinality`'s to the bit): the server
/// only finds the rows, with no sort or aggregate over the sketches, which cost it about four
/// fifths of the read (docs/benchmarks.md).
///
/// The window is read as a `RollupSpan`: the stored aligned blocks that fit in it (two to sixteen
/// days each, `block_command_usage`, `block_element_usage`) and single days elsewhere, so a 28-day
/// window unites about five sketches per command instead of 28. The parts do not overlap, so the
/// sums and unions are exactly those of the daily rows. The block list and the rows read with it
/// are read in one REPEATABLE READ snapshot (unless the caller already has a transaction open), so
/// a rollup committing meanwhile cannot pair a block list with block rows of another moment.
///
/// Without decay the window's selections are summed and handed over as one row on the
/// window's last day (and the previous window's as one row on its last day), which ranks exactly
/// like the daily rows. With a half-life the daily rows of the window are read as they are, since
/// each day has its own weight.
///
/// With `segments` (the ids `SegmentStore` picks for a `SegmentFilter` other than the default)
/// the same totals are read from the per-segment daily rows of those segments instead (sql/0014;
/// day by day, no blocks), summed and united across them.
public struct RankingQuery: Sendable {
    public var appID: Int32
    public var window: RankingWindow
    /// Only these element types (by name); nil for all of them.
    public var elementTypes: Set<String>?
    /// Whether to read the previous window too (trends). `recommend` does not need it.
    public var includePrevious: Bool
    /// Only the events of these segments, from the per-segment rollups; nil for the default
    /// rollups (every non-test event).
    public var segments: [Int32]?

    public init(appID: Int32, window: RankingWindow, elementTypes: Set<String>? = nil, includePrevious: Bool = true,
                segments: [Int32]? = nil) {
        self.appID = appID
        self.window = window
        self.elementTypes = elementTypes
        self.includePrevious = includePrevious
        self.segments = segments
    }

    /// One activity per element type with selections, dismissals or users in the window (or
    /// selections in the previous one), sorted by element type name.
    ///
    /// With `helper` (a second connection to the same database, not in a transaction) the reading
    /// is shared out (`PostgresConnection.splitRead`, the helper on a thread of its own): the
    /// helper reads the command and element type totals of the upper half of the app's element
    /// type ids while `connection` reads the lower half (the two halves cost about the same; with
    /// the element type totals on one side that side took twice as long). The halves are ranges
    /// of ids, which the rollups' keys hold after the day or block, so each side's index scans
    /// visit its own rows only (split by the ids' parity, each side fetched every row and dropped
    /// half). Each share reads the stored block list and the rows in one snapshot of its own, so
    /// each is exact; shares may see different moments when a rollup commits in between, as two
    /// statements would. Blocks the calling thread (libpq), so it runs on a thread of its own,
    /// never on the cooperative pool.
    /// - Throws: `StorageError`.
    public func activities(on connection: PostgresConnection, alongside helper: PostgresConnection? = nil) throws(StorageError)
        -> [ElementTypeActivity]
    {
        try activities(on: connection, alongside: helper, replacing: nil)
    }

    /// Whether `activities(on:alongside:replacing:)` can read the window with `preview`: the
    /// default rollups without decay or the previous window (it replaces only those totals), and
    /// the preview holds every day of the window the rollup recomputes.
    public func accepts(_ preview: RollupPreview) -> Bool {
        segments == nil && window.halfLife == nil && !includePrevious && preview.covers(window.firstDay, window.asOf)
    }

    /// `activities(on:alongside:)` as they will read once the rollup that handed `preview` has
    /// committed, read while it writes: the stored rows of the days it does not recompute, through
    /// the stored blocks that hold none of them, plus the preview's rows of the days it does (see
    /// `RollupPreview`). Read on `connection` alone (the rollup's helper, say, while the rollup's
    /// own connection writes). `preview` must be one the query `accepts`.
    /// - Throws: `StorageError`.
    public func activities(on connection: PostgresConnection, replacing preview: RollupPreview) throws(StorageError)
        -> [ElementTypeActivity]
    {
        guard accepts(preview) else {
            throw StorageError(.database, "the rollup's preview does not cover the window \(window.firstDay)...\(window.asOf)")
        }
        return try activities(on: connection, alongside: nil, replacing: preview)
    }

    private func activities(on connection: PostgresConnection, alongside helper: PostgresConnection?,
                            replacing preview: RollupPreview?) throws(StorageError) -> [ElementTypeActivity]
    {
        return try StorageError.mapping {
            let elementNames = try names(table: "element_types", id: "element_type_id", on: connection)
            let commandNames = try names(table: "commands", id: "command_id", on: connection)
            var wantedIDs: [Int32]?
            if let elementTypes {
                wantedIDs = elementNames.filter { elementTypes.contains($0.value) }.map { $0.key }.sorted()
                if wantedIDs!.isEmpty { return [] }
            }
            let wanted = wantedIDs

            var commandShares: [[CommandTotal]] = []
            var elementTotals: [ElementTotal] = []
            var dailyRows: [CommandDayRow] = []
            if let helper, wanted == nil, let middle = Self.middle(of: elementNames.keys),
               !helper.isInTransaction, !connection.isInTransaction
            {
                let query = self
                // Each share unites its sketches on half of the cores: the two run at once.
                let workers = max(1, Self.cores / 2)
                let (mine, theirs) = try connection.splitRead({ connection in
                    try Self.serialPlans(on: connection)
                    let spans = try spans(on: connection)
                    return (try commandTotals(spans, on: connection, ids: nil, share: .below(middle), workers: workers),
                            try self.elementTotals(spans, on: connection, ids: nil, share: .below(middle), workers: workers),
                            try dailies(on: connection, ids: nil))
                }, alongside: helper) { helper in
                    try Self.serialPlans(on: helper)
                    let spans = try query.spans(on: helper)
                    return (try query.commandTotals(spans, on: helper, ids: nil, share: .from(middle), workers: workers),
                            try query.elementTotals(spans, on: helper, ids: nil, share: .from(middle), workers: workers))
                }
                commandShares = [mine.0, theirs.0]
                elementTotals = mine.1 + theirs.1
                dailyRows = mine.2
            } else {
                (commandShares, elementTotals, dailyRows) = try snapshot(connection) { connection in
                    let spans = try spans(on: connection, replacing: preview)
                    return ([try commandTotals(spans, on: connection, ids: wanted, share: .all, workers: Self.cores,
                                               adding: preview)],
                            try self.elementTotals(spans, on: connection, ids: wanted, share: .all, workers: Self.cores,
                                                   adding: preview),
                            try dailies(on: connection, ids: wanted))
                }
            }

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
            let previousDay = window.previous.asOf
            for total in commandShares.joined() {
                let command = commandName(total.commandID)
                var entry = activity(total.elementID)
                if window.halfLife == nil, total.current > 0 {
                    entry.days.append(CommandDay(day: window.asOf, command: command, selections: total.current,
                                                 userDays: total.currentUserDays, people: total.people))
                }
                if total.previous > 0 {
                    entry.days.append(CommandDay(day: previousDay, command: command, selections: total.previous,
                                                 userDays: total.previousUserDays))
                }
                if total.users > 0 { entry.commandUsers[command] = total.users }
                activities[total.elementID] = entry
            }
            for row in dailyRows {
                var entry = activity(row.elementID)
                entry.days.append(CommandDay(day: row.day, command: commandName(row.commandID), selections: row.selections,
                                             userDays: row.userDays, people: row.people))
                activities[row.elementID] = entry
            }
            for total in elementTotals {
                var entry = activity(total.elementID)
                if total.dismissals > 0 { entry.dismissals[window.asOf] = total.dismissals }
                entry.users = total.users
                activities[total.elementID] = entry
            }

            return activities.values
                .map { entry in
                    var sorted = entry
                    sorted.days.sort { ($0.day, $0.command) < ($1.day, $1.command) }
                    return sorted
                }
                .sorted { $0.elementType < $1.elementType }
        }
    }

    /// The cores the unions of sketches are spread over.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Which element types a read covers: all of them, or one side of a split of the ids.
    enum Share {
        case all
        /// The element types whose id is below the given one.
        case below(Int32)
        /// The element types whose id is the given one or above.
        case from(Int32)

        /// The condition on `element_type_id` (with its leading ` WHERE `), empty for `all`.
        var condition: PostgresQuery {
            switch self {
            case .all: PostgresQuery(unsafeSQL: "")
            case .below(let id): " WHERE element_type_id < \(id)"
            case .from(let id): " WHERE element_type_id >= \(id)"
            }
        }
    }

    /// The id that cuts `ids` into two halves of the same size (the upper half starts at it); nil
    /// for fewer than two ids.
    static func middle(of ids: some Collection<Int32>) -> Int32? {
        guard ids.count >= 2 else { return nil }
        return ids.sorted()[ids.count / 2]
    }

    /// No parallel workers for the rest of the transaction: a share's rows all go through its
    /// backend to this client anyway, and the planner, which cannot estimate how many rows the
    /// block list picks, started two workers per statement (a process each, and every sketch
    /// copied through a queue to the leader) for about a third of the server's time.
    private static func serialPlans(on connection: PostgresConnection) throws {
        try connection.execute(unsafeSQL: "SET LOCAL max_parallel_workers_per_gather = 0")
    }

    /// Per command of the window: selections and user-days, those of the previous window, distinct
    /// users, and the window's split by person bucket.
    private struct CommandTotal: Sendable {
        var elementID: Int32
        var commandID: Int32
        var current: Int
        var previous: Int
        var currentUserDays: Int
        var previousUserDays: Int
        var users: Int
        var people: PeopleCounts
    }

    /// Per element type of the window: dismissals and distinct users.
    struct ElementTotal: Sendable {
        var elementID: Int32
        var dismissals: Int
        var users: Int
    }

    /// A daily row of the window (read only with a half-life).
    struct CommandDayRow: Sendable {
        var elementID: Int32
        var commandID: Int32
        var day: CivilDate
        var selections: Int
        var userDays: Int
        var people: PeopleCounts
    }

    /// Runs `body` in a REPEATABLE READ, READ ONLY transaction (or in the caller's transaction), so
    /// the stored block list and the rows read with it belong to one moment. A transaction of its
    /// own also plans serially (`serialPlans`), as each share of a split read does: every row goes
    /// to this client anyway, and the planner gave a night's read of the window beside its rollup
    /// two parallel workers per statement (auto_explain) on cores the rollup already keeps busy.
    func snapshot<T>(_ connection: PostgresConnection, _ body: (PostgresConnection) throws -> T) throws -> T {
        if connection.isInTransaction { return try body(connection) }
        return try connection.withTransaction { connection in
            try connection.execute(unsafeSQL: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            try Self.serialPlans(on: connection)
            return try body(connection)
        }
    }

    /// The spans of the window (part 0) and of the previous window (part 1, empty without
    /// `includePrevious`), through the blocks stored now. Read once per snapshot: the command and
    /// the element type totals share them.
    ///
    /// With `preview`, the days the rollup recomputes and the blocks holding them are left out
    /// (their new rows are the preview's).
    func spans(on connection: PostgresConnection, replacing preview: RollupPreview? = nil) throws
        -> (current: RollupSpan, previous: RollupSpan)
    {
        // The rollup's spans count in day numbers (block arithmetic).
        let from = window.firstDay.dayNumber, to = window.asOf.dayNumber
        let lowest = includePrevious ? window.previous.firstDay.dayNumber : from
        var available = segments != nil ? []
            : try RollupSpan.availableBlocks(appID: appID, from: lowest, to: to, on: connection)
        var current = RollupSpan.covering(from: from, to: to, available: available)
        if let preview {
            available = available.filter { !preview.recomputes($0) }
            current = RollupSpan.covering(from: from, to: to, available: available)
            current.days.removeAll { preview.recomputes($0) }
        }
        return (current, RollupSpan.covering(from: lowest, to: from - 1, available: available))
    }

    /// The command totals of the element types in `ids` (all when nil) and in `share`.
    ///
    /// The parts' rows are read as they are stored, in binary (`queryBinary`: a sketch arrives as
    /// its bytes), and summed and united here (`PartTotals`): in SQL the sort and the group
    /// aggregate of `hll_union_agg` cost about four fifths of the statement's server time. Only
    /// the window's own rows carry their sketches and their splits by person bucket (summed
    /// here: `PeopleSums`); the previous window's carry NULL.
    private func commandTotals(_ spans: (current: RollupSpan, previous: RollupSpan), on connection: PostgresConnection,
                               ids: [Int32]?, share: Share, workers: Int, adding preview: RollupPreview? = nil) throws
        -> [CommandTotal]
    {
        let (current, previous) = spans
        let parts = RollupSpan.rows(.commands, columnsOfPart: { part in
            ["element_type_id", "command_id", "selections", "user_days", part == 0 ? "users" : "NULL::hll",
             part == 0 ? "people" : "NULL::bytea"]
        }, appID: appID, spans: [current, previous], elementIDs: ids, segments: segments)
        var totals = PartTotals(countColumns: 2, parts: 2)
        var splits = PeopleSums()
        let wanted = ids.map(Set.init)
        let added = PreviewSketches(preview.map { preview in
            window.days.flatMap { preview.commands[$0.dayNumber] ?? [] }.filter { wanted?.contains($0.elementTypeID) ?? true }
        } ?? [], sketch: \.users)
        defer { added.release() }
        for (index, row) in added.rows.enumerated() {
            let slot = totals.slot(of: Int64(row.elementTypeID) << 32 | Int64(UInt32(bitPattern: row.commandID)))
            totals.add(Int(row.selections), column: 0, part: 0, slot: slot)
            totals.add(Int(row.userDays), column: 1, part: 0, slot: slot)
            totals.addSketch(added.bytes(index), slot: slot)
            try row.people.withUnsafeBytes { try splits.add($0, slot: slot) }
        }
        // The sketches are united in place, before the result is cleared.
        let users = try connection.queryBinary("""
            SELECT element_type_id, command_id, part, selections, user_days, users, people FROM (\(parts)) AS p\(share.condition)
            """, { row in
            let key = Int64(try Self.field(row.int32(0), row)) << 32 | Int64(UInt32(bitPattern: try Self.field(row.int32(1), row)))
            let slot = totals.slot(of: key)
            let part = Int(try Self.field(row.int32(2), row))
            totals.add(Int(try Self.field(row.int64(3), row)), column: 0, part: part, slot: slot)
            totals.add(Int(try Self.field(row.int64(4), row)), column: 1, part: part, slot: slot)
            if let users = row.rawBytes(5) { totals.addSketch(users, slot: slot) }
            if part == 0 { try splits.add(row.rawBytes(6), slot: slot) }
        }, then: { try totals.cardinalities(workers: workers) })
        return try totals.keys.indices.map { slot in
            let key = totals.keys[slot]
            return CommandTotal(elementID: Int32(key >> 32), commandID: Int32(truncatingIfNeeded: key),
                                current: totals.sum(column: 0, part: 0, slot: slot),
                                previous: totals.sum(column: 0, part: 1, slot: slot),
                                currentUserDays: totals.sum(column: 1, part: 0, slot: slot),
                                previousUserDays: totals.sum(column: 1, part: 1, slot: slot),
                                users: try Self.count(users[slot]), people: splits.split(slot))
        }
    }

    /// The element type totals of the window, of the element types in `ids` (all when nil) and in
    /// `share`; read and folded like the command totals.
    func elementTotals(_ spans: (current: RollupSpan, previous: RollupSpan), on connection: PostgresConnection,
                               ids: [Int32]?, share: Share, workers: Int, adding preview: RollupPreview? = nil) throws
        -> [ElementTotal]
    {
        let parts = RollupSpan.rows(.elements, columns: ["element_type_id", "dismissals", "users"],
                                    appID: appID, spans: [spans.current], elementIDs: ids, segments: segments)
        var totals = PartTotals(countColumns: 1, parts: 1)
        let wanted = ids.map(Set.init)
        let added = PreviewSketches(preview.map { preview in
            window.days.flatMap { preview.elements[$0.dayNumber] ?? [] }.filter { wanted?.contains($0.elementTypeID) ?? true }
        } ?? [], sketch: \.users)
        defer { added.release() }
        for (index, row) in added.rows.enumerated() {
            let slot = totals.slot(of: Int64(row.elementTypeID))
            totals.add(Int(row.dismissals), column: 0, part: 0, slot: slot)
            totals.addSketch(added.bytes(index), slot: slot)
        }
        let users = try connection.queryBinary("SELECT element_type_id, dismissals, users FROM (\(parts)) AS p\(share.condition)", { row in
            let slot = totals.slot(of: Int64(try Self.field(row.int32(0), row)))
            totals.add(Int(try Self.field(row.int64(1), row)), column: 0, part: 0, slot: slot)
            if let users = row.rawBytes(2) { totals.addSketch(users, slot: slot) }
        }, then: { try totals.cardinalities(workers: workers) })
        return try totals.keys.indices.map { slot in
            ElementTotal(elementID: Int32(totals.keys[slot]), dismissals: totals.sum(column: 0, part: 0, slot: slot),
                         users: try Self.count(users[slot]))
        }
    }

    /// A distinct count as a whole number of people (as the SQL `round(...)` before). Sketches
    /// with every register near its maximum (about 10^12 people) estimate no finite number.
    private static func count(_ cardinality: Double) throws(StorageError) -> Int {
        guard cardinality.isFinite, cardinality >= 0, cardinality < 1e15 else {
            throw StorageError(.database, "the distinct users of a window's sketches are no finite count (\(cardinality))")
        }
        return Int(cardinality.rounded())
    }

    /// A value of a NOT NULL column of the parts' rows. The parts are read by field position
    /// (`BinaryCopyRow`, the per-row hot path of every ranking), in the order of their SELECT list.
    static func field<T>(
_ value: T?, _ row: borrowing BinaryCopyRow) throws(StorageError) -> T {
        guard let value else { throw StorageError(.database, "a rollup row (\(row.number)) has NULL where a value is stored") }
        return value
    }

    /// With a half-life, the daily rows of the window (each day has its own weight); else none.
    private func dailies(on connection: PostgresConnection, ids: [Int32]?) throws -> [CommandDayRow] {
        guard window.halfLife != nil else { return [] }
        var filter = PostgresQuery(unsafeSQL: "")
        if let ids { filter = " AND element_type_id = ANY(\(ids))" }
        return try dayRows(from: segmentDays(from: window.firstDay), where: filter, on: connection)
    }

    /// The rows of `days` (a `segmentDays` subquery) that match `condition` (a leading ` AND ...`,
    /// or empty), one per element type, command and day: with segments several stored rows a day,
    /// whose counts and splits by person bucket are summed here, as they come in key order (a
    /// split is bytes SQL cannot add).
    func dayRows(from days: PostgresQuery, where condition: PostgresQuery, on connection: PostgresConnection) throws
        -> [CommandDayRow]
    {
        var rows: [CommandDayRow] = []
        var splits = PeopleSums()
        _ = try connection.queryBinary("""
            SELECT element_type_id, command_id, (day - DATE '1970-01-01')::int4, selections, user_days, people
            FROM \(days) WHERE true\(condition)
            ORDER BY element_type_id, command_id, day
            """) { row in
            let element = try Self.field(row.int32(0), row)
            let command = try Self.field(row.int32(1), row)
            let day = CivilDate(dayNumber: Int(try Self.field(row.int32(2), row)))
            let selections = Int(try Self.field(row.int64(3), row))
            let userDays = Int(try Self.field(row.int64(4), row))
            if let last = rows.last, last.elementID == element, last.commandID == command, last.day == day {
                rows[rows.count - 1].selections += selections
                rows[rows.count - 1].userDays += userDays
            } else {
                rows.append(CommandDayRow(elementID: element, commandID: command, day: day, selections: selections,
                                          userDays: userDays, people: .unknown))
            }
            try splits.add(row.rawBytes(5), slot: rows.count - 1)
        }
        for index in rows.indices { rows[index].people = splits.split(index) }
        return rows
    }

    /// `daily_command_usage` of the app from `from` to the window's last day, or with `segments`
    /// the rows of those segments (`segment_command_usage`, several a day and command, to be
    /// summed), as a subquery named `d` for a FROM clause (the planner flattens it).
    func segmentDays(from: CivilDate) -> PostgresQuery {
        segmentDays(where: "day BETWEEN \(from) AND \(window.asOf)")
    }

    private func segmentDays(where days: PostgresQuery) -> PostgresQuery {
        var query: PostgresQuery = """
            (SELECT app_id, day, element_type_id, command_id, selections, user_days, people
             FROM \(identifier: segments == nil ? "daily_command_usage" : "segment_command_usage")
             WHERE app_id = \(appID)
            """
        query.append(" AND ")
        query.append(days)
        if let segments { query.append(" AND segment_id = ANY(\(segments))") }
        query.append(") AS d")
        return query
    }

    /// Id to name of a dictionary table of the app.
    func names(table: String, id: String, on connection: PostgresConnection) throws -> [Int32: String] {
        var out: [Int32: String] = [:]
        for row in try connection.query("SELECT \(identifier: id) AS id, name FROM \(identifier: table) WHERE app_id = \(appID)") {
            out[try row.decode(column: "id")] = try row.decode(column: "name")

        }
        return out
    }
}
